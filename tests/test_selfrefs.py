"""References to an article's own paragraphs and points (search.web.selfrefs) and their
in-page links on the article page: the parser on generated wordings in the four languages
(hypothesis), and the links of real articles of the bundled corpus, counted, each to an
anchor that is on the page."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexer.segment.numerals import to_chinese
from search.web import create_app
from search.web.selfrefs import self_references, target

_nums = st.integers(1, 12)
_letters = st.sampled_from("abcdfgh")
_filler = st.sampled_from(["", "The provisions of ", "Subject to ", "Não obstante o disposto no ",
                           "Utan hinder av "])
_tail = st.sampled_from(["", " shall apply", " of this Article", " deste Artigo",
                         " av denna artikel", ", "])


def _one(text: str) -> tuple[int | None, str | None]:
    refs = self_references(text)
    assert len(refs) == 1, (text, refs)
    return refs[0].para, refs[0].point


@given(_filler, st.sampled_from(["paragraph {}", "parágrafo {}", "n.º {}", "§ {}", "stycket {}",
                                 "punkt {}"]), _nums, _tail)
def test_a_paragraph(before, wording, n, after):
    assert _one(before + wording.format(n) + after) == (n, None)


@given(_filler, st.sampled_from(["subparagraph ({1}) of paragraph {0}",
                                 "alínea {1}) do parágrafo {0}", "paragraph {0} ({1})",
                                 "punkt {0} {1}"]), _nums, _letters, _tail)
def test_a_point_of_a_paragraph(before, wording, n, letter, after):
    assert _one(before + wording.format(n, letter) + after) == (n, letter)


@given(st.sampled_from(["subparagraph ({})", "alínea {})", "punkt {})"]), _letters)
def test_a_bare_point_is_of_the_paragraph_it_is_in(wording, letter):
    assert _one("under " + wording.format(letter) + " above") == (None, letter)


@given(_nums, st.one_of(st.none(), st.integers(1, 9)), st.sampled_from(["", "本条"]))
def test_chinese(n, item, this):
    text = f"虽有{this}第{to_chinese(n)}款" + (f"第（{to_chinese(item)}）项" if item else "") + "的规定"
    assert _one(text) == (n, None if item is None else str(item))


@given(st.lists(_nums, min_size=2, max_size=4, unique=True),
       st.sampled_from([("paragraphs", " and "), ("parágrafos", " e "), ("§§", " och "),
                        ("n.os", " e ")]))
def test_a_list_is_one_reference_per_number(ns, word_and):
    word, conj = word_and
    text = f"{word} " + ", ".join(map(str, ns[:-1])) + conj + str(ns[-1]) + " shall apply"
    refs = self_references(text)
    assert [r.para for r in refs] == ns
    assert [text[r.start:r.end].split()[-1] for r in refs] == [str(n) for n in ns]


@given(_nums, st.integers(1, 30), st.sampled_from([
    "paragraph {0} of Article {1}", "paragraphs {0} and 3 of Article {1}",
    "parágrafo {0} do Artigo {1}", "§ {0} av artikel {1}", "§ {0} punkt g) 6) av artikel {1}",
    "第{1z}条第{0z}款", "paragraph {0} of the Protocol", "punkt {0} i avtalet"]))
def test_another_article_or_instrument_is_not_a_self_reference(n, art, wording):
    text = "Subject to " + wording.format(n, art, **{"0z": to_chinese(n), "1z": to_chinese(art)})
    assert self_references(text) == []


@given(_nums)
def test_a_paragraph_label_is_no_reference(n):
    assert self_references(f"§ {n}. Utdelning från ett bolag") == []


@given(st.text(max_size=80))
def test_spans_are_in_order_inside_the_text_and_disjoint(text):
    refs = self_references(text)
    assert all(0 <= r.start < r.end <= len(text) for r in refs)
    assert all(a.end <= b.start for a, b in pairwise(refs))


def test_target_only_what_the_store_has():
    units = {"art_5__para_2", "art_5__para_2__point_1", "art_5__para_4__point_a"}
    ref = self_references("第二款第（一）项")[0]
    assert target(ref, "art_5", None, units) == "art_5__para_2__point_1"
    ref = self_references("subparagraph (a) of paragraph 2")[0]  # numbered 1 in this version
    assert target(ref, "art_5", None, units) == "art_5__para_2__point_1"
    assert target(self_references("paragraph 3")[0], "art_5", None, units) is None
    bare = self_references("alínea a)")[0]
    assert target(bare, "art_5", "art_5__para_4__point_c", units) == "art_5__para_4__point_a"
    assert target(bare, "art_5", None, units) is None


# --- on real articles ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(ingested):
    app = create_app(ingested)
    app.testing = True
    return app.test_client()


def _self_links(client, url: str) -> list[tuple[str, str]]:
    html = client.get(url).get_data(as_text=True)
    ids = set(re.findall(r'id="([^"]+)"', html))
    links = [(text, eid) for eid, text in
             re.findall(r'<a class="xref self" href="#([^"]+)">([^<]+)</a>', html)]
    assert all(eid in ids for _t, eid in links), url  # every link lands on the page
    return links


def test_links_on_real_articles(client):
    assert _self_links(client, "/t/br-pe-2006/art_10") == [
        ("paragraphs 1", "art_10__para_1"), ("2", "art_10__para_2"),
        ("subparagraph (a) of paragraph 2", "art_10__para_2__point_a")]
    zh = _self_links(client, "/t/br-cn-1991/art_5")
    assert ("第三款", "art_5__para_3") in zh and len(zh) == 6
    pt = _self_links(client, "/t/br-co-2022/art_5")
    assert ("alínea f)", "art_5__para_5__point_f") in pt and ("parágrafo 10", "art_5__para_10") in pt
    assert len(pt) == 12
    sv = _self_links(client, "/t/br-se-1965/art_11?lang=sv")
    assert sv == [("§ 1", "art_11__para_1"), ("§ 2", "art_11__para_2")]
    es = _self_links(client, "/t/es-pt-1993/art_10")
    assert ("n.os 1", "art_10__para_1") in es


def test_references_to_other_articles_keep_their_links(client):
    html = client.get("/t/br-pe-2006/art_18").get_data(as_text=True)
    assert re.search(r'<a class="xref" href="/t/br-pe-2006/art_19#art_19__para_2">'
                     r'paragraph 2 of Article 19</a>', html)
    assert not re.search(r'class="xref self"[^>]*>paragraph 2</a> of Article', html)
