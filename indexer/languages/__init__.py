"""Stage `languages`: the language of each block, and one reading-order stream per language.

Chinese (and other CJK scripts) is decided by script (`scripts`). Latin text is identified
with py3langid restricted to the candidate languages, helped by lexical cues for short
strings (`identify`); py3langid is read through its public API (`model`), its ranking of
many texts vectorised (`fastid`) when the installed model is the one that was proved for.
Headings and labels take the language of the text they open; paragraphs broken by a page or
column of another language are joined back together in their own stream (`split`).
"""

from indexer.languages.identify import OTHERS, PRIMARY, cue_scores, detect
from indexer.languages.split import split

__all__ = ["OTHERS", "PRIMARY", "cue_scores", "detect", "split"]
