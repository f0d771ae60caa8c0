"""Protocol items, inserted articles, chapters and annexes: the recognisers over generated
forms (Hypothesis), and the units they make of real protocols."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from indexer.models import Line
from indexer.segment import segment
from indexer.segment.lines import ANNEX_RE, article_heading, is_chapter
from indexer.segment.numerals import label_suffix, paragraph_label, to_roman
from indexer.segment.protocol import item_starts, refers_to

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

_SUFFIXES = {"A": "A", "B": "B", "a": "A", " a": "A", " A": "A", "-A": "A", " - B": "B", " bis": "bis",
             " ter": "ter"}


@given(st.integers(1, 300), st.sampled_from(sorted(_SUFFIXES)),
       st.sampled_from(["Article", "ARTICLE", "Artikel", "ARTIKEL", "Artigo", "### Article ", "##Article"]))
def test_inserted_article_headings(n: int, suffix: str, word: str) -> None:
    head = article_heading(f"{word} {n}{suffix}")
    assert head is not None and head.number == n
    assert label_suffix(head.label) == _SUFFIXES[suffix]
    assert label_suffix(article_heading(f"{word} {n}").label) == ""


@given(st.integers(1, 40), st.sampled_from(["Ad Article", "Ad Art.", "With reference to Article",
                                             "Till artikel", "Beträffande artikel", "Avseende artikel",
                                             "Com referência ao Artigo", "Ad Articles"]),
       st.sampled_from(["", "IV. ", "### II\n", "3. "]), st.sampled_from(["", ":", ", paragraph 2"]))
def test_an_item_refers_to_the_first_article_it_names(n: int, phrase: str, label: str, tail: str) -> None:
    lines = f"{label}{phrase} {n}{tail}".split("\n")
    assert refers_to(lines) == n
    assert refers_to([f"{label}It is understood that Article {n} applies."]) is None
    assert article_heading(f"{phrase} {n}") is None  # a reference is never a heading


@given(st.lists(st.integers(1, 4), min_size=1, max_size=12), st.booleans())
def test_items_open_in_sequence_and_their_paragraphs_stay_inside(paragraphs: list[int], roman: bool) -> None:
    """A protocol of items "I." … (or "1. Ad Article N") whose bodies number their own
    paragraphs 1., 2. …: one item per label, whatever the paragraphs inside."""
    texts = []
    for k, count in enumerate(paragraphs, 1):
        texts.append(f"{to_roman(k)}. Ad Article {k + 2}" if roman else f"{k}. Ad Article {k + 2}")
        texts += [f"{p}. It is understood that the rule applies." for p in range(1, count + 1)] if roman else [
            "It is understood that the rule applies."]
    labels = [paragraph_label(t) for t in texts]
    starts = item_starts(texts, labels, 0, len(texts))
    assert [texts[i].split(".")[0] for i in starts] == [
        to_roman(k) if roman else str(k) for k in range(1, len(paragraphs) + 1)]


@given(st.sampled_from(["Annex", "ANNEX", "Annex II", "Bilaga 2", "BILAGA", "Anexo I", "Appendix A", "附件一",
                        "### ANNEX"]))
def test_annex_headings(text: str) -> None:
    assert ANNEX_RE.match(text)
    assert not ANNEX_RE.match(text + " to the Convention shall form an integral part")


@given(st.integers(1, 12), st.sampled_from(["CHAPTER", "Chapter", "### CHAPTER ", "Kapitel", "KAPITEL", "Avsnitt",
                                           "C H A P T E R"]))
def test_chapter_headings_and_sentences(n: int, word: str) -> None:
    assert is_chapter(f"{word} {to_roman(n)}") and is_chapter(f"{word} {n}")
    assert not is_chapter(f"{word} {n} i lagen om skatt gäller.")


def _lines(name: str) -> list[Line]:
    text = (CORPUS / name).read_text(encoding="utf-8")
    return [Line(t, t, n, n) for n, t in enumerate(text.split("\n"), 1) if t.strip()]


def test_bundled_protocols() -> None:
    """Peru's protocol items (numbered, each about an article) and China's (一、关于第八条)."""
    peru = segment(_lines("brazil-peru-2006.en.txt"), "en")
    items = [u for u in peru if u.kind == "protocol" and u.number]
    assert [u.refers_to for u in items] == [3, 8, 11, 12, 23, 24, 25, 27]
    assert [u.label for u in items] == [str(k) for k in range(1, 9)]
    china = segment(_lines("china-brazil-1991.zh.txt"), "zh")
    items = [u for u in china if u.kind == "protocol" and u.number]
    assert [u.refers_to for u in items] == [8, 10, 12, 24]
    assert [u.label for u in items] == ["1", "2", "3", "4"]


def _cut_at_closing(name: str) -> list[Line]:
    """The bundled text's lines up to its closing formula (the articles end on the line before)."""
    lines = _lines(name)
    closing = next(k for k, ln in enumerate(lines) if ln.text.upper().startswith(("EM TESTEMUNHO", "IN WITNESS")))
    return lines[:closing]


