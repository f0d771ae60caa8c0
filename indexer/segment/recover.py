"""Article boundaries where the print lost the headings.

`segment` hands over the body of a treaty (the lines between the preamble and the closing
formula) with the printed article headings it found as anchors. Between two anchors the
number of articles is known (the anchors' numbers); after the last anchor, or when no heading
survived at all, it is not. Boundaries are chosen among candidate lines by a dynamic program
that maximises

- topic fit: each article's keyword evidence for one model-convention topic (`topics`),
- model order: topics of consecutive articles follow the OECD/UN order (a soft constraint:
  treaties move a few articles around),
- paragraph numbering: an article's numbered paragraphs run 1, 2, 3 … from its first line;
  "1." after "12." opens a new article,
- the text's own cross-references: "Artigo 27 (Intercâmbio de Informações)" names the topic
  of article 27, "paragraph 8 of Article 11" says article 11 has at least 8 paragraphs,

and numbers the articles consecutively between the anchors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.segment.lines import heading_like, is_heading_line, starts_sentence, top_of, top_para
from indexer.segment.numerals import (
    article_references,
    paragraph_references,
    parse_label,
    plausible_label,
    point_labels,
)
from indexer.topics import RANK, TOPICS, classify_title, raw_scores

_TERMINAL = tuple(".。;；!?")
_KEYS = tuple(TOPICS)
_KEY_INDEX = {k: i for i, k in enumerate(_KEYS)}

# Scores of the dynamic program (see module doc). Fit is a share in 0..1, scaled.
W_FIT = 2.0
P_ORDER = 0.8  # topic not after the previous article's topic in model order
P_REPEAT = 2.0  # the same topic as the previous article (one article cut in two)
P_NUMBERING = 2.5  # per break in 1, 2, 3 … paragraph numbering inside an article
P_LEAD = 2.5  # unnumbered lines before a "1." (two articles glued together)
B_RESTART = 0.3  # a boundary at a "1." restart
P_UNNUMBERED = 1.0  # a boundary at an unnumbered line (free count only)
B_REF = 1.5  # a cross-reference confirms the article's topic
P_REF_PARAS = 1.5  # a cross-reference needs more paragraphs than the article has


@dataclass(frozen=True)
class Anchor:
    """A printed article heading inside the body: body index, number (None when garbled and
    unresolved), label as printed."""

    index: int
    number: int | None
    label: str


@dataclass(frozen=True)
class Span:
    """One recovered or printed article: body lines [start, end), its number, and whether a
    heading was printed at `start`."""

    start: int
    end: int
    number: int
    label: str | None
    inferred: bool
    topic_hint: str | None = None


@dataclass(frozen=True)
class References:
    """What the text says about its own articles."""

    topic: dict[int, str]  # article number -> topic named in a parenthesised title
    min_paras: dict[int, int]  # article number -> highest paragraph number cited


def find_references(texts: Sequence[str]) -> References:
    """Collect "Article 27 (Exchange of Information)" and "paragraph 8 of Article 11"."""
    topic: dict[int, str] = {}
    min_paras: dict[int, int] = {}
    for text in texts:
        # both patterns need an article word ("Art…", "artigo", "artikel") or "第"
        if not ("Art" in text or "第" in text or "artigo" in text or "artikel" in text):
            continue
        for m in article_references(text):
            paren = m.group("paren")
            key = classify_title(paren) if paren else None
            if not key:
                continue  # only a reference with a topic in its parenthesis counts
            label = m.group("label") or m.group("zlabel")
            n = parse_label(label) if label else None
            if n:
                topic.setdefault(n, key)
        for m in paragraph_references(text):
            para = parse_label(m.group("para") or m.group("zpara") or "")
            if not para or para >= 40:
                continue
            art = parse_label(m.group("art") or m.group("zart") or "")
            if art:
                min_paras[art] = max(min_paras.get(art, 0), para)
    return References(topic, min_paras)


def candidates(texts: Sequence[str], start: int, end: int,
               tops: Sequence[tuple[str, int] | None] | None = None) -> dict[int, str]:
    """Lines in [start+1, end) where an article may begin: "restart" (a "1." paragraph) or
    "unnumbered" (a sentence at paragraph level after a finished sentence). `tops`:
    `top_para` of every line (as given), when known."""
    out: dict[int, str] = {}
    for i in range(start + 1, end):
        text = texts[i].strip()
        prev = texts[i - 1].rstrip()
        tp = tops[i] if tops is not None and len(text) == len(texts[i]) else top_para(text)
        if tp:
            if tp[1] == 1 and tp[0] not in ("rparen", "fw"):
                out[i] = "restart"
            continue
        if point_labels(text) or not prev:
            continue
        if prev.endswith(_TERMINAL) and starts_sentence(text) and not text.startswith(("(", "（")):
            out[i] = "unnumbered"
    return out


def _numbering_penalty(texts: Sequence[str], a: int, b: int,
                       tops: Sequence[tuple[str, int] | None] | None = None) -> tuple[float, int]:
    """Penalty for broken 1, 2, 3 … paragraph numbering in [a, b), and the paragraph count.
    `tops`: `top_para` of every line, when known."""
    style = None
    expected = 1
    penalty = 0.0
    count = 0
    lead = False
    for i in range(a, b):
        tp = tops[i] if tops is not None else top_para(texts[i])
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


def recover(
    texts: Sequence[str],
    lang: str,
    anchors: Sequence[Anchor],
    forced: Sequence[int],
    *,
    first_number: int | None,
    refs: References,
    raw: Sequence[dict[str, float]] | None = None,
    labels: Sequence[tuple[str, int, int] | None] | None = None,
) -> list[Span]:
    """Article spans covering body lines [0, len(texts)) in order.

    `anchors`: printed headings (sorted by index). `forced`: lines where an article must
    begin (chapter headings). `first_number`: number of the first article when the body
    starts without a heading (None = unknown: taken from the first article's topic).
    `raw`: `raw_scores` of every line, when known; `labels`: `paragraph_label` of every
    line, when known.
    """
    n_lines = len(texts)
    if n_lines == 0:
        return []
    if raw is None:
        raw = [raw_scores(t, lang) for t in texts]
    tops = [top_para(t) for t in texts] if labels is None else [top_of(pl) for pl in labels]
    # prefix[i][t]: summed evidence of lines [0, i) for topic _KEYS[t]
    prefix = [[0.0] * len(_KEYS)]
    for r in raw:
        row = prefix[-1].copy()
        for k, v in r.items():
            row[_KEY_INDEX[k]] += v
        prefix.append(row)
    anchors = _resolve_anchors(anchors)
    bounds: list[tuple[int, int, Anchor | None, Anchor | None]] = []
    starts = [a.index for a in anchors]
    if not starts or starts[0] > 0:
        bounds.append((0, starts[0] if starts else n_lines, None, anchors[0] if anchors else None))
    for j, a in enumerate(anchors):
        nxt = anchors[j + 1] if j + 1 < len(anchors) else None
        bounds.append((a.index, nxt.index if nxt else n_lines, a, nxt))
    spans: list[Span] = []
    for g0, g1, left, right in bounds:
        if g1 <= g0:
            continue
        if left is not None and right is not None and left.number and right.number:
            count = right.number - left.number
            count = max(count, 1)
            n0 = left.number
        elif left is not None and left.number:
            count, n0 = None, left.number
        elif right is not None and right.number:
            n0 = first_number if first_number else None
            count = right.number - n0 if n0 and right.number > n0 else None
        else:
            count, n0 = None, first_number
        cuts = _dp(texts, prefix, g0, g1, count, n0, forced, refs, tops)
        if n0 is None:
            seg_topic = _best_topic(prefix, cuts[0][0], cuts[0][1])
            from indexer.topics import MODEL_NUMBER

            n0 = MODEL_NUMBER.get(seg_topic, 1) if seg_topic else 1
            if right is not None and right.number and n0 + len(cuts) > right.number:
                n0 = max(1, right.number - len(cuts))
        for k, (a, b, topic) in enumerate(cuts):
            printed = left is not None and k == 0
            spans.append(
                Span(
                    start=a,
                    end=b,
                    number=n0 + k,
                    label=left.label if printed and left is not None else None,
                    inferred=not (printed and left is not None and left.number is not None
                                  and parse_label(left.label) == left.number),
                    topic_hint=topic,
                )
            )
    return spans


def _resolve_anchors(anchors: Sequence[Anchor]) -> list[Anchor]:
    """Give garbled anchors the number the sequence expects; drop anchors that break it."""
    out: list[Anchor] = []
    for j, a in enumerate(anchors):
        prev = out[-1].number if out and out[-1].number else 0
        nxt = next((b.number for b in anchors[j + 1 :] if b.number), None)
        n = a.number
        if n is not None and n > prev and (nxt is None or n < nxt):
            out.append(a)
            continue
        upper = (nxt - 1) if nxt else prev + 3
        guess = [k for k in range(prev + 1, upper + 1) if plausible_label(a.label, k)]
        if guess:
            out.append(Anchor(a.index, guess[0], a.label))
        elif n is None and nxt is not None and nxt - prev == 2:
            out.append(Anchor(a.index, prev + 1, a.label))  # the only number that fits
        elif n is None:
            out.append(Anchor(a.index, None, a.label))
    # anchors with None numbers that stay unresolved are kept: they still mark a boundary
    return [a if a.number is not None else Anchor(a.index, None, a.label) for a in out]


def _best_topic(prefix: list[list[float]], a: int, b: int) -> str | None:
    seg = [x - y for x, y in zip(prefix[b], prefix[a])]
    best = max(range(len(_KEYS)), key=seg.__getitem__)
    return _KEYS[best] if seg[best] > 0 else None


def _fit_options(prefix: list[list[float]], lo: int, hi: int) -> list[tuple[str | None, float]]:
    """Topic fit of lines [lo, hi): the (up to) three best-supported topics and their fit."""
    seg = [x - y for x, y in zip(prefix[hi], prefix[lo])]
    total = sum(seg)
    ranked = sorted((t for t in range(len(_KEYS)) if seg[t] > 0), key=lambda t: -seg[t])[:3]
    return [(_KEYS[t], W_FIT * seg[t] / (total + 2.0)) for t in ranked] or [(None, 0.0)]


def _dp(
    texts: Sequence[str],
    prefix: list[list[float]],
    g0: int,
    g1: int,
    count: int | None,
    n0: int | None,
    forced: Sequence[int],
    refs: References,
    tops: Sequence[tuple[str, int] | None] | None = None,
    *,
    prune: bool = True,
) -> list[tuple[int, int, str | None]]:
    """Split [g0, g1) into `count` articles (free when None); returns (start, end, topic).
    `prune=False` keeps the states that cannot reach `count` (same result; for tests)."""
    if count == 1:  # one article: the whole gap, and no boundary to choose
        if any(g0 < i < g1 for i in forced):
            return [(g0, g1, None)]  # a forced boundary inside: no split into one article
        pen, paras = _numbering_penalty(texts, g0, g1, tops)
        top, top_sc = None, None
        for topic, fit in _fit_options(prefix, g0, g1):
            sc = fit - pen + _ref_score(refs, n0, topic, paras)
            if top_sc is None or sc > top_sc:
                top, top_sc = topic, sc
        return [(g0, g1, top)]
    head = 0  # chapter, heading and title lines at the top of the gap: no boundary inside
    while g0 + head < g1 and head < 5 and (
        is_heading_line(texts[g0 + head]) or (head > 0 and heading_like(texts[g0 + head]))
    ):
        head += 1
    cand = {i: c for i, c in candidates(texts, g0, g1, tops).items() if i > g0 + head}
    forced_in = [i for i in forced if g0 < i < g1]
    for f in forced_in:  # no boundary inside a chapter heading block or at its first line
        k = f + 1
        while k < g1 and k - f < 4 and heading_like(texts[k]) and not top_para(texts[k]):
            k += 1
        for i in range(f + 1, k + 1):
            cand.pop(i, None)
    for i in forced_in:
        cand[i] = "forced"
    pos = [g0] + sorted(cand)
    m = len(pos)

    seg_cache: dict[tuple[int, int], tuple[float, int, list[tuple[str | None, float]]]] = {}

    def seg_info(a: int, b: int) -> tuple[float, int, list[tuple[str | None, float]]]:
        key = (a, b)
        if key not in seg_cache:
            lo, hi = pos[a], (pos[b] if b < m else g1)
            pen, paras = _numbering_penalty(texts, lo, hi, tops)
            seg_cache[key] = (pen, paras, _fit_options(prefix, lo, hi))
        return seg_cache[key]

    forced_pos = {j for j in range(m) if cand.get(pos[j]) == "forced"}
    # an article from pos[a] may end at pos[b] for b up to the first forced boundary after a
    last_end = [m] * (m + 1)
    for a in range(m - 1, -1, -1):
        last_end[a] = a + 1 if a + 1 in forced_pos else last_end[a + 1]
    max_k = count if count is not None else m
    # With `count` known, a state (b, k) that cannot cover pos[b]..g1 with the remaining
    # count - k articles can never reach a final state, and neither can anything after it:
    # such states are not made (the others keep their scores, order and back-pointers).
    # Articles from pos[b] to g1 can number anything in [fewest[b], m - b]: one per position
    # at most, and a longer article splits at its next position (not forced, else it ended
    # there). When no state reaches `count` at all, every state is kept for the fallback.
    fewest = [0] * (m + 1)
    for a in range(m - 1, -1, -1):
        fewest[a] = 1 + min(fewest[a + 1:last_end[a] + 1])
    prune = prune and count is not None and fewest[0] <= count <= m

    def viable(b: int, k: int) -> bool:
        return not prune or fewest[b] <= count - k <= m - b  # type: ignore[operator]

    neg = float("-inf")
    # best[(b, k, topic)] = (score, back-pointer) for k articles covering pos[0]..pos[b]
    best: dict[tuple[int, int, str | None], tuple[float, tuple | None]] = {}
    first_refs = _has_refs(refs, n0)
    for b in range(1, last_end[0] + 1):
        # the first article spans pos[0]..pos[b]; no forced boundary strictly inside
        if not viable(b, 1):
            continue
        pen, paras, options = seg_info(0, b)
        for topic, fit in options:
            sc = fit - pen + (_ref_score(refs, n0, topic, paras) if first_refs else 0.0)
            best[(b, 1, topic)] = (sc, None)
    previous = dict(best)
    priors = []  # the score of a boundary at pos[a]
    for a in range(m):
        prior = B_RESTART if cand.get(pos[a]) == "restart" else 0.0
        if cand.get(pos[a]) == "unnumbered" and count is None:
            prior -= P_UNNUMBERED
        priors.append(prior)
    # the articles that may follow a boundary at pos[a] in layer k, (b, seg_info) each,
    # made once per a for the states ending there (once for all layers when not pruning:
    # then they do not depend on k)
    steps: dict[int, list[tuple[int, tuple[float, int, list[tuple[str | None, float]]]]]] = {}
    for k in range(2, max_k + 1):
        layer: dict[tuple[int, int, str | None], tuple[float, tuple | None]] = {}
        number = n0 + k - 1 if n0 else None
        refd = _has_refs(refs, number)
        if prune:
            steps = {}
        for (a, _kk, t_prev), (sc_prev, _) in previous.items():
            if a >= m:
                continue
            base = sc_prev + priors[a]
            rank_prev = RANK[t_prev] if t_prev else None
            back = (a, k - 1, t_prev)
            row = steps.get(a)
            if row is None:
                row = steps[a] = [
                    (b, seg_info(a, b))
                    for b in range(a + 1, last_end[a] + 1)  # no forced boundary strictly inside
                    if not prune or fewest[b] <= count - k <= m - b  # type: ignore[operator]
                ]  # (`viable`)
            for b, (pen, paras, options) in row:
                for topic, fit in options:
                    sc = base + fit - pen
                    if topic and t_prev and RANK[topic] <= rank_prev:  # type: ignore[operator]
                        sc -= P_REPEAT if topic == t_prev else P_ORDER  # (model order)
                    if refd:
                        sc += _ref_score(refs, number, topic, paras)
                    key = (b, k, topic)
                    old = layer.get(key)
                    if old is None or old[0] < sc:
                        layer[key] = (sc, back)
        best.update(layer)
        previous = layer
        if not layer:
            break
    finals = [
        (v[0], key) for key, v in best.items()
        if key[0] == m and (count is None or key[1] == count)
    ]
    if not finals:  # fewer candidates than articles: take the most articles we can
        finals = [(v[0] - 100 * abs((count or 0) - key[1]), key) for key, v in best.items() if key[0] == m]
    if not finals:
        return [(g0, g1, None)]
    _, key = max(finals, key=lambda x: (x[0] if x[0] != neg else -1e9))
    cuts: list[tuple[int, int, str | None]] = []
    while key is not None:
        b, k, topic = key
        back = best[key][1]
        a = back[0] if back else 0
        cuts.append((pos[a], pos[b] if b < m else g1, topic))
        key = back
    return cuts[::-1]


def _has_refs(refs: References, number: int | None) -> bool:
    """Can `_ref_score` of article `number` be other than 0.0 (does the text cite it)?"""
    return number is not None and (number in refs.topic or bool(refs.min_paras.get(number)))


def _ref_score(refs: References, number: int | None, topic: str | None, paras: int) -> float:
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
