"""The dynamic program that cuts one gap between printed headings into articles: among the
candidate lines (`Lattice`), the boundaries whose articles score best (`scores`), with
`count` articles when the headings around the gap say how many, else as many as fit best.

States are (b, k, topic): k articles cover the gap up to position b, the last one read as
`topic`. With `count` known, states that can no longer end the gap with exactly `count`
articles are not made (`Lattice.fewest`); that changes no result, only the work."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.segment.lines import heading_like, is_heading_line, top_para
from indexer.segment.recover.references import References
from indexer.segment.recover.scores import (
    P_ORDER,
    P_REPEAT,
    Options,
    Top,
    boundary_prior,
    candidates,
    fit_options,
    numbering_penalty,
    ref_score,
)
from indexer.topics import RANK

Cut = tuple[int, int, str | None]  # an article: lines [start, end), its topic
Seg = tuple[float, int, Options]  # an article's numbering penalty, paragraphs, topic options
State = tuple[int, int, str | None]  # (b, k, topic), see the module doc
Layer = dict[State, tuple[float, State | None]]  # state -> (score, the state before)


def split_gap(texts: Sequence[str], prefix: list[list[float]], g0: int, g1: int, count: int | None,
              n0: int | None, forced: Sequence[int], refs: References, tops: Sequence[Top | None]
              ) -> list[Cut]:
    """Split lines [g0, g1) into `count` articles (free when None), numbered from `n0` when
    known; an article begins at every line in `forced` (`prefix`: `scores.topic_prefix` of
    the lines, `tops`: their `top_para`)."""
    if count == 1:
        return [_one_article(texts, prefix, g0, g1, n0, forced, refs, tops)]
    lat = Lattice(texts, prefix, tops, g0, g1, forced, count)
    m = lat.m
    # the count the states must be able to reach (None: free count, or no state reaches
    # `count` and every state is kept for the fallback of `_final_state`)
    target = count if count is not None and lat.fewest[0] <= count <= m else None
    layer = _first_layer(lat, n0, refs, None if target is None else target - 1)
    best = dict(layer)
    # the articles that may follow a boundary at pos[a], (b, seg) each, made once per a for
    # the states ending there: once per layer when pruning (they depend on the layer then)
    steps: dict[int, list[tuple[int, Seg]]] = {}
    for k in range(2, (count if count is not None else m) + 1):
        if target is not None:
            steps = {}
        layer = _next_layer(lat, layer, k, n0 + k - 1 if n0 else None, refs,
                            None if target is None else target - k, steps)
        best.update(layer)
        if not layer:
            break
    final = _final_state(best, m, count)
    return [(g0, g1, None)] if final is None else lat.cuts(best, final)


def _one_article(texts: Sequence[str], prefix: list[list[float]], g0: int, g1: int, n0: int | None,
                 forced: Sequence[int], refs: References, tops: Sequence[Top | None]) -> Cut:
    """The gap as one article, read as its best topic: no boundary to choose."""
    if any(g0 < i < g1 for i in forced):
        return g0, g1, None  # a forced boundary inside: no split into one article
    pen, paras = numbering_penalty(texts, g0, g1, tops)
    top, top_sc = None, None
    for topic, fit in fit_options(prefix, g0, g1):
        sc = fit - pen + ref_score(refs, n0, topic, paras)
        if top_sc is None or sc > top_sc:
            top, top_sc = topic, sc
    return g0, g1, top


class Lattice:
    """The positions of gap [g0, g1) where an article may begin (`pos`; pos[0] = g0, m of
    them), the score of a boundary at each (`priors`), how far an article from each may
    reach (`last_end`), and the scores of an article between two of them (`seg`)."""

    def __init__(self, texts: Sequence[str], prefix: list[list[float]], tops: Sequence[Top | None],
                 g0: int, g1: int, forced: Sequence[int], count: int | None) -> None:
        self.texts, self.prefix, self.tops, self.g1 = texts, prefix, tops, g1
        kinds = _boundaries(texts, g0, g1, forced, tops)
        self.pos = pos = [g0] + sorted(kinds)
        self.m = m = len(pos)
        self.priors = [boundary_prior(kinds.get(p), count) for p in pos]
        forced_pos = {j for j in range(m) if kinds.get(pos[j]) == "forced"}
        # an article from pos[a] may end at pos[b] for b up to the first forced boundary after a
        self.last_end = last_end = [m] * (m + 1)
        for a in range(m - 1, -1, -1):
            last_end[a] = a + 1 if a + 1 in forced_pos else last_end[a + 1]
        # Articles from pos[b] to g1 can number anything in [fewest[b], m - b]: one per
        # position at most, and a longer article splits at its next position (not forced,
        # else it ended there).
        self.fewest = fewest = [0] * (m + 1)
        for a in range(m - 1, -1, -1):
            fewest[a] = 1 + min(fewest[a + 1:last_end[a] + 1])
        self._segs: dict[tuple[int, int], Seg] = {}

    def ends(self, a: int, rest: int | None) -> list[int]:
        """Where an article from pos[a] may end (b: pos[b], or g1 for b = m; no forced
        boundary strictly inside); with `rest`, only where `rest` more articles can end the
        gap."""
        ends = range(a + 1, self.last_end[a] + 1)
        if rest is None:
            return list(ends)
        fewest, m = self.fewest, self.m
        return [b for b in ends if fewest[b] <= rest <= m - b]

    def seg(self, a: int, b: int) -> Seg:
        """Numbering penalty, paragraph count and topic options of the article pos[a]..pos[b]."""
        key = (a, b)
        seg = self._segs.get(key)
        if seg is None:
            lo, hi = self.pos[a], (self.pos[b] if b < self.m else self.g1)
            pen, paras = numbering_penalty(self.texts, lo, hi, self.tops)
            seg = self._segs[key] = (pen, paras, fit_options(self.prefix, lo, hi))
        return seg

    def cuts(self, best: Layer, final: State) -> list[Cut]:
        """The articles of the states that lead to `final`, in order."""
        pos, m = self.pos, self.m
        cuts: list[Cut] = []
        key: State | None = final
        while key is not None:
            b, _k, topic = key
            back = best[key][1]
            a = back[0] if back else 0
            cuts.append((pos[a], pos[b] if b < m else self.g1, topic))
            key = back
        return cuts[::-1]


def _boundaries(texts: Sequence[str], g0: int, g1: int, forced: Sequence[int],
                tops: Sequence[Top | None]) -> dict[int, str]:
    """Lines of (g0, g1) where an article may begin, by kind ("restart", "unnumbered",
    "forced"): not inside the heading block at the top of the gap or of a chapter."""
    head = 0  # chapter, heading and title lines at the top of the gap: no boundary inside
    while g0 + head < g1 and head < 5 and (
        is_heading_line(texts[g0 + head]) or (head > 0 and heading_like(texts[g0 + head]))
    ):
        head += 1
    kinds = {i: c for i, c in candidates(texts, g0, g1, tops).items() if i > g0 + head}
    forced_in = [i for i in forced if g0 < i < g1]
    for f in forced_in:  # no boundary inside a chapter heading block or at its first line
        k = f + 1
        while k < g1 and k - f < 4 and heading_like(texts[k]) and not top_para(texts[k]):
            k += 1
        for i in range(f + 1, k + 1):
            kinds.pop(i, None)
    for i in forced_in:
        kinds[i] = "forced"
    return kinds


def _first_layer(lat: Lattice, n0: int | None, refs: References, rest: int | None) -> Layer:
    """The states of one article from pos[0] (`rest`: the articles that must follow, when
    pruning)."""
    layer: Layer = {}
    cited = refs.cites(n0)
    for b in lat.ends(0, rest):
        pen, paras, options = lat.seg(0, b)
        for topic, fit in options:
            sc = fit - pen + (ref_score(refs, n0, topic, paras) if cited else 0.0)
            layer[(b, 1, topic)] = (sc, None)
    return layer


def _next_layer(lat: Lattice, previous: Layer, k: int, number: int | None, refs: References,
                rest: int | None, steps: dict[int, list[tuple[int, Seg]]]) -> Layer:
    """The states of k articles, article k (numbered `number`) following a state of
    `previous` (`rest`: the articles that must follow, when pruning; `steps`: the articles
    after each position made so far)."""
    layer: Layer = {}
    cited = refs.cites(number)
    m, priors = lat.m, lat.priors
    for (a, _kk, t_prev), (sc_prev, _) in previous.items():
        if a >= m:
            continue
        base = sc_prev + priors[a]
        rank_prev = RANK[t_prev] if t_prev else None
        back = (a, k - 1, t_prev)
        row = steps.get(a)
        if row is None:
            row = steps[a] = [(b, lat.seg(a, b)) for b in lat.ends(a, rest)]
        for b, (pen, paras, options) in row:
            for topic, fit in options:
                sc = base + fit - pen
                if topic and t_prev and RANK[topic] <= rank_prev:  # type: ignore[operator]
                    sc -= P_REPEAT if topic == t_prev else P_ORDER  # (model order)
                if cited:
                    sc += ref_score(refs, number, topic, paras)
                key = (b, k, topic)
                old = layer.get(key)
                if old is None or old[0] < sc:
                    layer[key] = (sc, back)
    return layer


def _final_state(best: Layer, m: int, count: int | None) -> State | None:
    """The best state that ends the gap with `count` articles; with fewer candidates than
    articles, the most articles we can; None when no state ends the gap."""
    finals = [(v[0], key) for key, v in best.items() if key[0] == m and (count is None or key[1] == count)]
    if not finals:
        finals = [(v[0] - 100 * abs((count or 0) - key[1]), key) for key, v in best.items() if key[0] == m]
    if not finals:
        return None
    neg = float("-inf")
    return max(finals, key=lambda x: (x[0] if x[0] != neg else -1e9))[1]
