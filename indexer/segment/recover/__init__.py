"""Article boundaries where the print lost the headings.

`segment` hands over the body of a treaty (the lines between the preamble and the closing
formula) with the printed article headings it found as anchors. Between two anchors the
number of articles is known (the anchors' numbers); after the last anchor, or when no heading
survived at all, it is not. Boundaries are chosen among candidate lines by a dynamic program
(`dp`) that maximises (`scores`)

- topic fit: each article's keyword evidence for one model-convention topic (`topics`),
- model order: topics of consecutive articles follow the OECD/UN order (a soft constraint:
  treaties move a few articles around),
- paragraph numbering: an article's numbered paragraphs run 1, 2, 3 … from its first line;
  "1." after "12." opens a new article,
- the text's own cross-references (`references`): "Artigo 27 (Intercâmbio de Informações)"
  names the topic of article 27, "paragraph 8 of Article 11" says article 11 has at least 8
  paragraphs,

and numbers the articles consecutively between the anchors (`gaps`).
"""

from indexer.segment.recover.gaps import Anchor, Span, recover
from indexer.segment.recover.references import References, find_references

__all__ = ["Anchor", "References", "Span", "find_references", "recover"]
