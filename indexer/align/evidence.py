"""Evidence that two segments are translations of each other, as log-likelihood ratios
that add up: the structural key, the numbers, the Gale–Church length model and the lexical
cue (cognates and the learnt lexicon), weighed by the `Model` of one language pair."""

from __future__ import annotations

import math
import operator
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import reduce
from itertools import compress, repeat
from typing import TYPE_CHECKING, NamedTuple

from indexer.align.segments import Segment, Segments
from indexer.models import Unit

if TYPE_CHECKING:
    from indexer.align.lexicon import _Terms

PRIOR = -1.0  # log-odds of a link before any evidence


@dataclass
class Model:
    """What the aligner knows about one language pair of one treaty."""

    ratio: float = 1.0  # expected length(b) / length(a)
    lexicon: dict[str, frozenset[str]] = field(default_factory=dict)
    df_a: Counter = field(default_factory=Counter)
    df_b: Counter = field(default_factory=Counter)
    n_docs: int = 1
    lex_pos: float = 0.30  # mean lexical similarity of aligned pairs
    lex_neg: float = 0.10  # ... of non-aligned siblings
    lex_var: float = 0.02  # pooled variance of the two
    calibrated: bool = False  # False: too few pairs to measure the above; the cue is damped
    # the segments of the treaty's lists of siblings (shared by the models of its pairs)
    siblings: Segments = field(default_factory=Segments, repr=False, compare=False)
    # side ("a", "b") -> its IDF table and segment profiles (shared by the models of the
    # treaty's pairs with the side's version and `n_docs`: see `pair.VersionSide`)
    sides: dict[str, _SideWeights] = field(
        default_factory=lambda: {"a": _SideWeights(), "b": _SideWeights()}, repr=False,
        compare=False)
    # (a.eids, b.eids) -> `_pieces` of segments a and b, with a, b and the ratio they are for
    _pieces: dict = field(default_factory=dict, repr=False, compare=False)
    # (a.eids, b.eids) -> `_Lexical` of segments a and b
    _lexical: dict = field(default_factory=dict, repr=False, compare=False)

    def segments(self, units: Sequence[Unit], level: str, lang: str
                 ) -> tuple[list[Segment], dict[int, Segment]]:
        """`Segments.of` a list of siblings (not to be changed)."""
        return self.siblings.of(units, level, lang)

    def weights(self, seg: Segment, side: str) -> dict[str, float]:
        """IDF weights of a segment's informative word types (cached per segment)."""
        return self.profile(seg, side).weights

    def profile(self, seg: Segment, side: str) -> _Profile:
        """A segment's weighted word types as `lexical` uses them (cached per segment)."""
        side_weights = self.sides[side]
        got = side_weights.profiles.get(seg.eids)
        if got is None:
            idf = side_weights.idf
            if idf is None:  # the IDF of every type, computed once
                df = self.df_a if side == "a" else self.df_b
                seen = {t: _idf(c, self.n_docs) for t, c in df.items()}
                idf = side_weights.idf = (seen, _idf(0, self.n_docs),  # > 0.3 (n >= 1)
                                          frozenset(t for t, w in seen.items() if w <= 0.3))
            seen, unseen, uninformative = idf
            toks = seg.toks
            # every type with its IDF, then those of IDF 0.3 or less taken out
            weights = dict(zip(toks, map(seen.get, toks, repeat(unseen))))
            for t in uninformative.intersection(toks):
                del weights[t]
            got = side_weights.profiles[seg.eids] = _Profile(weights, seg)
        return got


class _SideWeights:
    """One side of a `Model`: the IDF of every type of its version ((type -> IDF, the IDF of
    an unseen type, the types of IDF 0.3 or less), None until first needed) and the profiles
    of its segments by eIds. They depend on the version's document frequencies and the
    model's `n_docs` only, so the models of the pairs one version takes part in with the same
    `n_docs` share them (see `pair.VersionSide`). So do the terms `_learn_lexicon` takes from the
    version's units (`_lexicon_terms`)."""

    __slots__ = ("idf", "profiles", "terms")

    def __init__(self) -> None:
        self.idf: tuple[dict[str, float], float, frozenset[str]] | None = None
        self.profiles: dict[tuple[str, ...], _Profile] = {}
        self.terms: _Terms | None = None


def _idf(df: int, n: int) -> float:
    """The IDF of a type in `df` of `n` paragraphs."""
    return math.log((n + 1) / (df + 0.5))


