"""A plain-words query translated through the index's bilingual term table
(`indexer.index.terms`): each word is searched as written and, in the other languages'
text fields, as the terms the table gives for it and as its cognates (the words that begin
as it does, accents folded; all at TRANSLATED_BOOST), so that "pensões" reaches 退休金,
"beneficial owner" 受益所有人 and "beneficiário" "beneficial"; a Chinese word the corpus
lacks is searched as its dictionary glosses too (`glossary`: "养老金" -> "pension" -> 退休金).
Any other query is compiled as it is."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.index.analysis import analyse_query_term, normalise_term
from indexer.index.query_syntax import (
    FAnd,
    FNode,
    FNone,
    FOr,
    FPrefix,
    FTerm,
    Node,
    Word,
    field_lang,
)
from search.results.trees import compiled, plain_words

#: The weight of a translated term against the word as written.
TRANSLATED_BOOST = 0.5
#: Source languages: the analysers a query word is read with.
SOURCES = ("en", "pt", "sv", "zh")
#: Cognates: a Latin word of this many letters or more also reaches, in the other
#: languages, the words that begin as it does (accents folded: "beneficiário" ->
#: benefici*, "beneficial"), all but its last COGNATE_TAIL letters, at least COGNATE_MIN.
COGNATE_LETTERS = 7
COGNATE_TAIL = 4
COGNATE_MIN = 5

Table = dict[str, dict[str, dict[str, list[str]]]]


Surface = dict[str, dict[str, int]]  # per language, each word of its texts -> count


def translations(word: Word, langs: Sequence[str], table: Table,
                 surface: Surface | None = None) -> list[FTerm | FPrefix]:
    """The field terms of `word`'s translations into `langs` (read as a word of every other
    language of the table), and its cognates in the languages whose texts (`surface`) do
    not have it as written."""
    if word.prefix or word.fuzzy is not None or not table:
        return []
    out: dict[tuple[str, str], None] = {}
    for src in SOURCES:
        by_target = table.get(src)
        if not by_target:
            continue
        terms = [t.term for t in analyse_query_term(word.text, src)]
        for lang in langs:
            target = by_target.get(lang) if lang != src else None
            if not target:
                continue
            for term in terms:
                for y in target.get(term, ()):
                    out[f"text_{field_lang(lang)}", y] = None
    leaves: list[FTerm | FPrefix] = [FTerm(f, y, TRANSLATED_BOOST) for f, y in out]
    lower = word.text.lower()
    foreign = [lg for lg in langs if not (surface or {}).get(lg, {}).get(lower)]
    return leaves + cognates(word, foreign)


def cognates(word: Word, langs: Sequence[str]) -> list[FPrefix]:
    """Prefix leaves of `word`'s cognates in the text fields of `langs` (Latin words of
    COGNATE_LETTERS letters or more)."""
    text = word.text
    if len(text) < COGNATE_LETTERS or not text.isalpha() or not text.isascii() and \
            any("\u3400" <= ch <= "\u9fff" for ch in text):
        return []
    folded = normalise_term(text, "en")
    stem = folded[: max(COGNATE_MIN, len(folded) - COGNATE_TAIL)]
    return [FPrefix(f"text_{field_lang(lang)}", stem, TRANSLATED_BOOST)
            for lang in langs if lang != "zh"]


def gloss_leaves(gloss: str, langs: Sequence[str], table: Table,
                 surface: Surface | None = None) -> list[FTerm | FPrefix]:
    """The field terms of an English gloss of a query word (`search.results.glossary`): the
    gloss in the English text and title fields and in every document's English topic names,
    and its translations into `langs`, all at TRANSLATED_BOOST."""
    toks = analyse_query_term(gloss, "en")
    if len(toks) != 1:
        return []
    term = toks[0].term
    own = [FTerm(f"{kind}_en", term, TRANSLATED_BOOST) for kind in ("text", "title")
           if "en" in langs]
    return [*own, FTerm("topic_en", term, TRANSLATED_BOOST),
            *translations(Word(gloss), langs, table, surface)]


Glossed = dict[str, tuple[str, ...]]  # a query word the corpus lacks -> its English glosses


def translated_word(word: Word, langs: Sequence[str], table: Table,
                    surface: Surface | None = None, glossed: Glossed | None = None) -> FNode:
    """`word` compiled for `langs`, ORed with its translations and (for a word of
    `glossed`) the terms of its glosses."""
    own = compiled(word, langs)
    extra = translations(word, langs, table, surface)
    for gloss in (glossed or {}).get(word.text, ()):
        extra += gloss_leaves(gloss, langs, table, surface)
    if not extra:
        return own
    kids = ([] if isinstance(own, FNone) else [own]) + list(extra)
    return kids[0] if len(kids) == 1 else FOr(tuple(kids))


def translated(tree: Node | None, langs: Sequence[str], table: Table,
               surface: Surface | None = None, glossed: Glossed | None = None) -> FNode:
    """`tree` compiled for `langs`, each plain word ORed with its translations (and the
    glosses of those in `glossed`)."""
    words = plain_words(tree)
    if not words or not table:
        return compiled(tree, langs)
    parts = [translated_word(w, langs, table, surface, glossed) for w in words]
    if any(isinstance(p, FNone) for p in parts):
        return FNone()
    return parts[0] if len(parts) == 1 else FAnd(tuple(parts))
