"""The web app through Flask's test client, on the bundled corpus ingested once per session:
status codes, content of real units, errors as 400/404 with a message, escaping, and no 500
on any query string (hypothesis)."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from search.web import create_app
from search.web.pages import lang_name


@pytest.fixture(scope="module")
def client(ingested):
    app = create_app(ingested)
    app.testing = True
    return app.test_client()


def get(client, url: str, status: int = 200):
    resp = client.get(url)
    assert resp.status_code == status, (url, resp.status_code, resp.data[:400])
    return resp


def text(resp) -> str:
    return resp.get_data(as_text=True)


# --- pages -----------------------------------------------------------------------------------


def test_home_lists_treaties_and_topics(client):
    html = text(get(client, "/"))
    for tid in ("br-pe-2006", "br-co-2022", "br-se-1965", "br-cn-1991", "es-pt-1993"):
        assert f'href="/t/{tid}"' in html
    assert 'href="/topic/dividends"' in html
    assert 'action="/cite"' in html and 'action="/search"' in html  # boxes on every page
    assert "/static/style.css" in html


def test_search_groups_by_article_with_snippets_and_citations(client):
    html = text(get(client, "/search?q=beneficial+owner"))
    assert "<b>beneficial</b> <b>owner</b>" in html
    assert "br-pe-2006 Art. 10" in html  # citation link
    assert re.search(r'class="hit-link" href="/t/br-pe-2006/art_10\?hl=beneficial\+owner#art_10__para_\d"', html)
    # facets with counts, each a link that adds the filter
    assert 'href="/search?q=beneficial+owner&amp;treaty=br-pe-2006"' in html
    assert 'href="/search?q=beneficial+owner&amp;lang=en"' in html


def test_search_facet_filter_and_removal(client):
    html = text(get(client, "/search?q=dividends&treaty=br-se-1965"))
    assert "Brazil–Sweden (1965) · " in html and ">Art. 3" in html  # names, not codes
    assert 'href="/t/br-pe-2006/' not in html
    assert 'aria-current="true" href="/search?q=dividends"' in html  # remove the filter


def test_search_pagination(client):
    data = get(client, "/api/search?q=tax&size=3").get_json()
    assert data["pages"] > 1 and len(data["hits"]) == 3
    html = text(get(client, "/search?q=tax&size=3&page=2"))
    assert 'rel="prev"' in html and 'rel="next"' in html
    assert '<ol class="hits" start="4">' in html


def test_search_did_you_mean(client):
    """A word with no match: the corrected query's results, with a link to the words as
    typed; there, "did you mean"."""
    html = text(get(client, "/search?q=benefical"))
    assert "Showing results for <q lang=\"en\">beneficial</q>" in html
    assert 'href="/search?q=benefical&amp;as_typed=1"' in html
    data = get(client, "/api/search?q=benefical").get_json()
    assert data["suggestions"][0] == "beneficial" and data["showing"] == "beneficial"
    assert data["hits"] and data["facets"]["treaty"]
    html = text(get(client, "/search?q=benefical&as_typed=1"))
    assert "Did you mean" in html and 'href="/search?q=beneficial"' in html
    assert "Showing results for" not in html


def test_search_page_past_the_end_shows_the_last_page(client):
    data = get(client, "/api/search?q=tax&size=3").get_json()
    last = get(client, "/api/search?q=tax&size=3&page=999").get_json()
    assert last["past_end"] and last["page"] == data["pages"] and last["hits"]
    html = text(get(client, "/search?q=tax&size=3&page=999"))
    assert "There is no page 999" in html


def test_search_count_is_singular_for_one_article(client):
    assert get(client, "/api/search?q=advisors").get_json()["total"] == 1
    assert "1 article matches" in text(get(client, "/search?q=advisors"))
    many = text(get(client, "/search?q=dividends"))
    assert "articles match" in many and "article match " not in many


def test_search_facets_list_every_value_with_more(client):
    data = get(client, "/api/search?q=tribut%C3%A7%C3%A3o").get_json()
    topics = data["facets"]["topic"]
    assert [t["count"] for t in topics] == sorted((t["count"] for t in topics), reverse=True)
    html = text(get(client, "/search?q=tribut%C3%A7%C3%A3o"))
    assert len(topics) > 8 and f"{len(topics) - 8} more</summary>" in html
    for t in topics:
        assert f'topic={t["value"]}"' in html


def test_search_chinese_and_swedish(client):
    data = get(client, "/api/search?q=股息").get_json()
    assert any(h["treaty"] == "br-cn-1991" and h["number"] == 10 for h in data["hits"])
    data = get(client, "/api/search?q=utdelning&lang=sv").get_json()
    assert data["hits"] and all(h["lang"] == "sv" for h in data["hits"])


def test_article_three_aligned_columns(client):
    html = text(get(client, "/t/br-se-1965/art_7"))
    for lang in ("sv", "en", "pt"):
        assert f'<span lang="{lang}">{lang_name(lang)}</span>' in html  # the column's head
        assert f'<td lang="{lang}" data-lang="{lang}">' in html
    assert 'id="art_7__para_2"' in html and 'href="#art_7__para_2"' in html  # permalink
    row = html[html.index('<tr id="art_7__para_2">'):]
    row = row[: row.index("</tr>")]
    assert "Med uttrycket" in row and "In this Article, the term" in row and "Neste Artigo" in row
    assert 'href="/t/br-se-1965/art_6"' in html and 'href="/t/br-se-1965/art_8"' in html
    assert 'rel="prev"' in html and 'rel="next"' in html


def test_article_language_choice(client):
    html = text(get(client, "/t/br-se-1965/art_7?lang=sv&lang=en"))
    assert '<td lang="pt"' not in html
    assert '<td lang="sv"' in html and '<td lang="en"' in html
    assert text(get(client, "/t/br-se-1965/art_7?lang=sv,en")) == html


def test_article_raw_and_repairs_views(client):
    raw = text(get(client, "/t/br-se-1965/art_7?view=raw"))
    diff = text(get(client, "/t/br-se-1965/art_7?view=diff"))
    normal = text(get(client, "/t/br-se-1965/art_7"))
    assert '<del class="ocr">' in diff and '<ins class="ocr">' in diff
    assert "OCR repairs" in diff and '<mark class="ocr"' in raw
    assert '<del class="ocr">' not in normal
    assert 'value="diff" checked' in diff


def test_article_protocol_items_and_cross_references(client):
    html = text(get(client, "/t/br-pe-2006/art_12"))
    assert 'href="/t/br-pe-2006/prot_4"' in html  # the protocol item on Article 12
    html = text(get(client, "/t/br-pe-2006/art_10"))
    assert '<a class="xref" href="/t/br-pe-2006/art_7">Article 7</a>' in html
    prot = text(get(client, "/t/br-pe-2006/prot_4"))
    assert 'href="/t/br-pe-2006/art_12"' in prot


def test_article_chinese(client):
    html = text(get(client, "/t/br-cn-1991/art_10"))
    assert 'lang="zh"' in html and "股息" in html


def test_paragraph_url_redirects_to_anchor(client):
    resp = get(client, "/t/br-se-1965/art_7__para_2?lang=sv", 302)
    assert resp.headers["Location"].endswith("/t/br-se-1965/art_7?lang=sv#art_7__para_2")


def test_topic_page_one_column_per_treaty(client):
    html = text(get(client, "/topic/dividends"))
    from search.names import treaty_name

    for tid in ("br-pe-2006", "br-se-1965", "br-cn-1991", "es-pt-1993", "br-co-2022"):
        assert f"{treaty_name(tid)} Art. " in html
    assert 'id="row_2"' in html
    zh = text(get(client, "/topic/dividends?lang=zh"))
    assert "only en" in zh  # treaties without Chinese fall back to their own language
    assert "/topic/dividends" in text(get(client, "/topic"))


def test_topic_page_pages_of_treaties(client, ingested):
    """A topic page shows a page of treaties (TOPIC_COLUMNS); a page past the last is the
    last; the bundled corpus's five fit on one."""
    from search.corpus import Corpus
    from search.web.pages import topic_page

    with Corpus(ingested) as corpus:
        first = topic_page(corpus, "dividends", None, {}, 1, per_page=2)
        second = topic_page(corpus, "dividends", None, {}, 2, per_page=2)
        past = topic_page(corpus, "dividends", None, {}, 9, per_page=2)
    assert (first.pages, first.treaties) == (3, 5)
    assert [c["treaty"].id for c in first.columns] == ["br-cn-1991", "br-co-2022"]
    assert [c["treaty"].id for c in second.columns] == ["br-pe-2006", "br-se-1965"]
    assert past.page == 3 and [c["treaty"].id for c in past.columns] == ["es-pt-1993"]
    html = text(get(client, "/topic/dividends?page=4"))
    assert "page 1 of" not in html and 'class="pager"' not in html
    assert "page must be a whole number" in text(get(client, "/topic/dividends?page=x", 400))