class _Profile:
    """One segment's IDF weights, indexed so that `lexical` finds the word types matched on
    the other side by set operations."""

    def __init__(self, weights: dict[str, float], seg: Segment) -> None:
        self.weights = weights
        self.types = set(weights)
        # the cognate prefixes of the segment the weights are of (`Model.profile` keys them by
        # eIds only), 5-letter prefix -> its types (the weighted ones and others)
        self.pref5, self.by_prefix = seg.pref5, seg.by_prefix
        self.total = sum(weights.values())
        self.all_hit = reduce(operator.add, weights.values(), 0.0)  # as `share` adds
        self._lexicon: Mapping[str, frozenset[str]] | None = None
        self._by_translation: dict[str, set[str]] = {}
        self._position: dict[str, int] | None = None  # type -> its place in `weights`

    def by_translation(self, lexicon: Mapping[str, frozenset[str]]) -> dict[str, set[str]]:
        """Lexicon translation -> the types of this segment it translates (redone when the
        model gets a new lexicon)."""
        if self._lexicon is not lexicon:
            inv: defaultdict[str, set[str]] = defaultdict(set)
            for t in filter(lexicon.__contains__, self.weights):  # (most have none)
                for y in lexicon[t]:
                    inv[y].add(t)
            self._lexicon, self._by_translation = lexicon, dict(inv)
        return self._by_translation

    def share(self, hits: set[str]) -> float:
        """The weight of `hits` (some of the types) as a share of the total. The weights are
        added up in the order of `weights`, which fixes the last bits of the float (two
        weights add up the same either way)."""
        weights = self.weights
        if len(hits) <= 2:
            if not hits:
                return 0.0
            hit = 0.0
            for t in hits:
                hit += weights[t]
        elif len(hits) == len(weights):
            hit = self.all_hit
        elif 4 * len(hits) < len(weights):  # a few: put them in order rather than scan
            position = self._position
            if position is None:
                position = self._position = dict(zip(weights, range(len(weights))))
            hit = reduce(operator.add,
                         map(weights.__getitem__, sorted(hits, key=position.__getitem__)), 0.0)
        else:
            hit = reduce(operator.add, compress(weights.values(), map(hits.__contains__, weights)),
                         0.0)
        return hit / self.total


class _Lexical(NamedTuple):
    """What `lexical` found for two segments (cached on the model)."""

    toks_a: frozenset[str]  # the word types of the two segments it is for
    toks_b: frozenset[str]
    lexicon: Mapping[str, frozenset[str]]  # the model's lexicon it is for
    value: float
    # the types of each side found on the other side without the lexicon (None when a side
    # has no weighted type), and the similarity they give
    fwd: set[str] | None
    back: set[str] | None
    plain: float


def lexical(a: Segment, b: Segment, model: Model) -> float:
    """IDF-weighted share of word types with a cognate or lexicon translation on the other
    side (the mean of both directions).

    Cached on the model per pair of segments (by eIds, for the word types they had): the
    calibration and the aligner weigh many of the same pairs, and with a new lexicon only the
    translations are looked up again (the same types and cognates are found as before)."""
    lexicon = model.lexicon
    got = model._lexical.get((a.eids, b.eids))
    if got is None or got.toks_a is not a.toks or got.toks_b is not b.toks:
        got = _lexical_plain(a, b, model)  # (stored with its value below)
    elif got.lexicon is lexicon:
        return got.value
    if not lexicon or got.fwd is None:
        value = got.plain
    else:
        pa, pb = model.sides["a"].profiles[a.eids], model.sides["b"].profiles[b.eids]
        by_translation = pa.by_translation(lexicon)
        translated = by_translation.keys() & b.toks  # b's, translating a's
        if translated:
            # a's types translated in b, b's translations of a's types
            value = (pa.share(got.fwd.union(*map(by_translation.__getitem__, translated)))
                     + pb.share(got.back | pb.types.intersection(translated))) / 2
        else:
            value = got.plain
    # (as got._replace(lexicon=lexicon, value=value), without its keyword machinery)
    model._lexical[a.eids, b.eids] = _Lexical(got.toks_a, got.toks_b, lexicon, value, got.fwd,
                                              got.back, got.plain)
    return value


def _lexical_plain(a: Segment, b: Segment, model: Model) -> _Lexical:
    """`lexical` without the lexicon: the same types and cognates."""
    pa = model.sides["a"].profiles.get(a.eids) or model.profile(a, "a")
    pb = model.sides["b"].profiles.get(b.eids) or model.profile(b, "b")
    if not pa.weights or not pb.weights:
        return _Lexical(a.toks, b.toks, None, 0.0, None, None, 0.0)
    shared = pa.pref5 & b.pref5  # 5-letter prefixes of cognates
    # a's types found in b: the same type or a cognate
    fwd = pa.types & b.toks
    if shared:
        fwd.update(*map(pa.by_prefix.__getitem__, shared))
        fwd &= pa.types
    # b's types found in a
    if pa.pref5 is not a.pref5 or pb.pref5 is not b.pref5:  # profiles of namesakes
        shared = pb.pref5 & a.pref5
    back = pb.types & a.toks
    if shared:
        back.update(*map(pb.by_prefix.__getitem__, shared))
        back &= pb.types
    plain = (pa.share(fwd) + pb.share(back)) / 2
    return _Lexical(a.toks, b.toks, None, plain, fwd, back, plain)


