"""The snippet of a hit: its text around the matches, the matches in <b>."""

from __future__ import annotations

import html

from indexer.index import SNIPPET_WIDTH, make_snippet
from indexer.index.query_syntax import (
    FNode,
    FPhrase,
    FPrefix,
    FTerm,
    field_lang,
    leaves,
    term_matcher,
)
from indexer.models import IndexDoc

#: Snippets shown per article (its best paragraphs).
SNIPPETS_PER_HIT = 2


def snippet(doc: IndexDoc, ftree: FNode) -> str:
    """The HTML snippet of `doc` with the matches of `ftree` in <b>; for a Chinese paragraph
    that cannot contain a match (it matched through its title or topic names) the start of
    the text, without loading the Chinese segmenter just to find nothing."""
    fl = field_lang(doc.lang)
    field_name = f"text_{fl}"
    if fl == "zh" and not _may_match(doc.text.lower(), ftree, field_name):
        return _plain_snippet(doc.text)
    return make_snippet(doc, term_matcher(ftree, field_name))


def _may_match(text: str, ftree: FNode, field_name: str) -> bool:
    """Could `text` hold a match of a positive leaf of `ftree` on `field_name`? (Chinese
    terms are substrings of the text they were cut from; a fuzzy leaf always may.)"""
    for leaf, negated in leaves(ftree):
        if negated or leaf.field != field_name:
            continue
        if isinstance(leaf, FPhrase):
            if any(t in text for t in leaf.terms):
                return True
        elif isinstance(leaf, FTerm):
            if leaf.term in text:
                return True
        elif isinstance(leaf, FPrefix):
            if leaf.prefix in text:
                return True
        else:
            return True
    return False


def _plain_snippet(text: str, width: int = SNIPPET_WIDTH) -> str:
    cut = text[:width]
    return html.escape(cut, quote=False) + ("…" if len(text) > width else "")
