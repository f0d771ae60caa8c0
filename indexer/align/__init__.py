"""Links between the language versions of one treaty: article -> paragraph -> point.

Structural keys come first (article eId, paragraph number, point letter); every candidate
pair is then weighed by evidence that survives translation:

- ``numbers``: digits, percentages, years, article cross-references (arabic, roman, Chinese)
  and small number words ("ten", "tio", "dez"), compared as multisets;
- ``length``: the Gale–Church length model, with the character ratio of the two versions
  estimated from the treaty itself;
- ``lexicon``: cognates (a shared 5-letter prefix after accent folding: dividends /
  dividender / dividendos) plus a bilingual lexicon of treaty terms learnt from the
  first-pass alignment of the treaty itself (Dice coefficient over aligned paragraph pairs,
  as hunalign builds its dictionary).

The pieces are log-likelihood ratios that add up; a pair's confidence is their logistic. One
dynamic-programming aligner (1–1, 1–2, 2–1, 1–0, 0–1 beads, as in Gale–Church, hunalign and
bertalign) runs over every list of siblings, with key agreement as one more piece of
evidence, so the numbering decides when it is there and agrees, and content and position
decide when it is absent or disagrees. A unit with no counterpart is reported in
``Alignment.unmatched``, never forced onto a neighbour.

Everything here is pure: Versions in, an Alignment out. ``store_rows`` turns it into the rows
of the store's ``links`` table; ``versions_from_rows`` rebuilds Versions from stored units.
What is computed once per treaty (the cues of its texts, the segments of its lists of
siblings, what its pairs share about each version) is held by objects `align_versions`
makes for the treaty and passes down, never in module state.

Modules, in the order they build on each other:

- ``results``: Link, Unmatched, Alignment;
- ``cues``: word types and numbers of texts (`numbers`; `TextCues`, a treaty's memo);
- ``segments``: structural keys and the segments of lists of siblings (`Segments`);
- ``evidence``: the log-likelihood pieces and the `Model` of a language pair;
- ``dp``: the dynamic program over two lists of siblings (`align_sequences`);
- ``lexicon``: the bilingual lexicon learnt from the first pass;
- ``pair``: one language pair (`align_pair`): calibration, the two passes, level by level;
- ``treaty``: a treaty and a corpus (`align_versions`, `align_corpus`);
- ``rows``: the store's rows (`store_rows`, `versions_from_rows`).
"""

from indexer.align.cues import numbers
from indexer.align.pair import align_pair
from indexer.align.results import Alignment, Link, Unmatched
from indexer.align.rows import store_rows, versions_from_rows
from indexer.align.treaty import align_corpus, align_versions, merge_versions

__all__ = ["Alignment", "Link", "Unmatched", "align_corpus", "align_pair", "align_versions",
           "merge_versions", "numbers", "store_rows", "versions_from_rows"]