def evidence(a: Segment, b: Segment, model: Model) -> dict[str, float]:
    """The log-likelihood ratio pieces for `a` and `b` being translations of each other."""
    ev = _structural(a, b, model)
    ev["lexicon"] = _lexicon_llr(a, b, model)
    return ev


def _lexicon_limit(model: Model) -> float:
    """The bound of the lexicon piece: |lexicon| <= this."""
    return 3.0 if model.calibrated else 1.0


def _structural(a: Segment, b: Segment, model: Model) -> dict[str, float]:
    """The cheap pieces of `evidence`: numbering key, numbers, length (in that order)."""
    _, number, nums, length = _pieces(a, b, model)[:4]
    ev: dict[str, float] = {}
    if number is not None:
        ev["number"] = number
    if nums is not None:
        ev["numbers"] = nums
    ev["length"] = length
    return ev


_SQRT2 = math.sqrt(2)


def _pieces(a: Segment, b: Segment, model: Model) -> tuple:
    """`_structural` as plain floats: (the sum of the pieces (added in their order, as
    ``sum(ev.values())``), the number and numbers pieces (None when absent), the length piece,
    then a, b and the model's ratio). Cached on the model per pair of segments (by eIds, for
    the segments they are of): the second pass weighs the same beads, and the pieces depend
    on the model's length ratio only (kept with them)."""
    got = model._pieces.get((a.eids, b.eids))
    if got is not None and got[4] is a and got[5] is b and got[6] == model.ratio:
        return got
    number = None
    total = 0.0
    if a.key is not None and b.key is not None:
        number = 3.0 if a.key == b.key else -2.0
        total += number
    elif not a.key_set.isdisjoint(b.key_set):
        number = 1.5
        total += number
    na, nb = a.nums, b.nums
    nums = None
    if na or nb:
        # the size of the multiset intersection (counts are positive)
        matched = sum(min(c, nb[k]) for k, c in na.items() if k in nb) if na and nb else 0
        missing = a.n_nums + b.n_nums - 2 * matched
        nums = 1.2 * min(matched, 3) - 0.6 * min(missing, 4)
        total += nums
    delta = (b.length - a.length * model.ratio) / a.spread
    # the two-sided tail of the standard normal: 2 * (1 - Phi(|delta|))
    p = max(1e-12, 2 * (1 - 0.5 * (1 + math.erf(abs(delta) / _SQRT2))))
    length = max(-2.5, min(1.0, 1.0 + 0.5 * math.log(p)))
    total += length
    got = model._pieces[a.eids, b.eids] = (total, number, nums, length, a, b, model.ratio)
    return got


def _most(a: Segment, b: Segment) -> float:
    """An upper bound of `_pieces`' sum from the keys and the number counts alone: the number
    piece as it is, the numbers piece as if every number of the smaller side were matched,
    and the largest length piece, 1.0 (float sums are monotone, so it bounds the float sum
    too)."""
    total = 0.0
    if a.key is not None and b.key is not None:
        total += 3.0 if a.key == b.key else -2.0
    elif not a.key_set.isdisjoint(b.key_set):
        total += 1.5
    na, nb = a.n_nums, b.n_nums
    if na or nb:  # matched <= min(na, nb), missing >= |na - nb|
        total += 1.2 * min(na, nb, 3) - 0.6 * min(abs(na - nb), 4)
    return total + 1.0


def _lexicon_llr(a: Segment, b: Segment, model: Model) -> float:
    """The lexicon piece of `evidence`: log-likelihood ratio of two normal distributions
    with a shared variance (LDA) of the lexical similarity, within +-`_lexicon_limit`."""
    s = lexical(a, b, model)
    mid = (model.lex_pos + model.lex_neg) / 2
    slope = (model.lex_pos - model.lex_neg) / max(model.lex_var, 1e-4)
    limit = _lexicon_limit(model)
    return max(-limit, min(limit, slope * (s - mid)))


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-max(-40.0, min(40.0, x))))


def _method(ev: dict[str, float], bead: tuple[int, int]) -> str:
    if bead == (1, 1) and ev.get("number", 0) >= 3.0:
        for name in ("numbers", "lexicon", "length"):
            if ev.get(name, 0) > 0.5:
                return f"number+{name}"
        return "number"
    return f"dp-{bead[0]}:{bead[1]}"
