"""The document's own numbering: the label families its lines open with and the levels
(chapter, article, paragraph, point) they form -- `read_numbering`; and the lines of those
levels in a print not yet joined into paragraphs -- `structure_lines`."""

from indexer.segment.numbering.physical import Structure, structure_lines
from indexer.segment.numbering.reading import Reading, read_numbering

__all__ = ["Reading", "Structure", "read_numbering", "structure_lines"]
