"""Model-convention topics of treaty articles, in en, pt, sv and zh.

`TOPICS` lists the topic keys in OECD/UN model order with display names, `RANK` their order
and `MODEL_NUMBER` the usual article number of each in the models (`table`, which also holds
the title patterns, the content keywords with their weights and the register words, each
beside the literals its matches hold). `classify` names the topic of one article from its
printed title (strong evidence) or its text (keyword weights); `score_all`, `raw_scores` and
`LineScores` give the evidence for every topic, which `segment` uses to place article
boundaries that the print lost (`scoring`, on the literal prefilter of `prefilter` and the
matchers of `matcher`); `assign` gives each article of a treaty one topic (`assign`).
"""

from indexer.topics.assign import MIN_SECOND_CHOICE, assign
from indexer.topics.scoring import (
    OPENING_CHARS,
    OPENING_WEIGHT,
    LineScores,
    classify,
    classify_title,
    content_scores,
    normalise,
    pooled_scores,
    raw_scores,
    score_all,
    treaty_register,
)
from indexer.topics.table import KEYWORDS, MODEL_NUMBER, RANK, REGISTER, TITLE_PATTERNS, TOPICS

__all__ = [
    "KEYWORDS", "MIN_SECOND_CHOICE", "MODEL_NUMBER", "OPENING_CHARS", "OPENING_WEIGHT", "RANK",
    "REGISTER", "TITLE_PATTERNS", "TOPICS", "LineScores", "assign", "classify", "classify_title",
    "content_scores", "normalise", "pooled_scores", "raw_scores", "score_all", "treaty_register",
]
