"""The index stage: the full-text index of the store's paragraphs, built and searched."""

from indexer.index.analysis import analyse, index_terms
from indexer.index.build import (
    SNIPPET_WIDTH,
    IndexMissingError,
    Searcher,
    Suggestion,
    build_index,
    make_snippet,
    open_index,
)
from indexer.index.documents import index_docs

__all__ = [
    "SNIPPET_WIDTH",
    "IndexMissingError",
    "Searcher",
    "Suggestion",
    "analyse",
    "build_index",
    "index_docs",
    "index_terms",
    "make_snippet",
    "open_index",
]