def test_treaty_page_metadata_outline_and_other_parts(client):
    html = text(get(client, "/t/br-se-1965"))
    assert "sweden-brazil-1965.sv-en-pt.txt" in html and "1965-09-17" in html
    assert "Rio de Janeiro" in html and "Brazil <span class=\"muted\">(BR)</span>, Sweden <span class=\"muted\">(SE)</span>" in html
    assert 'href="/t/br-se-1965/art_7"' in html
    assert "Not part of the treaty" in html and 'href="/t/br-se-1965/other_1?lang=sv"' in html
    cn = text(get(client, "/t/br-cn-1991"))
    assert "河北省" in cn  # the unrelated regulation after the treaty, shown apart


def test_treaty_page_counts_audit_findings_per_version(client, ingested):
    """Each audited language version with its count of `treaty check` findings; the list,
    each finding linked to its unit, behind a details element."""
    from search.check import check, per_version
    from search.corpus import Corpus

    with Corpus(ingested) as corpus:
        treaties = [(t.id, t.languages) for t in corpus.treaties()]
        found = per_version(check(corpus))
    for tid, langs in treaties:
        html = text(get(client, f"/t/{tid}"))
        assert 'id="h-audit"' in html
        for lang in langs:
            n = len(found.get((tid, lang), []))
            label = f'{lang}</span> <span lang="{lang}">{lang_name(lang)}</span>: '
            assert label + (f"{n} finding{'' if n == 1 else 's'}</summary>" if n
                            else "no findings") in html, (tid, lang)
    html = text(get(client, "/t/br-co-2022"))
    audit = html[html.index('id="h-audit"'):html.index('id="h-outline"')]
    assert audit.count("<details><summary>") == 1
    links = re.findall(r'<a href="/t/br-co-2022/(art_\d+)">br-co-2022 pt Art\. (\d+)</a>', audit)
    assert len(links) == len(found[("br-co-2022", "pt")]) == 25
    assert all(eid == f"art_{n}" for eid, n in links)


