"""The bilingual lexicon of one language pair, learnt from the first-pass alignment of the
treaty itself (Dice coefficient over confidently aligned paragraph pairs, as hunalign builds
its dictionary)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import NamedTuple

from indexer.align.cues import TextCues
from indexer.align.evidence import Model
from indexer.align.results import Link
from indexer.align.segments import _all_units, _top
from indexer.models import Unit, Version


class _Terms(NamedTuple):
    """What `_learn_lexicon` takes from one side's version (see `_lexicon_terms`)."""

    units: dict[str, Unit]  # eId -> unit, of every aligned unit
    common: set[str]  # types in more than a quarter of the paragraphs: not terms
    of_unit: dict[str, list[str]]  # eId -> its types but the common ones (not to be changed)

    def of(self, unit: Unit, lang: str, cues: TextCues) -> list[str]:
        got = self.of_unit.get(unit.eid)
        if got is None:
            common = self.common
            got = self.of_unit[unit.eid] = [t for t in cues.tokens(unit.text, lang)
                                            if t not in common]
        return got


def _lexicon_terms(version: Version, side: str, model: Model) -> _Terms:
    """`_Terms` of the model's side `side` (`version`), kept with its IDF: it depends on the
    version's document frequencies and `n_docs` only, so the pairs of a treaty share it."""
    side_weights = model.sides[side]
    got = side_weights.terms
    if got is None:
        df = model.df_a if side == "a" else model.df_b
        got = side_weights.terms = _Terms(
            {u.eid: u for u in _all_units(_top(version))},
            {t for t, c in df.items() if c > 0.25 * model.n_docs}, {})
    return got


def _learn_lexicon(va: Version, vb: Version, links: Sequence[Link], model: Model,
                   min_score: float = 0.9) -> None:
    """Word translations from confidently aligned units: Dice coefficient over the pairs."""
    pairs = _term_pairs(va, vb, links, model, min_score)
    counts = _counts(pairs)
    if len(pairs) <= EXACT_DICE_PAIRS:
        model.lexicon = _mutual_best(pairs, *counts)
    else:
        model.lexicon = _tolerant_best(pairs, *counts)


def _term_pairs(va: Version, vb: Version, links: Sequence[Link], model: Model,
                min_score: float = 0.9) -> list[tuple[list[str], list[str]]]:
    """The terms of both sides of every paragraph link of `links` with a score of
    `min_score` or more, in link order (types in more than a quarter of the paragraphs are
    not terms)."""
    terms_a, terms_b = _lexicon_terms(va, "a", model), _lexicon_terms(vb, "b", model)
    units_a, units_b = terms_a.units, terms_b.units
    cues = model.siblings.cues
    pairs: list[tuple[list[str], list[str]]] = []
    for link in links:
        if link.level != "paragraph" or link.score < min_score:
            continue
        ua, ub = units_a.get(link.eid_a), units_b.get(link.eid_b)
        if ua is None or ub is None:
            continue
        pairs.append((terms_a.of(ua, va.lang, cues), terms_b.of(ub, vb.lang, cues)))
    return pairs


def _counts(pairs: Sequence[tuple[list[str], list[str]]]
            ) -> tuple[Counter, Counter, set[str], set[str]]:
    """Per side, the pairs each word is in, and the words in two pairs or more: a word of one
    pair only co-occurs once with anything and is left out (only words seen together twice
    are candidates)."""
    freq_a: Counter = Counter()
    freq_b: Counter = Counter()
    for ta, tb in pairs:
        freq_a.update(ta)
        freq_b.update(tb)
    twice_a = {t for t, c in freq_a.items() if c > 1}
    twice_b = {t for t, c in freq_b.items() if c > 1}
    return freq_a, freq_b, twice_a, twice_b


def candidate_translations(pairs: Sequence[tuple[list[str], list[str]]]
                           ) -> list[tuple[str, str, float]]:
    """The (x, y, dice) candidates the lexicon is chosen from (`_candidates`): words of the
    two sides of aligned `pairs` that co-occur in two pairs or more with a Dice coefficient
    of 0.5 or more. For callers that choose among them otherwise (ties kept)."""
    return _candidates(pairs, *_counts(pairs))


