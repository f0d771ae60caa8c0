"""One language pair of a treaty: calibration of the model, a first pass down to paragraphs,
the lexicon learnt from it, and the second pass in full, level by level."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cached_property

from indexer.align.cues import TextCues
from indexer.align.dp import Bead, align_sequences
from indexer.align.evidence import Model, _SideWeights, lexical
from indexer.align.lexicon import _learn_lexicon
from indexer.align.results import ALIGNED_KINDS, UNMATCHED, Link, Unmatched
from indexer.align.segments import Segment, Segments, _all_units, _children, _top
from indexer.models import Unit, Version

_NEXT = {"article": ("paragraph", "paragraph"), "paragraph": ("point", "point"),
         "point": ("point", "point")}


def _align_level(units_a: Sequence[Unit], units_b: Sequence[Unit], level: str,
                 lang_a: str, lang_b: str, model: Model, out_links: list[Link],
                 out_unmatched: list[Unmatched], deepest: str = "point") -> None:
    """Align two lists of siblings of `level` and, below every 1-1 bead, their children,
    down to the level `deepest` ("paragraph": no points)."""
    if not units_a and not units_b:
        return
    seg_a, merged_a = model.segments(units_a, level, lang_a)
    seg_b, merged_b = model.segments(units_b, level, lang_b)
    for bead in align_sequences(seg_a, seg_b, merged_a, merged_b, model):
        if bead.method == UNMATCHED:
            out_unmatched.extend(_unmatched(bead, units_a, units_b, level, lang_a, lang_b))
            continue
        for i in bead.a:
            for j in bead.b:
                out_links.append(Link(units_a[i].eid, lang_a, units_b[j].eid, lang_b, level,
                                      round(bead.score, 4), bead.method, bead.pieces))
        if len(bead.a) == 1 and len(bead.b) == 1 and level != deepest:
            ca, cb, child_level = _below(units_a[bead.a[0]], units_b[bead.b[0]], level)
            _align_level(ca, cb, child_level, lang_a, lang_b, model, out_links, out_unmatched,
                         deepest)


def _unmatched(bead: Bead, units_a: Sequence[Unit], units_b: Sequence[Unit], level: str,
               lang_a: str, lang_b: str) -> list[Unmatched]:
    """The units of a bead with no counterpart (a 1-0 or 0-1 bead)."""
    return [*(Unmatched(units_a[i].eid, lang_a, lang_b, level,
                        f"no counterpart in the {lang_b} version") for i in bead.a),
            *(Unmatched(units_b[j].eid, lang_b, lang_a, level,
                        f"no counterpart in the {lang_a} version") for j in bead.b)]


def _below(ua: Unit, ub: Unit, level: str) -> tuple[list[Unit], list[Unit], str]:
    """The lists of children of two linked units of `level` to align next, and their
    level."""
    child_kind, child_level = _NEXT[level]
    ca, cb = _children(ua, child_kind), _children(ub, child_kind)
    if level == "article" and bool(ca) != bool(cb):
        # one version splits the article into paragraphs, the other does not: the unsplit
        # article stands as its one paragraph
        ca, cb = ca or [ua], cb or [ub]
    return ca, cb, child_level


def _df(version: Version, cues: TextCues) -> tuple[Counter, int]:
    """The document frequency of every word type of a version's paragraphs (articles without
    paragraphs count as one), and how many paragraphs there are (at least 1)."""
    df: Counter = Counter()
    n = 0
    for u in _all_units(_top(version)):
        if u.kind == "paragraph" or (u.kind in ALIGNED_KINDS and not u.children):
            df.update(cues.unit_cues(u, version.lang).toks)
            n += 1
    return df, max(n, 1)


class VersionSide:
    """What the pairs of one treaty share about one of its versions: its document frequencies
    (`df`, computed when first needed) and, per `n_docs` of a pair's model, its side of the
    model (IDF, profiles and lexicon terms: `_SideWeights`)."""

    def __init__(self, version: Version, cues: TextCues) -> None:
        self.version = version
        self._cues = cues
        self._weights: dict[int, _SideWeights] = {}  # n_docs -> the side of the model

    @cached_property
    def df(self) -> tuple[Counter, int]:
        """`_df` of the version."""
        return _df(self.version, self._cues)

    def weights(self, n_docs: int) -> _SideWeights:
        got = self._weights.get(n_docs)
        if got is None:
            got = self._weights[n_docs] = _SideWeights()
        return got


def _calibration_pairs(va: Version, vb: Version, model: Model
                       ) -> tuple[float | None, list[tuple[Segment, Segment]],
                                  list[tuple[Segment, Segment]]]:
    """What `_calibrate` measures on: the median length ratio of the articles the numbering
    pairs (None without any long enough), the segments of their paragraph pairs, and those
    pairs shifted by one (non-aligned siblings). The segments are those the aligner weighs
    (`Model.segments` of each list of paragraphs): `lexical` uses their word types only."""
    by_eid = {u.eid: u for u in _top(vb)}
    pairs: list[tuple[Segment, Segment]] = []
    shifted: list[tuple[Segment, Segment]] = []
    ratios: list[float] = []
    for ua in _top(va):
        ub = by_eid.get(ua.eid)
        if ub is None:
            continue
        la, lb = len(ua.text), len(ub.text)
        if la > 50 and lb > 50:
            ratios.append(lb / la)
        pa, pb = _children(ua, "paragraph"), _children(ub, "paragraph")
        if len(pa) == len(pb) and pa:
            sa = model.segments(pa, "paragraph", va.lang)[0]
            sb = model.segments(pb, "paragraph", vb.lang)[0]
            pairs.extend(zip(sa, sb))
            if len(pa) > 1:
                shifted.extend(zip(sa, sb[1:] + sb[:1]))
    ratio = None
    if ratios:
        ratios.sort()
        ratio = ratios[len(ratios) // 2]
    return ratio, pairs, shifted


def _calibrate(va: Version, vb: Version, model: Model, measured: tuple | None = None) -> None:
    """Length ratio and lexical similarity levels from the pairs the numbering proposes
    (`measured`: the `_calibration_pairs` of the versions, when the caller has them)."""
    ratio, pairs, shifted = measured or _calibration_pairs(va, vb, model)
    if ratio is not None:
        model.ratio = ratio
    if len(pairs) >= 5 and len(shifted) >= 3:
        pos = [lexical(a, b, model) for a, b in pairs]
        neg = [lexical(a, b, model) for a, b in shifted]
        mp, mn = sum(pos) / len(pos), sum(neg) / len(neg)
        var = (sum((x - mp) ** 2 for x in pos) + sum((x - mn) ** 2 for x in neg)) / (
            len(pos) + len(neg))
        if mp > mn + 0.03:
            model.lex_pos, model.lex_neg, model.lex_var = mp, mn, max(var, 0.002)
            model.calibrated = True


def align_pair(va: Version, vb: Version) -> tuple[list[Link], list[Unmatched], Model]:
    """Align two language versions (`align_sides` of a treaty of these two)."""
    memo = Segments()
    return align_sides(VersionSide(va, memo.cues), VersionSide(vb, memo.cues), memo)


def pair_model(sa: VersionSide, sb: VersionSide, memo: Segments) -> Model:
    """A new model of the pair of versions of `sa` and `sb`, uncalibrated, with the segments
    of the treaty (`memo`) and the sides of the model its pairs share."""
    (df_a, n_a), (df_b, n_b) = sa.df, sb.df
    n_docs = max(n_a, n_b)
    return Model(df_a=df_a, df_b=df_b, n_docs=n_docs, siblings=memo,
                 sides={"a": sa.weights(n_docs), "b": sb.weights(n_docs)})


def align_sides(sa: VersionSide, sb: VersionSide, memo: Segments
                ) -> tuple[list[Link], list[Unmatched], Model]:
    """Align two language versions of a treaty: a first pass with cognates only, down to
    paragraphs, then a second, in full, with the lexicon learnt from the first's paragraph
    links (with cognates only again when none is learnt). `memo` holds the segments of the
    treaty, and `sa` and `sb` what its pairs share about the versions."""
    va, vb = sa.version, sb.version
    model = pair_model(sa, sb, memo)
    measured = _calibration_pairs(va, vb, model)  # the same for both passes
    _calibrate(va, vb, model, measured)
    # the lexicon is learnt from paragraph links only: the first pass stops there
    links: list[Link] = []
    _align_level(_top(va), _top(vb), "article", va.lang, vb.lang, model, links, [],
                 "paragraph")
    _learn_lexicon(va, vb, links, model)
    if model.lexicon:
        _calibrate(va, vb, model, measured)
    # without a lexicon, the first pass in full (the same model: an empty lexicon weighs as
    # none, and the calibration is the first one)
    links, unmatched = [], []
    _align_level(_top(va), _top(vb), "article", va.lang, vb.lang, model, links, unmatched)
    return links, unmatched, model