def test_cite_box_lands_on_the_unit(client):
    resp = get(client, "/cite?q=" + quote("Brazil–Peru Art. 10(2)"), 303)
    assert resp.headers["Location"].endswith("/t/br-pe-2006/art_10#art_10__para_2")
    resp = get(client, "/cite?q=" + quote("中国巴西协定第十条"), 303)
    assert resp.headers["Location"].endswith("/t/br-cn-1991/art_10")


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    "/t/xx-yy-1900", "/t/br-se-1965/art_99", "/topic/no-such-topic", "/nowhere",
    "/t/xx-yy-1900/art_1",
])
def test_unknown_ids_are_404(client, url):
    resp = get(client, url, 404)
    assert '<p class="error" role="alert">' in text(resp)


@pytest.mark.parametrize("url, message", [
    ("/search?q=tax&page=abc", "page must be a whole number"),
    ("/search?q=tax&page=0", "page must be between 1 and"),
    ("/search?q=tax&lang=de", "the index has no Deutsch (&#39;de&#39;) text"),
    ("/search?q=tax&lang=klingon", "unknown language &#39;klingon&#39;"),
    ("/search?q=" + "x" * 1200, "the query is too long"),
    ("/search?q=tax&article=ten", "article must be a whole number"),
    ("/t/br-se-1965/art_7?lang=zh", "br-se-1965 has no &#39;zh&#39; version"),
    ("/t/br-se-1965/art_7?view=fancy", "unknown view"),
    ("/cite?q=", "type a citation"),
    ("/cite?q=hello", "no treaty or article found"),
])
def test_bad_input_is_400_with_a_message(client, url, message):
    assert message in text(get(client, url, 400))


def test_cite_unknown_article_is_404_with_what_exists(client):
    html = text(get(client, "/cite?q=br-pe-2006+Art.+99", 404))
    assert "br-pe-2006 has no article 99; it has articles" in html


