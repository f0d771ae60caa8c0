"""Exports for lawyers and translators beyond the whole-corpus JSON lines of
`search.corpus.export_jsonl` and the translation memories of `search.tmx`:

    tables   article_table (one article side by side), topic_table (one provision across
             treaties): every cell with its citation and source line
    files    table_csv, table_docx (python-docx)
    units    article_records, records_text: one article of a treaty as JSON lines or text

Everything here reads the store, never the raw texts.
"""

from __future__ import annotations

from search.exports.files import table_csv, table_docx
from search.exports.tables import (
    Cell,
    Column,
    Table,
    article_table,
    index_terms,
    lines_text,
    topic_table,
)
from search.exports.units import article_records, records_text

__all__ = ["Cell", "Column", "Table", "article_records", "article_table", "index_terms", "lines_text",
           "records_text", "table_csv", "table_docx", "topic_table"]
