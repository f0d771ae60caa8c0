"""Hypothesis strategies for fuzzing the web app: a URL of any GET route of the app's URL map,
its variables and query parameters filled with real ids, random text (control characters,
any script), raw %-escapes (valid or not) and huge values. Used by tests/test_web_fuzz.py and
scripts/fuzz_web.py."""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus

from hypothesis import strategies as st

# real values by route variable or query parameter name (others: any of them)
REAL = {
    "treaty": ["br-se-1965", "br-pe-2006", "br-cn-1991"],
    "eid": ["art_7", "art_10__para_2", "art_7__para_2", "prot_4", "other_1"],
    "topic": ["dividends", "interest"],
    "filename": ["app.js", "style.css"],
    "q": ["dividends", "tax", "beneficial owner", "br-se-1965 art 7", "中国巴西协定第十条"],
    "lang": ["sv", "en", "zh", "pt"],
    "view": ["text", "diff", "raw"],
    "page": ["1", "2"], "size": ["3"], "article": ["7", "10"], "party": ["BR"],
    "kind": ["article"], "to": ["pt", "zh", "english"], "from": ["en", "sv"],
    "fmt": ["csv", "docx", "tmx", "txt"],
}
RESERVED = ["_external", "_scheme", "_anchor", "_method", "endpoint", "treaty", "eid"]
NAMES = [*REAL, *RESERVED]
_ANY = sorted({v for values in REAL.values() for v in values})

_chars = st.characters(blacklist_categories=("Cs",))
_text = st.text(_chars, max_size=40)
_escapes = st.lists(st.one_of(
    st.integers(0, 255).map(lambda n: f"%{n:02X}"),
    st.sampled_from(["%", "%z", "%zz", "%0d%0a", "%00", "%ff%fe", "%e2%80", "%C0%AF", "%2e%2e%2f",
                     "%25", "+", "&", "=", "#", "?", "/", "..", "//"]),
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7e), max_size=3),
), max_size=12).map("".join)  # already in URL form
_huge = st.tuples(st.sampled_from(["x", "(", "a~ ", "a* ", "%28", "é", "股", "\n"]),
                  st.integers(200, 5000)).map(lambda t: t[0] * t[1])


def _encoded(name: str, quoting):
    """A value in URL form: real (often, so that the pages past validation are reached too),
    quoted random text, raw escapes, or a huge value."""
    real = st.sampled_from(REAL.get(name, _ANY)).map(quoting)
    return st.one_of(real, real, st.sampled_from(_ANY).map(quoting), _text.map(quoting),
                     _escapes, _huge.map(lambda s: s if "%" in s else quoting(s)))


def _path(rule: str):
    parts = re.split(r"(<[^>]+>)", rule)
    return st.tuples(*[
        _encoded(p.strip("<>").split(":")[-1], lambda s: quote(s, safe=""))
        if p.startswith("<") else st.just(p) for p in parts]).map("".join)


def _pair(key: str):
    return _encoded(key, quote_plus).map(lambda v: f"{key}={v}")


def request_urls(app):
    """A strategy of URLs (path and query string) over every GET route of `app`."""
    rules = sorted(r.rule for r in app.url_map.iter_rules() if "GET" in (r.methods or ()))
    key = st.one_of(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(RESERVED),
                    _text.map(quote_plus), _escapes)
    query = st.lists(key.flatmap(_pair), max_size=5).map("&".join)
    return st.tuples(st.sampled_from(rules).flatmap(_path), query).map(
        lambda pq: pq[0] + ("?" + pq[1] if pq[1] else ""))