def test_api_errors_are_json(client):
    data = get(client, "/api/cite?q=br-pe-2006+Art.+99", 404).get_json()
    assert data["status"] == 404 and "no article 99" in data["error"]
    assert get(client, "/api/search?q=x&page=-1", 400).get_json()["error"]
    assert get(client, "/api/nothing", 404).get_json()["status"] == 404


def test_user_strings_are_escaped(client):
    evil = "<script>alert(1)</script>"
    for url in (f"/search?q={quote(evil)}", f"/cite?q={quote(evil)}",
                f"/t/{quote(evil)}", f"/topic/{quote(evil)}",
                f"/t/br-se-1965/art_7?lang={quote(evil)}"):
        html = text(client.get(url))
        assert evil not in html, url
    html = text(get(client, f"/search?q={quote(evil)}"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- JSON API --------------------------------------------------------------------------------


def test_api_search_contract(client):
    data = get(client, "/api/search?q=beneficial+owner").get_json()
    assert set(data) >= {"query", "total", "suggestions", "hits"}
    hit = data["hits"][0]
    assert set(hit) >= {"treaty", "lang", "kind", "number", "eid", "citation", "score",
                        "snippets", "paragraphs"}
    assert hit["eid"].startswith("art_") and hit["citation"].startswith(hit["treaty"])
    assert any("<b>beneficial</b>" in s for h in data["hits"] for s in h["snippets"])
    assert data["total"] == len({(h["treaty"], h["lang"], h["eid"]) for h in data["hits"]})


def test_api_cite_contract(client):
    data = get(client, "/api/cite?q=" + quote("artikel VII § 2 avtalet Sverige–Brasilien")).get_json()
    assert (data["treaty"], data["article"], data["paragraph"]) == ("br-se-1965", 7, 2)
    assert {u["lang"] for u in data["units"]} == {"sv", "en", "pt"}
    assert all({"id", "lang", "text", "raw"} <= set(u) for u in data["units"])


def test_api_compare_topic_treaties_export(client):
    data = get(client, "/api/compare?treaty=br-se-1965&article=7").get_json()
    assert data["langs"] == ["sv", "en", "pt"] and data["rows"]
    data = get(client, "/api/topic/dividends").get_json()
    assert {a["treaty"] for a in data["articles"]} >= {"br-pe-2006", "br-cn-1991"}
    cols = [c["treaty"] for c in data["columns"]]
    row = next(r for r in data["rows"] if r[cols.index("br-co-2022")] == "art_10__para_4")
    # the definition of dividends: paragraph 4 of br-co-2022 (its 3 is on pension funds)
    assert row[cols.index("br-pe-2006")] == "art_10__para_3"
    outlines = get(client, "/api/treaties").get_json()
    assert {o["treaty"] for o in outlines} >= {"br-se-1965", "es-pt-1993"}
    assert get(client, "/api/treaties/br-se-1965").get_json()["languages"] == ["sv", "en", "pt"]
    resp = get(client, "/api/export?treaty=es-pt-1993&lang=pt")
    assert resp.mimetype == "application/x-ndjson"
    records = [json.loads(line) for line in text(resp).splitlines()]
    assert any(r["id"] == "es-pt-1993/pt/art_10" for r in records)


# --- never a 500 ---------------------------------------------------------------------------

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
_query = st.one_of(
    _text,
    st.lists(st.sampled_from(["tax", "AND", "OR", "NOT", "(", ")", '"', "*", "~", "~2",
                              "dividend*", "股息", "å", "-", ":", "\\", "%", "<b>"]),
             max_size=8).map(" ".join),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=_query, extra=st.dictionaries(
    st.sampled_from(["treaty", "party", "lang", "topic", "kind", "article", "page", "size"]),
    _text, max_size=3))
def test_search_never_500(client, q, extra):
    params = {"q": q, **extra}
    for path in ("/search", "/api/search"):
        resp = client.get(path, query_string=params)
        assert resp.status_code in (200, 400), (path, params, resp.data[:300])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=_text, lang=st.one_of(st.none(), _text))
def test_cite_never_500(client, q, lang):
    params = {"q": q} if lang is None else {"q": q, "lang": lang}
    resp = client.get("/api/cite", query_string=params)
    assert resp.status_code in (200, 400, 404), (params, resp.data[:300])
    resp = client.get("/cite", query_string={"q": q})
    assert resp.status_code in (303, 400, 404), (q, resp.data[:300])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(treaty=st.sampled_from(["br-se-1965", "br-pe-2006"]), eid=_text, view=_text)
@example(treaty="br-se-1965", eid="/0", view="")  # found by hypothesis: a 308, not a 500
def test_unit_pages_never_500(client, treaty, eid, view):
    resp = client.get(f"/t/{quote(treaty)}/{quote(eid, safe='')}", query_string={"view": view})
    # an eId with "/" makes a path with "//", which the router redirects (308) to the merged one
    assert resp.status_code in (200, 302, 308, 400, 404), (eid, view, resp.data[:300])


# --- the command -----------------------------------------------------------------------------


def test_serve_help_and_missing_corpus(tmp_path):
    from search.cli import main

    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0 and "Examples:" in result.output and "--port" in result.output
    result = CliRunner().invoke(main, ["serve", "--data", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1].startswith("Error: no corpus at ")


# --- hostile query strings, control characters, the query's nesting -------------------------

_COLLIDING = ["treaty=x", "eid=", "eid=x", "_anchor=x", "_method=POST", "endpoint=x",
              "_external=1", "_external=1&_scheme=javascript", "_scheme=javascript"]


@pytest.mark.parametrize("extra", _COLLIDING)
@pytest.mark.parametrize("base", ["/t/br-pe-2006/art_10__para_2?lang=en",
                                  "/search?q=dividends", "/search?q=dividends&page=2"])
def test_parameters_named_like_url_for_arguments_are_ignored(client, base, extra):
    """Links that keep the page's parameters carry only the ones that page takes: never a 500,
    never an absolute or javascript: link."""
    resp = client.get(f"{base}&{extra}")
    if base.startswith("/search") and extra == "treaty=x":  # a filter of the search page
        assert resp.status_code == 400
        return
    assert resp.status_code in (200, 302), (base, extra, resp.status_code)
    links = re.findall(r'href="([^"]*)"', text(resp)) + [resp.headers.get("Location", "")]
    assert not [u for u in links if "://" in u or u.lower().startswith("javascript")], links
    if resp.status_code == 302:
        assert resp.headers["Location"] == "/t/br-pe-2006/art_10?lang=en#art_10__para_2"
    else:
        assert 'href="/search?q=dividends&amp;treaty=br-se-1965"' in text(resp)


@pytest.mark.parametrize("url", [
    "/t/br-pe-2006/art_3__%0d%0aX", "/t/br-pe-2006/art_3__%00", "/t/br%0a-pe-2006",
    "/search?q=tax%0d%0aSet-Cookie:+x=1", "/t/br-se-1965/art_7__para_2?lang=%0d%0a",
    "/api/search?q=tax&treaty=%1b", "/search?q%0a=tax",
])
def test_control_characters_in_the_address_are_400(client, url):
    resp = get(client, url, 400)
    assert "control character" in text(resp)


@pytest.mark.parametrize("url", ["/search?q=" + "(" * 300, "/search?q=" + "%28" * 400,
                                 "/api/search?q=" + "(" * 300 + "tax"])
def test_deeply_nested_query_is_400_with_one_line(client, url):
    resp = get(client, url, 400)
    if url.startswith("/api/"):
        assert "\n" not in resp.get_json()["error"]
    else:
        message = re.search(r'<p class="error" role="alert">(.*?)</p>', text(resp), re.DOTALL)
        assert message and "\n" not in message.group(1) and "internal error" not in text(resp)


# --- security headers ------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/", "/search?q=tax", "/t/br-se-1965/art_7", "/static/app.js",
                                 "/static/style.css", "/api/search?q=tax", "/nowhere",
                                 "/search?q=tax&page=x", "/t/br-se-1965/art_7__para_2"])
