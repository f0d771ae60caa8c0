"""A plain-words query translated through the index's bilingual term table
(`indexer.index.terms`): each word is searched as written and, in the other languages'
text fields, as the terms the table gives for it (at TRANSLATED_BOOST), so that "pensões"
reaches 退休金 and "beneficial owner" 受益所有人. Any other query is compiled as it is."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.index.analysis import analyse_query_term
from indexer.index.query_syntax import FAnd, FNode, FNone, FOr, FTerm, Node, Word, field_lang
from search.results.trees import compiled, plain_words

#: The weight of a translated term against the word as written.
TRANSLATED_BOOST = 0.5
#: Source languages: the analysers a query word is read with.
SOURCES = ("en", "pt", "sv", "zh")

Table = dict[str, dict[str, dict[str, list[str]]]]


def translations(word: Word, langs: Sequence[str], table: Table) -> list[FTerm]:
    """The field terms of `word`'s translations into `langs` (read as a word of every other
    language of the table)."""
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
    return [FTerm(f, y, TRANSLATED_BOOST) for f, y in out]


def translated_word(word: Word, langs: Sequence[str], table: Table) -> FNode:
    own = compiled(word, langs)
    extra = translations(word, langs, table)
    if not extra:
        return own
    kids = ([] if isinstance(own, FNone) else [own]) + list(extra)
    return kids[0] if len(kids) == 1 else FOr(tuple(kids))


def translated(tree: Node | None, langs: Sequence[str], table: Table) -> FNode:
    """`tree` compiled for `langs`, each plain word ORed with its translations."""
    words = plain_words(tree)
    if not words or not table:
        return compiled(tree, langs)
    parts = [translated_word(w, langs, table) for w in words]
    if any(isinstance(p, FNone) for p in parts):
        return FNone()
    return parts[0] if len(parts) == 1 else FAnd(tuple(parts))
