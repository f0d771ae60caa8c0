"""What the dynamic program (`dp`) weighs: where an article may begin, and how well lines
[a, b) read as one article (topic fit, paragraph numbering, the text's cross-references).
Weights in one place (see the package doc)."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.segment.lines import starts_sentence, top_para
from indexer.segment.numerals import point_labels
from indexer.segment.recover.references import References
from indexer.topics import TOPICS

Top = tuple[str, int]  # a `top_para`: style, value
Options = list[tuple[str | None, float]]  # (topic, fit) of the best-supported topics

# Scores of the dynamic program (see the package doc). Fit is a share in 0..1, scaled.
W_FIT = 2.0
P_ORDER = 0.8  # topic not after the previous article's topic in model order
P_REPEAT = 2.0  # the same topic as the previous article (one article cut in two)
P_NUMBERING = 2.5  # per break in 1, 2, 3 … paragraph numbering inside an article
P_LEAD = 2.5  # unnumbered lines before a "1." (two articles glued together)
B_RESTART = 0.3  # a boundary at a "1." restart
P_UNNUMBERED = 1.0  # a boundary at an unnumbered line (free count only)
B_REF = 1.5  # a cross-reference confirms the article's topic
P_REF_PARAS = 1.5  # a cross-reference needs more paragraphs than the article has

KEYS = tuple(TOPICS)
_KEY_INDEX = {k: i for i, k in enumerate(KEYS)}
_TERMINAL = tuple(".。;；!?")


# ---------------------------------------------------------------------------------------------
# Topic fit
# ---------------------------------------------------------------------------------------------


def topic_prefix(raw: Sequence[dict[str, float]]) -> list[list[float]]:
    """prefix[i][t]: summed evidence of lines [0, i) for topic KEYS[t] (`raw`: each line's
    `raw_scores`)."""
    prefix = [[0.0] * len(KEYS)]
    for r in raw:
        row = prefix[-1].copy()
        for k, v in r.items():
            row[_KEY_INDEX[k]] += v
        prefix.append(row)
    return prefix


def best_topic(prefix: list[list[float]], a: int, b: int) -> str | None:
    seg = [x - y for x, y in zip(prefix[b], prefix[a])]
    best = max(range(len(KEYS)), key=seg.__getitem__)
    return KEYS[best] if seg[best] > 0 else None


def fit_options(prefix: list[list[float]], lo: int, hi: int) -> Options:
    """Topic fit of lines [lo, hi): the (up to) three best-supported topics and their fit."""
    seg = [x - y for x, y in zip(prefix[hi], prefix[lo])]
    total = sum(seg)
    ranked = sorted((t for t in range(len(KEYS)) if seg[t] > 0), key=lambda t: -seg[t])[:3]
    return [(KEYS[t], W_FIT * seg[t] / (total + 2.0)) for t in ranked] or [(None, 0.0)]


# ---------------------------------------------------------------------------------------------
# Boundaries and paragraph numbering
# ---------------------------------------------------------------------------------------------


def candidates(texts: Sequence[str], start: int, end: int, tops: Sequence[Top | None]) -> dict[int, str]:
    """Lines in [start+1, end) where an article may begin: "restart" (a "1." paragraph) or
    "unnumbered" (a sentence at paragraph level after a finished sentence). `tops`:
    `top_para` of every line (as given)."""
    out: dict[int, str] = {}
    for i in range(start + 1, end):
        text = texts[i].strip()
        prev = texts[i - 1].rstrip()
        tp = tops[i] if len(text) == len(texts[i]) else top_para(text)
        if tp:
            if tp[1] == 1 and tp[0] not in ("rparen", "fw"):
                out[i] = "restart"
            continue
        if point_labels(text) or not prev:
            continue
        if prev.endswith(_TERMINAL) and starts_sentence(text) and not text.startswith(("(", "（")):
            out[i] = "unnumbered"
    return out


def boundary_prior(kind: str | None, count: int | None) -> float:
    """The score of a boundary at a candidate of `kind` (`count`: the gap's article count)."""
    prior = B_RESTART if kind == "restart" else 0.0
    if kind == "unnumbered" and count is None:
        prior -= P_UNNUMBERED
    return prior


def numbering_penalty(texts: Sequence[str], a: int, b: int, tops: Sequence[Top | None]) -> tuple[float, int]:
    """Penalty for broken 1, 2, 3 … paragraph numbering in [a, b), and the paragraph count.
    `tops`: `top_para` of every line."""
    style = None
    expected = 1
    penalty = 0.0
    count = 0
    lead = False
    for i in range(a, b):
        tp = tops[i]
        if tp is None:
            if style is None and i > a and texts[i].strip():
                lead = True
            continue
        if style is None:
            if tp[0] in ("rparen", "fw") and tp[1] != 1:
                continue
            style = tp[0]
            if lead:
                penalty += P_LEAD
            if tp[1] != 1:
                penalty += P_NUMBERING
            expected = tp[1] + 1
            count = 1
        elif tp[0] == style:
            if tp[1] == expected:
                expected += 1
                count += 1
            elif tp[1] == 1:
                penalty += P_NUMBERING * 2  # "1." again: another article glued on
                expected = 2
            else:
                penalty += P_NUMBERING / 2
    return penalty, count


# ---------------------------------------------------------------------------------------------
# Cross-references
# ---------------------------------------------------------------------------------------------


def ref_score(refs: References, number: int | None, topic: str | None, paras: int) -> float:
    """What the text's references say of article `number` read as `topic` with `paras`
    paragraphs."""
    if number is None:
        return 0.0
    score = 0.0
    want = refs.topic.get(number)
    if want is not None and topic is not None:
        score += B_REF if want == topic else -B_REF
    need = refs.min_paras.get(number)
    if need and paras < need:
        score -= P_REF_PARAS
    return score