def test_every_response_has_the_security_headers(client, url):
    from search.web.guard import HEADERS

    resp = client.get(url)
    for name, value in HEADERS.items():
        assert resp.headers.get(name) == value, (url, name)
    assert "script-src 'self'" in HEADERS["Content-Security-Policy"]
    assert "unsafe-inline" not in HEADERS["Content-Security-Policy"]


def test_pages_have_no_inline_script_or_style(client):
    """What the CSP (script-src 'self', style-src 'self') would block: none on any page."""
    for url in ("/", "/search?q=dividends", "/t/br-se-1965/art_7?view=diff", "/t/br-cn-1991",
                "/topic/dividends", "/topic", "/nowhere"):
        html = text(client.get(url))
        assert not re.search(r"<script(?![^>]*\ssrc=)", html), url
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=|javascript:", html,
                             re.IGNORECASE), url


def test_repair_view_shows_each_changes_evidence(client):
    """The repair view lists each change with its step and its evidence: the version and
    article it came from, or how often the version spells the word."""
    html = text(get(client, "/t/br-se-1965/art_21?lang=en&view=diff"))
    assert "<code lang=\"en\">cross-version</code>" in html and "from pt Art. 21(1)" in html
    html = text(get(client, "/t/br-se-1965/art_18?lang=en&view=diff"))
    assert "<code lang=\"en\">document-vocabulary</code>" in html and "times in this version" in html