def _appended(lines: list[Line], texts: list[str]) -> list[Line]:
    n = lines[-1].end
    return lines + [Line(t, t, n + k, n + k) for k, t in enumerate(texts, 2)]


def test_a_notes_closing_and_an_annex_end_the_last_article() -> None:
    """The Colombian convention as an exchange of notes would print it: after its last
    article the note's own numbered paragraph addressing the recipient, the courtesy formula,
    then an annex. None of it is the last article's; the annex is a unit of its own."""
    lines = _cut_at_closing("brazil-colombia-2022.pt.txt")
    last = lines[-1].end
    units = segment(_appended(lines, [
        ("2. Rogo a Vossa Excelência que se digne confirmar que o texto acima reflete o entendimento "
         "do seu Governo."),
        ("Aproveito a oportunidade para renovar a Vossa Excelência os protestos da minha mais alta "
         "consideração."),
        "ANEXO",
        "Lista dos tributos a que se refere o Artigo 2.",
    ]), "pt")
    art31 = next(u for u in units if u.eid == "art_31")
    assert art31.end == last and "Rogo" not in art31.raw
    after = [u.kind for u in units if u.start > last]
    assert after == ["closing", "annex"]
    assert next(u for u in units if u.kind == "annex").title == "ANEXO"


def test_a_statutes_annex_after_the_treaty_is_not_an_article() -> None:
    """Peru's articles followed, without a closing, by "Bilaga 2" and instructions that cite
    the articles ("till art. 7"): an annex, no article made of it."""
    lines = _cut_at_closing("brazil-peru-2006.en.txt")
    last = lines[-1].end
    units = segment(_appended(lines, ["Bilaga 2", "Instructions", "till art. 7",
                                      "Business profits are taxed under Article 7 of the Convention."]), "en")
    arts = [u for u in units if u.kind == "article"]
    assert [a.number for a in arts] == list(range(1, 30)) and arts[-1].end == last
    assert [u.kind for u in units if u.start > last] == ["annex"]


_PT_ORDINALS = ["primeiro", "segundo", "terceiro", "quarto", "quinto", "sexto", "sétimo", "oitavo", "nono",
                "décimo"]
_EN_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]


@given(st.sampled_from([("Artigo", _PT_ORDINALS), ("ARTIGO", _PT_ORDINALS), ("Article", _EN_ORDINALS)]),
       st.integers(1, 10), st.booleans())
def test_article_numbers_printed_as_words(word_and_names: tuple, n: int, upper: bool) -> None:
    word, names = word_and_names
    name = names[n - 1].upper() if upper else names[n - 1].capitalize()
    head = article_heading(f"{word} {name}")
    assert head is not None and head.number == n
    assert article_heading(f"{word} {name} of the Convention shall apply") is None
