"""`recover._dp` with a known article count drops the states that cannot reach that count;
its splits must be those of the full dynamic program (`prune=False`)."""

from __future__ import annotations

import random

from indexer.segment.recover import _KEY_INDEX, _KEYS, References, _dp, top_para
from indexer.topics import raw_scores

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


def _prefix(texts: list[str]) -> list[list[float]]:
    prefix = [[0.0] * len(_KEYS)]
    for t in texts:
        row = prefix[-1].copy()
        for k, v in raw_scores(t, "en").items():
            row[_KEY_INDEX[k]] += v
        prefix.append(row)
    return prefix


def test_pruned_dp_splits_as_the_full_one() -> None:
    rng = random.Random(7)
    for _ in range(150):
        texts = _body(rng)
        prefix = _prefix(texts)
        tops = [top_para(t) for t in texts]
        forced = [i for i, t in enumerate(texts) if t == "CHAPTER II" and i > 0]
        refs = References({rng.randint(1, 12): rng.choice(_KEYS) for _ in range(3)},
                          {rng.randint(1, 12): rng.randint(1, 5) for _ in range(2)})
        n0 = rng.choice((None, 1, 3))
        for count in (1, 2, 3, 5, 8, 20):
            args = (texts, prefix, 0, len(texts), count, n0, forced, refs, tops)
            assert _dp(*args) == _dp(*args, prune=False), (texts, count, n0)
