"""`split_gap` with a known article count drops the states that cannot reach that count;
its splits must be those of the full dynamic program (`_unpruned`, below)."""

from __future__ import annotations

import random

from indexer.segment.lines import top_para
from indexer.segment.recover import References
from indexer.segment.recover.dp import Lattice, split_gap
from indexer.segment.recover.scores import KEYS, P_ORDER, P_REPEAT, ref_score, topic_prefix
from indexer.topics import RANK, raw_scores

_SENTENCES = (
    "Dividends paid by a company which is a resident of a Contracting State may be taxed.",
    "Interest arising in a Contracting State and paid to a resident of the other State.",
    "Royalties arising in a Contracting State may be taxed in that other State.",
    "Income derived from immovable property may be taxed in the State where it is situated.",
    "Profits from the operation of ships or aircraft in international traffic shall be taxable.",
    "The competent authorities shall exchange such information as is necessary.",
    "Gains from the alienation of property may be taxed in the other State.",
    "Salaries, wages and other similar remuneration derived by a resident shall be taxable.",
    "Pensions and other similar remuneration paid in consideration of past employment.",
    "The term permanent establishment means a fixed place of business.",
)


def _body(rng: random.Random) -> list[str]:
    texts: list[str] = []
    for _ in range(rng.randint(2, 12)):  # articles of 1..4 paragraphs, some unnumbered
        sentence = rng.choice(_SENTENCES)
        paras = rng.randint(1, 4)
        numbered = rng.random() < 0.8
        for p in range(1, paras + 1):
            texts.append(f"{p}. {sentence}" if numbered else sentence)
            if rng.random() < 0.3:
                texts.append(f"a) {rng.choice(_SENTENCES).lower()}")
        if rng.random() < 0.15:
            texts.append("CHAPTER II")
    return texts


def _unpruned(texts, prefix, g0, g1, count, n0, forced, refs, tops):
    """`split_gap` as a plain layered dynamic program over every state (b, k, topic), with
    the same candidates, scores and order of ties."""
    if count == 1:
        return split_gap(texts, prefix, g0, g1, count, n0, forced, refs, tops)  # nothing to prune
    lat = Lattice(texts, prefix, tops, g0, g1, forced, count)
    m = lat.m
    best = {}
    for b in range(1, lat.last_end[0] + 1):
        pen, paras, options = lat.seg(0, b)
        for topic, fit in options:
            best[(b, 1, topic)] = (fit - pen + ref_score(refs, n0, topic, paras), None)
    previous = dict(best)
    for k in range(2, (count if count is not None else m) + 1):
        number = n0 + k - 1 if n0 else None
        layer = {}
        for (a, _, t_prev), (sc_prev, _) in previous.items():
            if a >= m:
                continue
            for b in range(a + 1, lat.last_end[a] + 1):
                pen, paras, options = lat.seg(a, b)
                for topic, fit in options:
                    sc = sc_prev + lat.priors[a] + fit - pen
                    if topic and t_prev and RANK[topic] <= RANK[t_prev]:
                        sc -= P_REPEAT if topic == t_prev else P_ORDER
                    sc += ref_score(refs, number, topic, paras)
                    if (b, k, topic) not in layer or layer[(b, k, topic)][0] < sc:
                        layer[(b, k, topic)] = (sc, (a, k - 1, t_prev))
        best.update(layer)
        previous = layer
        if not layer:
            break
    finals = [(v[0], key) for key, v in best.items() if key[0] == m and count in (None, key[1])]
    if not finals:
        finals = [(v[0] - 100 * abs((count or 0) - key[1]), key) for key, v in best.items() if key[0] == m]
    if not finals:
        return [(g0, g1, None)]
    key = max(finals, key=lambda x: x[0])[1]
    cuts = []
    while key is not None:
        back = best[key][1]
        cuts.append((lat.pos[back[0] if back else 0], lat.pos[key[0]] if key[0] < m else g1, key[2]))
        key = back
    return cuts[::-1]


def test_pruned_dp_splits_as_the_full_one() -> None:
    rng = random.Random(7)
    for _ in range(150):
        texts = _body(rng)
        prefix = topic_prefix([raw_scores(t, "en") for t in texts])
        tops = [top_para(t) for t in texts]
        forced = [i for i, t in enumerate(texts) if t == "CHAPTER II" and i > 0]
        refs = References({rng.randint(1, 12): rng.choice(KEYS) for _ in range(3)},
                          {rng.randint(1, 12): rng.randint(1, 5) for _ in range(2)})
        n0 = rng.choice((None, 1, 3))
        for count in (1, 2, 3, 5, 8, 20):
            args = (texts, prefix, 0, len(texts), count, n0, forced, refs, tops)
            assert split_gap(*args) == _unpruned(*args), (texts, count, n0)
