"""The lines of a stream as the segmenter reads them: the document's own numbering
(`numbering.read_numbering`) written in the forms the rest of the stage knows.

The segmenter's steps (where the treaty begins and ends, titles, recovery of lost headings,
paragraphs and points) read labels in a few canonical forms: "Article 5 Title", "CHAPTER II
Title", "1. Text". A document that prints its levels otherwise ("Clause 5 (Dividends)",
"PART II", "1: Text", "[1] Text", "10.1 Text") is read through a view of its lines in which
the labels the reading placed are rewritten in those forms. The units are still made of the
lines as printed: only the decisions read the view, never the stored text.
"""

from __future__ import annotations

from collections.abc import Sequence

from indexer.segment.lines import Heading, article_heading, is_chapter, top_para
from indexer.segment.numbering.families import runs_of
from indexer.segment.numbering.reading import Reading, read_numbering
from indexer.segment.numbering.tokens import Token
from indexer.segment.numerals import label_suffix, paragraph_label

#: Paragraph label styles that number paragraphs only (an "1)" may number points too).
_PARAGRAPH_STYLES = frozenset({"dot", "paren", "sect", "dash", "cn", "fw"})
#: The forms a paragraph label is written in, tried in turn until one the document does not
#: use at another level: its number is put for "#".
_CANONICAL_PARAGRAPHS = (("dot", "#. "), ("paren", "(#) "), ("sect", "§ # "))


def read_view(texts: Sequence[str]) -> tuple[list[str], dict[int, Heading]]:
    """The view of `texts` and the article headings read off it."""
    known = {i: h for i, t in enumerate(texts) if (h := article_heading(t)) is not None}
    reading = read_numbering(texts, known_heads=list(known))
    view = list(texts)
    heads = dict(known)
    lead = _inferred_articles_lead(reading, known)
    if lead:
        heads = _runs_only(known, reading)
    for i, tok in reading.articles.items():
        # a line the known forms miss, or read otherwise ("Artikel X-A" as X with a title)
        if (lead and i not in known) or (i in known and _disagree(known[i], tok)):
            view[i] = _article_line(tok)
            head = article_heading(view[i])
            if head is not None:
                heads[i] = head
    for i, tok in reading.chapters.items():
        if not is_chapter(texts[i]) and i not in heads:
            label = tok.label if tok.form.kind in ("arabic", "ROMAN") else str(tok.value)
            view[i] = f"CHAPTER {label} {_title(tok.rest)}".rstrip()
    _rewrite_paragraphs(texts, view, reading)
    return view, heads


def _disagree(head: Heading, tok: Token) -> bool:
    """Do a known heading and the reading of its line give another number or insertion?"""
    return head.number != tok.value or label_suffix(head.label) != tok.suffix.upper() and not (
        len(tok.suffix) > 1 and label_suffix(head.label) == tok.suffix.lower())


def _inferred_articles_lead(reading: Reading, known: dict[int, Heading]) -> bool:
    """Do the inferred article headings say more than the known forms: a longer run of
    numbers in sequence than the known headings'?"""
    if not reading.articles:
        return False
    if set(reading.articles) <= set(known):
        return False
    inferred = _longest_run([(i, t) for i, t in sorted(reading.articles.items())])
    numbers = [(i, h.number) for i, h in sorted(known.items()) if h.number is not None]
    return inferred > _longest_known_run(numbers)


def _runs_only(known: dict[int, Heading], reading: Reading) -> dict[int, Heading]:
    """The known headings that still count beside the document's own article headings: those
    the reading places, those outside their range, and those in a run of two or more (a
    protocol's "Article 1", "Article 2", a garbled "Artic1e 5" between 4 and 6); not a lone
    "Article 5." among "Clause 4" and "Clause 6" (a reference that begins a line)."""
    first, last = min(reading.articles), max(reading.articles)
    order = sorted(known)
    out = {}
    for k, i in enumerate(order):
        n = known[i].number
        near = [known[j].number for j in order[max(0, k - 1):k + 2] if j != i]
        # (a garbled label, "ÅT", is read from its place in the run later: kept)
        in_run = n is None or any(m is not None and abs(m - n) == 1 for m in near)
        if i in reading.articles or not first < i < last or in_run:
            out[i] = known[i]
    return out


def _longest_run(members: list[tuple[int, Token]]) -> int:
    return max((len(r) for r in runs_of(members)), default=0)


def _longest_known_run(numbers: list[tuple[int, int]]) -> int:
    best = run = 0
    last = None
    for _i, n in numbers:
        run = run + 1 if last is not None and last < n <= last + 3 else 1
        best, last = max(best, run), n
    return best


def _article_line(tok: Token) -> str:
    """An article heading in the known form: "Article 21A Title"."""
    plain = tok.form.kind in ("arabic", "roman", "ROMAN") and not tok.suffix
    label = tok.label if plain else f"{tok.value}{tok.suffix}"
    return f"Article {label} {_title(tok.rest)}".rstrip()


def _title(rest: str) -> str:
    """The title printed after a label: without its brackets and the marks that part it from
    the label (a dash, a colon, a stop, a slash …)."""
    s = rest.strip()
    while s and not (s[0].isalnum() or s[0] in "([«\"“'"):
        s = s[1:].lstrip()
    if s.startswith(("(", "[")) and s.endswith((")", "]")):
        s = s[1:-1].strip()
    return s


def _rewrite_paragraphs(texts: Sequence[str], view: list[str], reading: Reading) -> None:
    """Paragraph labels the known forms do not read as paragraphs of that number, written in
    a paragraph form the document does not use at another level."""
    todo = {}
    for i, tok in reading.paragraphs.items():
        top = top_para(texts[i])
        pl = paragraph_label(texts[i])
        if top is not None and top[1] == tok.value and pl is not None and pl[0] in _PARAGRAPH_STYLES:
            continue
        todo[i] = tok
    if not todo:
        return
    used = {pl[0] for i, t in enumerate(texts) if i not in reading.paragraphs
            and (pl := paragraph_label(t)) is not None}
    pattern = next((p for style, p in _CANONICAL_PARAGRAPHS if style not in used),
                   _CANONICAL_PARAGRAPHS[0][1])
    for i, tok in todo.items():
        view[i] = pattern.replace("#", str(tok.value)) + tok.rest
