"""The index stage: the full-text index of the store's paragraphs, built and searched.

Two engines — Whoosh (default) and tantivy (large corpora) — chosen by ``engine`` or
``TREATY_ENGINE``. Both index the *same* tokens from our analysers (`analysis`, `chinese`) and
answer the *same* engine-neutral query tree (`query_syntax`), so they return the same hits;
snippets (`snippets`) and "did you mean" (`suggestions`) are computed here, from our offsets and
our vocabulary, so they are identical for both engines too.

- `documents`: the searchable documents (`IndexDoc`) of the store.
- `rows` and `build`: documents analysed into engine rows and written into a new generation
  of the index directory (`generations`: its files, the pointer switch), made live atomically.
- `searcher`: the live generation opened and searched.
- `engines`: the engine interface and its Whoosh and tantivy implementations.
"""

from indexer.index.analysis import analyse, index_terms
from indexer.index.build import IndexStats, build_index, default_engine
from indexer.index.documents import index_docs
from indexer.index.searcher import (
    Hit,
    IndexMissingError,
    Searcher,
    SearchResult,
    open_index,
)
from indexer.index.snippets import SNIPPET_WIDTH, make_snippet
from indexer.index.suggestions import Suggestion

__all__ = [
    "SNIPPET_WIDTH",
    "Hit",
    "IndexMissingError",
    "IndexStats",
    "SearchResult",
    "Searcher",
    "Suggestion",
    "analyse",
    "build_index",
    "default_engine",
    "index_docs",
    "index_terms",
    "make_snippet",
    "open_index",
]
