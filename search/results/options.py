"""The options of a search checked and turned into engine filters; bad values are one-line
QueryErrors that name what is allowed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from indexer.errors import QueryError
from indexer.models import TOP_KINDS

MAX_QUERY = 1000  # characters
MAX_LIMIT = 1000

#: Treaty id -> {"parties": [...], "languages": [...]}, read from the store when first needed.
TreatiesFn = Callable[[], dict[str, dict]]


def check_limit(limit: object) -> None:
    if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, not {limit}")


def clean_query(query: str | None) -> str:
    """The query text with control characters as spaces; QueryError when too long."""
    query = "".join(ch if ch.isprintable() else " " for ch in query or "")
    if len(query) > MAX_QUERY:
        raise QueryError(f"the query is {len(query)} characters long; the most is "
                         f"{MAX_QUERY}")
    return query


def check_query(query: str | None) -> str:
    """`clean_query`, and a QueryError saying what to type when nothing is left to search."""
    query = clean_query(query)
    if not query.strip():
        raise QueryError("nothing to search for: type words, a \"phrase\", prefix* or "
                         "term~, e.g. dividends, \"beneficial owner\", royalt*")
    return query


def _given(value: object) -> str | None:
    """The option's text, stripped; None when not given or blank."""
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _lang(value: str, languages: Sequence[str]) -> tuple[str, str]:
    from search.names import known_language

    return ("lang", known_language(value, languages))


def _treaty(value: str, treaties: TreatiesFn) -> tuple[str, str]:
    treaty = value.lower()
    if treaty not in treaties():
        raise QueryError(f"no treaty '{treaty[:40]}' (the corpus has: "
                         f"{', '.join(sorted(treaties())) or 'none'})")
    return ("treaty", treaty)


def _party(value: str, treaties: TreatiesFn) -> tuple[str, str]:
    from search.names import known_party

    return ("party", known_party(value, (p for t in treaties().values() for p in t["parties"])))


def _article(value: str) -> tuple[str, str]:
    number = article_number(value)
    if number is None:
        raise QueryError(f"--article must be an article number (10 or X), not "
                         f"'{value[:20]}'")
    return ("number", str(number))


def _kind(value: str) -> tuple[str, str]:
    kind = value.lower()
    if kind not in TOP_KINDS:
        raise QueryError(f"unknown kind '{kind[:20]}': use one of {', '.join(TOP_KINDS)}")
    return ("kind", kind)


def filters(languages: Sequence[str], treaties: TreatiesFn, *, lang: str | None = None,
            treaty: str | None = None, party: str | None = None, topic: str | None = None,
            article: int | str | None = None, kind: str | None = None
            ) -> list[tuple[str, str]]:
    """The engine filters of the options given, checked in this order against the index's
    `languages` and the store's `treaties` (read only for a treaty or party)."""
    checks: tuple[tuple[object, Callable[[str], tuple[str, str]]], ...] = (
        (lang, lambda v: _lang(v, languages)),
        (treaty, lambda v: _treaty(v, treaties)),
        (party, lambda v: _party(v, treaties)),
        (topic, lambda v: ("topic", topic_key(v))),
        (article, _article),
        (kind, _kind),
    )
    out: list[tuple[str, str]] = []
    for value, check in checks:
        text = _given(value)
        if text is not None:
            out.append(check(text))
    return out


def article_number(text: str) -> int | None:
    """10, "10", "X", "art. 10", "Artikel X" -> 10; None when it is no article number."""
    if text.isdigit():
        return int(text)
    m = re.fullmatch(r"(?i)(?:art(?:icle|igo|ikel)?[._ ]*)?(\d+|[ivxlc]+)", text)
    if not m:
        return None
    value = m.group(1)
    if value.isdigit():
        return int(value)
    from indexer.segment.numerals import parse_roman

    return parse_roman(value)


def topic_key(value: str) -> str:
    """A topic key from its key or display name in any language ("Dividends", "股息");
    QueryError naming the keys when unknown."""
    from indexer.topics import TOPICS

    v = " ".join(value.strip().lower().split())
    if v in TOPICS:
        return v
    for key, names in TOPICS.items():
        if v == key.replace("-", " ") or v in {n.lower() for n in names.values()}:
            return key
    raise QueryError(f"unknown topic '{value.strip()[:40]}': use one of {', '.join(TOPICS)}")
