"""Every piece of text on the web app's pages carries the language it is in (WCAG 3.1.2):
on real pages of the bundled corpus, each text node's language (the nearest `lang` around
it) is checked against the text — Han characters only inside lang="zh", no English words
inside a lang="zh" element, and a Latin sentence long enough to identify in the language
the ingest identifies it as."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from indexer.languages import detect
from search.web import create_app

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
#: A Latin text node with at least this many letters is long enough to identify.
IDENTIFIABLE = 60

PAGES = ["/", "/topic", "/topic/dividends", "/topic/dividends?lang=zh", "/topic/interest?lang=pt",
         "/t/br-cn-1991", "/t/br-se-1965", "/t/br-co-2022", "/t/br-cn-1991/art_10",
         "/t/br-se-1965/art_7", "/t/br-se-1965/art_7?view=diff", "/t/br-co-2022/art_10",
         "/t/es-pt-1993/art_10", "/search?q=%E8%82%A1%E6%81%AF", "/search?q=dividendos",
         "/search?q=utdelning", "/search?q=beneficial+owner", "/rates"]


class _Texts(HTMLParser):
    """(text, language) of every text node outside script and style."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str]] = []
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        lang = dict(attrs).get("lang")
        self.stack.append((tag, self.stack[-1][1] if lang is None and self.stack else lang or ""))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if data.strip() and not any(t in ("script", "style") for t, _ in self.stack):
            self.found.append((data.strip(), self.stack[-1][1] if self.stack else ""))


def _texts(html: str) -> list[tuple[str, str]]:
    parser = _Texts()
    parser.feed(html)
    return parser.found


@pytest.fixture(scope="module")
def pages(ingested):
    app = create_app(ingested)
    app.testing = True
    client = app.test_client()
    out = {}
    for url in PAGES:
        resp = client.get(url)
        assert resp.status_code == 200, url
        out[url] = resp.get_data(as_text=True)
    return out


def test_root_is_english(pages):
    assert all('<html lang="en">' in html for html in pages.values())


def test_han_text_is_marked_chinese(pages):
    bad = [(url, text[:40], lang) for url, html in pages.items() for text, lang in _texts(html)
           if _HAN.search(text) and lang != "zh"]
    assert not bad, bad[:5]


def test_no_english_words_inside_chinese(pages):
    bad = [(url, text[:60]) for url, html in pages.items() for text, lang in _texts(html)
           if lang == "zh" and not _HAN.search(text) and _LATIN_WORD.search(text)]
    assert not bad, bad[:5]


def test_latin_text_in_its_own_language(pages):
    checked, bad = 0, []
    for url, html in pages.items():
        for text, lang in _texts(html):
            letters = sum(c.isalpha() for c in text)
            if _HAN.search(text) or letters < IDENTIFIABLE:
                continue
            checked += 1
            said = detect(text, ["en", "pt", "sv"])
            if said != lang:
                bad.append((url, text[:60], lang, said))
    assert checked > 100
    assert not bad, bad[:5]


def test_echoed_query_has_the_query_language(pages):
    assert '<q lang="zh">股息</q>' in pages["/search?q=%E8%82%A1%E6%81%AF"]
    assert '<q lang="pt">dividendos</q>' in pages["/search?q=dividendos"]
    assert '<q lang="sv">utdelning</q>' in pages["/search?q=utdelning"]


def test_titles_in_their_language(pages):
    home = pages["/"]
    assert '<td lang="zh">中华人民共和国政府和巴西联邦共和国政府' in home
    assert '<td lang="pt">Convenção entre a República Federativa' in home
    assert '<td lang="en">Agreement between Sweden and Brazil' in home
    assert '<span class="muted" lang="zh">中华人民共和国政府' in pages["/t/br-cn-1991/art_10"]