def _tolerant_best(pairs: Sequence[tuple[list[str], list[str]]], freq_a: Mapping[str, int],
                   freq_b: Mapping[str, int], twice_a: set[str], twice_b: set[str]
                   ) -> dict[str, frozenset[str]]:
    """The lexicon of `_learn_lexicon` beyond EXACT_DICE_PAIRS pairs: as `_mutual_best`, but
    a tolerance of 1e-9 joins close dice values, as it always did, and the candidates are
    taken in the order in which each (x, y) first co-occurs, as in one pass over the
    pairs."""
    candidates = _candidates(pairs, freq_a, freq_b, twice_a, twice_b)
    candidates.sort(key=_first_cooccurrence(pairs))
    best_a: dict[str, tuple[float, list[str]]] = {}
    best_b: dict[str, tuple[float, list[str]]] = {}
    for x, y, dice in candidates:
        for best, k, v in ((best_a, x, y), (best_b, y, x)):
            old = best.get(k)
            if old is None or dice > old[0] + 1e-9:
                best[k] = (dice, [v])
            elif abs(dice - old[0]) <= 1e-9:
                old[1].append(v)
    return {x: frozenset(ys) for x, (_, ys) in best_a.items()
            if len(ys) == 1 and best_b.get(ys[0], (0, []))[1] == [x]}


def _candidates(pairs: Sequence[tuple[list[str], list[str]]], freq_a: Mapping[str, int],
                freq_b: Mapping[str, int], twice_a: set[str], twice_b: set[str]
                ) -> list[tuple[str, str, float]]:
    """The candidate translations (x, y, dice): words of side a and b in two pairs or more
    that co-occur in at least two, with a Dice coefficient 2c/(f+g) >= 0.5 (c pairs with
    both, f and g pairs with each)."""
    pairs_of: defaultdict[str, list[list[str]]] = defaultdict(list)  # x -> the tb it is with
    for ta, tb in pairs:
        tb = list(filter(twice_b.__contains__, tb))
        for x in filter(twice_a.__contains__, ta):
            pairs_of[x].append(tb)
    candidates = []
    for x, tbs in pairs_of.items():
        f = freq_a[x]
        cooc = Counter(chain.from_iterable(tbs))  # y -> pairs with x and y
        candidates.extend((x, y, dice) for y, c in cooc.items()
                          if c >= 2 and (dice := 2 * c / (f + freq_b[y])) >= 0.5)
    return candidates


#: 64-bit words of pair sets `_mutual_best` compares at once (rows of words of side a at a
#: time).
DICE_BLOCK = 1 << 20


