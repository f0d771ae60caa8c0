"""Segment stage: the structure of one language version (title, preamble, articles with
paragraphs and points, closing, protocol) -- `segment`."""

from indexer.segment.document import segment

__all__ = ["segment"]
