"""Side-by-side reading: one article in its language versions, row by row as the alignment
links them; one provision (a model-convention topic) across treaties; the links a person
should check first; and each as terminal text.

    article  compare_article, article_eid
    topic    compare_topic, article_topics, topic_key, topic_treaties, topic_columns,
             topic_rows (rows by content)
    rows     align_rows (paragraphs lined up by what they say), number_rows (by number)
    report   align_report
    links    the stored links and the sets of units they join
    columns  render_columns, wrap, pad, display_width

Everything here reads the store (units and links), never the raw texts.
"""

from __future__ import annotations

from search.compare.article import article_eid, compare_article
from search.compare.columns import GAP, char_width, display_width, pad, render_columns, wrap
from search.compare.links import UNMATCHED, links
from search.compare.report import align_report
from search.compare.rows import align_rows, number_rows
from search.compare.topic import (
    article_topics,
    compare_topic,
    topic_columns,
    topic_key,
    topic_rows,
    topic_treaties,
)

__all__ = ["GAP", "UNMATCHED", "align_report", "align_rows", "article_eid", "article_topics",
           "char_width", "compare_article", "compare_topic", "display_width", "links",
           "number_rows", "pad", "render_columns", "topic_columns", "topic_key", "topic_rows",
           "topic_treaties", "wrap"]