def _mutual_best(pairs: Sequence[tuple[list[str], list[str]]], freq_a: Mapping[str, int],
                 freq_b: Mapping[str, int], twice_a: set[str], twice_b: set[str]
                 ) -> dict[str, frozenset[str]]:
    """The lexicon of `_learn_lexicon` up to EXACT_DICE_PAIRS pairs: x -> {y} for the words
    of side a and b that are each other's one best translation (ties dropped) among the
    candidates (x, y) that co-occur in at least two pairs with a Dice coefficient
    2c/(f+g) >= 0.5 (c pairs with both, f and g pairs with each), in the order in which the
    x first occur.

    The co-occurrence counts are the bits two words' pair sets share; counts and sums are
    integers below 2**53, exact as floats, and a float division of two of them is
    correctly rounded, as Python's int / int is, so every dice value is the float the pairs
    give one by one. Two different values 2c/(f+g) differ by at least 2/(2n)**2 > 1e-9 for n
    pairs (n <= EXACT_DICE_PAIRS), so the best of a word is its largest value and every word
    with it, compared exactly."""
    import numpy as np

    in_a, in_b = _pair_sets(pairs)
    # words seen in two pairs or more (the others co-occur once at most), in first-seen order
    xs = [x for x in in_a if x in twice_a]
    ys = [y for y in in_b if y in twice_b]
    if not xs or not ys:
        return {}
    n_words = (len(pairs) + 63) // 64

    def bit_words(sets: Iterable[int]) -> np.ndarray:
        # word w of a set is its bits 64w..64w+63: its bytes 8w..8w+7, little-endian
        size = 8 * n_words
        data = b"".join([s.to_bytes(size, "little") for s in sets])
        return np.frombuffer(data, dtype="<u8").astype(np.uint64).reshape(-1, n_words)

    # the pair sets as 64-bit words
    words_a, words_b = bit_words(map(in_a.get, xs)), bit_words(map(in_b.get, ys))
    f = np.array([freq_a[x] for x in xs], dtype=float)
    g = np.array([freq_b[y] for y in ys], dtype=float)
    rows = max(1, DICE_BLOCK // (len(ys) * n_words))
    # per x: its one best y (-1 for none or a tie) and that value; per y: its best value and
    # how many x have it
    best_y = np.full(len(xs), -1)
    best_of_x = np.full(len(xs), -1.0)
    top_y = np.full(len(ys), -1.0)
    ties_y = np.zeros(len(ys), dtype=np.int64)
    for lo in range(0, len(xs), rows):
        hi = min(len(xs), lo + rows)
        # x, y -> pairs with both (bits set in both)
        cooc = np.bitwise_count(words_a[lo:hi, None, :] & words_b[None, :, :]).sum(axis=2)
        dice = (2 * cooc) / (f[lo:hi, None] + g[None, :])
        dice[(cooc < 2) | (dice < 0.5)] = -1.0  # not candidates
        arg = dice.argmax(axis=1)
        top = dice[np.arange(hi - lo), arg]
        unique = (top >= 0) & ((dice == top[:, None]).sum(axis=1) == 1)
        best_y[lo:hi] = np.where(unique, arg, -1)
        best_of_x[lo:hi] = top
        col = dice.max(axis=0)
        count = (dice == col[None, :]).sum(axis=0)
        higher = col > top_y
        same = (col == top_y) & (col >= 0)
        ties_y = np.where(higher, count, np.where(same, ties_y + count, ties_y))
        top_y = np.maximum(top_y, col)
    lexicon: dict[str, frozenset[str]] = {}
    for i, j in enumerate(best_y.tolist()):
        if j >= 0 and ties_y[j] == 1 and top_y[j] == best_of_x[i]:
            lexicon[xs[i]] = frozenset((ys[j],))
    return lexicon


#: Up to this many aligned pairs, `_learn_lexicon` compares dice values exactly (`_mutual_best`).
EXACT_DICE_PAIRS = 20_000


def _pair_sets(pairs: Sequence[tuple[list[str], list[str]]]
               ) -> tuple[dict[str, int], dict[str, int]]:
    """Per side, word -> the pairs that have it (bit k for pair k), in first-seen order."""
    in_a: dict[str, int] = {}
    in_b: dict[str, int] = {}
    for k, (ta, tb) in enumerate(pairs):
        bit = 1 << k
        for x in ta:
            in_a[x] = in_a.get(x, 0) | bit
        for y in tb:
            in_b[y] = in_b.get(y, 0) | bit
    return in_a, in_b


def _first_cooccurrence(pairs: Sequence[tuple[list[str], list[str]]]):
    """A sort key of (x, y, dice) candidates: where x and y first co-occur in `pairs`."""
    in_a, in_b = _pair_sets(pairs)
    positions = [({t: i for i, t in enumerate(ta)}, {t: i for i, t in enumerate(tb)})
                 for ta, tb in pairs]

    def first(candidate: tuple[str, str, float]) -> tuple[int, int, int]:
        x, y, _ = candidate
        both = in_a[x] & in_b[y]
        k = (both & -both).bit_length() - 1  # the first pair with both words
        return k, positions[k][0][x], positions[k][1][y]

    return first