# --- issue 18: names, downloads, the raw view where repaired -------------------------------


def test_treaties_by_readable_names_with_the_id_secondary(client):
    home = text(get(client, "/"))
    assert 'Brazil–Peru (2006)</a> <code class="tid">br-pe-2006</code>' in home
    treaty = text(get(client, "/t/br-pe-2006"))
    assert '<h1>Brazil–Peru (2006) <code class="tid">br-pe-2006</code></h1>' in treaty
    hits = text(get(client, "/search?q=dividends"))
    assert "Brazil–Peru (2006) · " in hits
    facets = text(get(client, "/search?q=dividends"))
    assert 'Brazil–Sweden (1965) <code class="tid">br-se-1965</code>' in facets


def test_treaty_name():
    from search.web.extras import treaty_name

    assert treaty_name("br-pe-2006") == "Brazil–Peru (2006)"
    assert treaty_name("se-us-1994") == "Sweden–United States (1994)"
    assert treaty_name("nordic-1996") == "Nordic (1996)"
    assert treaty_name("odd") == "odd"


@pytest.mark.parametrize("fmt,needle", [
    ("tmx", '<tuv xml:lang="sv">'), ("tsv", "treaty\teid\tlevel"),
    ("jsonl", '"treaty": "br-se-1965"'), ("txt", "br-se-1965 Art. 7 [en] — Brazil–Sweden (1965)"),
])
def test_downloads_of_a_treaty_and_an_article(client, fmt, needle):
    whole = get(client, f"/download/br-se-1965.{fmt}")
    assert needle in whole.get_data(as_text=True)
    assert "attachment" in whole.headers["Content-Disposition"]
    one = get(client, f"/download/br-se-1965.{fmt}?article=art_7").get_data(as_text=True)
    assert 0 < len(one) < len(whole.get_data(as_text=True))
    assert "art_8" not in one.replace("art_7", "")
    page = text(get(client, "/t/br-se-1965/art_7"))
    assert f'href="/download/br-se-1965.{fmt}?article=art_7"' in page
    assert f'href="/download/br-se-1965.{fmt}"' in text(get(client, "/t/br-se-1965"))


def test_download_errors_are_clean(client):
    assert client.get("/download/br-se-1965.exe").status_code == 400
    assert client.get("/download/xx-yy-1900.txt").status_code == 404
    assert client.get("/download/br-se-1965.txt?article=art_99").status_code == 404


def test_raw_source_offered_only_where_the_text_was_repaired(client):
    repaired = text(get(client, "/t/br-se-1965/art_7"))
    assert 'value="raw"' in repaired and 'value="diff"' in repaired
    clean = text(get(client, "/t/br-cn-1991/art_10"))
    assert 'value="raw"' not in clean and "no OCR repairs in this text" in clean


def test_article_lists_the_units_that_refer_to_it(client):
    """br-pe-2006 Art. 10: the protocol item on Article 23 names paragraph 6 of Article 10;
    Art. 23 itself (non-discrimination) does too."""
    html = text(get(client, "/t/br-pe-2006/art_10"))
    assert "<h2>Referred to by</h2>" in html
    section = html[html.index("<h2>Referred to by</h2>"):]
    section = section[: section.index("</section>")]
    assert 'href="/t/br-pe-2006/prot_5"' in section
    assert 'href="/t/br-pe-2006/art_10"' not in section
