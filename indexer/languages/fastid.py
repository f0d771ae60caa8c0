"""py3langid's `rank` (with normalised probabilities) of many texts at once, vectorised with
numpy: the same best language and probability, bit for bit, as the identifier's own `rank`
(`tests/test_languages.py` compares the whole rankings on every block of the real texts), and
about 7 times quicker: over an ingest of the bundled corpus, corpus-extra and corpus-wild
(7.2 MB), identification takes 0.7-0.85 s of CPU a pass this way against 5.4-6.1 s by
`rank` text by text: 16 % of the ingest against 57-59 % (`scripts/measure_fastid.py`).

What it reads of py3langid is public: the attributes of its identifiers (the automaton
`tk_nextmove`, `tk_row` and `tk_output`, the model `nb_ptc`, `nb_pc` and `nb_classes`) and
its `visit_counts`; the layout of the automaton is the one `py3langid.modelio` describes
(`nextmove` holds rows of 256 moves, `tk_row` is the row of each state). What it restates is
how `rank` scores a text: all-uppercase text lower-cased, NFC, UTF-8 (as py3langid documents);
the naive Bayes sum of log(1 + count) of each feature times its model row, plus the prior;
divided by the square root of the text's bytes, softmax, and a label's second column folded
into its first. It is used only for the automaton it was proved on and only if it ranks a
probe as `rank` does (`automaton()`); otherwise documents are ranked by `rank` itself
(`model.PublicRanks`).

py3langid counts byte n-gram features by walking an automaton over the UTF-8 bytes, one Python
step per byte. The automaton of the model it ships is 6-definite: the state after any byte
depends only on the last 6 bytes read (`context_bytes` proves it from the tables), so every
position's state is found with vectorised steps, each position starting from state 0 six bytes
back. Texts are walked joined by a separator byte that sends every state back to state 0 and
is no feature (0xFF, which UTF-8 never holds): a walk that starts in the text before, or in
the separators put before the first text, is where py3langid's walk of the text alone would
be. The shortcut is only taken for the automaton it was proved on (its checksum, the
separator checked too).
"""

from __future__ import annotations

import math
import unicodedata
import zlib
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

import numpy as np

from indexer.languages import model

CONTEXT = 6
_CONTEXT_CRC = 0xEC09D053
_SEPARATOR = 0xFF


class Automaton:
    """py3langid's feature automaton (of one identifier) as numpy arrays."""

    def __init__(self, identifier: Any) -> None:
        self.tables = (identifier.tk_nextmove, [row << 8 for row in identifier.tk_row],
                       identifier.tk_output)  # as `visit_counts` takes them
        self.nextmove = np.asarray(identifier.tk_nextmove)
        self.rowbase = np.asarray(identifier.tk_row, dtype=np.int64) << 8
        self.output = np.asarray(identifier.tk_output, dtype=np.int64)
        self.features = int(self.output.max()) + 1

    def checksum(self) -> int:
        crc = 0
        for table in (self.nextmove, self.rowbase, self.output):
            crc = zlib.crc32(table.tobytes(), crc)
        return crc

    def resets(self, byte: int) -> bool:
        """Does `byte` send every state to state 0, which outputs no feature?"""
        return bool((self.nextmove[self.rowbase + byte] == 0).all() and self.output[0] < 0)

    def prepare(self) -> None:
        """The tables of the vectorised walk, int32: the row base of the state after any two
        bytes read from state 0, by their 16-bit big-endian value, and of the state after
        any step (`nextmove`'s index), so that the steps before the last go from row base to
        row base with one lookup each."""
        rows32 = self.rowbase.astype(np.int32)
        byte = np.arange(256, dtype=np.int64)
        after1 = self.nextmove[self.rowbase[0] + byte].astype(np.int64)
        pairs = self.nextmove[(self.rowbase[after1][:, None] + byte).ravel()]
        self.pair_rows = rows32[pairs]
        self.next_rows = rows32[self.nextmove]
        self.feature_bits = (self.features - 1).bit_length()


def context_bytes(automaton: Automaton, limit: int = 16) -> int | None:
    """The least k such that the state after any k bytes does not depend on the state before
    them (the automaton is k-definite), or None if not within `limit`. Takes some seconds: it
    follows every pair (any state, state 0) through every byte until all pairs have merged."""
    nextmove, rowbase = automaton.nextmove.astype(np.int64), automaton.rowbase
    n = len(rowbase)
    byte = np.arange(256, dtype=np.int64)
    pairs = np.arange(n, dtype=np.int64) * n  # (q, 0) for every state q
    for k in range(1, limit + 1):
        p, q = np.divmod(pairs, n)
        p = nextmove[(rowbase[p][:, None] + byte).ravel()]
        q = nextmove[(rowbase[q][:, None] + byte).ravel()]
        pairs = np.unique(p[p != q] * n + q[p != q])  # merged pairs stay merged
        if not len(pairs):
            return k
    return None


class Features:
    """One text's py3langid features: encoded length, feature ids (in order of first
    occurrence, as py3langid counts them) and log(1 + count) of each."""

    __slots__ = ("ids", "size", "weights")

    def __init__(self, size: int, ids: np.ndarray, weights: np.ndarray) -> None:
        self.size = size
        self.ids = ids  # intp
        self.weights = weights  # float32: log(1 + count)


def encode(text: str) -> bytes:
    """The bytes py3langid reads of `text`: lower-cased if all uppercase, NFC, UTF-8 (a lone
    surrogate passed through)."""
    if text.isupper():
        text = text.lower()
    return unicodedata.normalize("NFC", text).encode("utf8", errors="surrogatepass")


#: Below this many bytes in all, py3langid's own walk is quicker than the vectorised one.
_VECTOR_BYTES = 1000
#: Texts are walked in batches of at most this many bytes and texts (or one text), to bound
#: memory (and the bits of the sort keys).
_BATCH_BYTES = 1 << 20
_BATCH_TEXTS = 1 << 16


def count_features(automaton: Automaton, texts: Sequence[str]) -> list[Features]:
    """The features of each of `texts`: by py3langid's `visit_counts`, text by text, when they
    are few, else by `walk` over batches of them."""
    encoded = [encode(text) for text in texts]
    if sum(map(len, encoded)) < _VECTOR_BYTES:
        return [_visit(automaton, data) for data in encoded]
    out: list[Features] = []
    lo = 0
    while lo < len(encoded):
        hi, size = lo + 1, len(encoded[lo])
        while (hi < len(encoded) and hi - lo < _BATCH_TEXTS
               and size + len(encoded[hi]) <= _BATCH_BYTES):
            size += len(encoded[hi])
            hi += 1
        out += walk(automaton, encoded[lo:hi])
        lo = hi
    return out


def _visit(automaton: Automaton, data: bytes) -> Features:
    """The features of `data` counted by py3langid's own walk."""
    from py3langid.langid import visit_counts

    visits = visit_counts(*automaton.tables, data) or {}
    return Features(len(data), np.fromiter(visits, np.intp, len(visits)),
                    np.log1p(np.fromiter(visits.values(), np.float32, len(visits))))


def walk(automaton: Automaton, encoded: Sequence[bytes]) -> list[Features]:
    """The features of each of `encoded` (texts as `encode` makes them), counted in one
    vectorised pass over all their bytes: what `visit_counts` counts of each text alone."""
    state, text_of = _states(automaton, encoded)
    found = automaton.output[state]
    hit = found >= 0
    shift = automaton.feature_bits
    keys = (text_of[hit] << shift) | found[hit]  # (text, feature) of every hit, in text order
    keys, counts = _count_keys(keys)
    bounds = np.searchsorted(keys >> shift, np.arange(len(encoded) + 1)).tolist()
    # log1p of float32 is element-wise: the same values as taken text by text, or looked up
    # in a table of log1p of every count
    weights = np.log1p(np.arange(counts.max(initial=0) + 1, dtype=np.float32))[counts]
    ids = (keys & ((1 << shift) - 1)).astype(np.intp, copy=False)
    return [
        Features(len(data), ids[lo:hi], weights[lo:hi])
        for data, lo, hi in zip(encoded, bounds[:-1], bounds[1:])
    ]


def _states(automaton: Automaton, encoded: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The automaton's state after each byte of `encoded` joined by separators (one after
    each text), and the index of the text each byte is in (a separator counts with the text
    before it)."""
    # the separators before each text: CONTEXT - 1 before the first, one between texts
    separator = bytes([_SEPARATOR])
    data = np.frombuffer(separator * (CONTEXT - 1) + separator.join(encoded), dtype=np.uint8)
    n = len(data) - (CONTEXT - 1)  # positions whose state is wanted: data[CONTEXT - 1:]
    # the state after byte i (of those) is the walk from state 0 over the bytes i - 5 ... i:
    # the first two looked up together, then one step per byte (row base to row base but for
    # the last)
    data = data.astype(np.int32)  # (the sums below of one type: no casts on the way)
    row = automaton.pair_rows[(data[:n] << 8) | data[1 : n + 1]]
    for back in range(CONTEXT - 3, 0, -1):
        row = automaton.next_rows[row + data[CONTEXT - 1 - back : len(data) - back]]
    state = automaton.nextmove[row + data[CONTEXT - 1 :]]
    sizes = [len(text) for text in encoded]
    text_of = np.repeat(np.arange(len(encoded)), np.add(sizes, 1))[:n]
    return state, text_of


def _count_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct `keys`, in order of first occurrence, and how often each occurs."""
    # Sorted as key and position side by side in one int64 (distinct values: no stable sort
    # needed; at most 16 + 17 + 20 bits for a batch of texts), each key's run of hits starts
    # with its first one.
    hits = len(keys)
    low = hits.bit_length()
    ordered = np.sort((keys << low) | np.arange(hits))
    starts = np.flatnonzero(np.diff(ordered >> low, prepend=-1))  # (none when no hits)
    first = ordered[starts] & ((1 << low) - 1)
    counts = np.zeros(hits, dtype=np.int64)
    counts[first] = np.diff(np.append(starts, hits))
    is_first = counts > 0
    return keys[is_first], counts[is_first]


class Scorer:
    """py3langid's scores (with normalised probabilities) of one restricted identifier, for
    texts whose features are counted."""

    def __init__(self, identifier: Any) -> None:
        self.classes = list(identifier.nb_classes)
        # float16 -> float32 is exact: the product py3langid computes after the same cast
        self.table = np.ascontiguousarray(identifier.nb_ptc, dtype=np.float32)
        self.prior = np.asarray(identifier.nb_pc)
        first: dict[str, int] = {}
        for column, lang in enumerate(self.classes):
            first.setdefault(lang, column)
        self.firsts = np.array(list(first.values()), dtype=np.intp)
        # a label's later columns (a script's alias), folded into its first
        self.aliases = [(first[lang], column) for column, lang in enumerate(self.classes)
                        if first[lang] != column]

    def scores(self, texts: Sequence[Features]) -> np.ndarray:
        """The probability of each class (column) for each of `texts` (rows), a label's later
        columns folded into its first. Each text's product of weights and model rows is
        computed alone, as for one text (a float32 sum's rounding depends on how the product
        is laid out); the rest, element by element or row by row, for all texts at once."""
        scores = np.zeros((len(texts), len(self.classes)), dtype=np.float32)
        found = [i for i, features in enumerate(texts) if len(features.ids)]
        if found:
            rows = self.table[np.concatenate([texts[i].ids for i in found])]
            lo = 0
            for i in found:
                features = texts[i]
                hi = lo + len(features.ids)
                np.dot(features.weights, rows[lo:hi], out=scores[i])
                lo = hi
            scores[found] += self.prior  # (a text without features has no prior)
        # the reciprocal square root, as the float32 py3langid multiplies by
        scores *= np.array([1.0 / math.sqrt(features.size or 1) for features in texts],
                           dtype=np.float32)[:, None]
        np.exp(scores - np.maximum.reduce(scores, axis=1, keepdims=True), out=scores)
        scores /= np.add.reduce(scores, axis=1, keepdims=True)
        for i, j in self.aliases:
            scores[:, i] += scores[:, j]
            scores[:, j] = 0.0
        return scores

    def tops(self, texts: Sequence[Features]) -> list[tuple[str, float]]:
        """The first of `rank` of each of `texts`: the most probable label (the first in
        model order on a tie: `rank` sorts stably) and its probability."""
        if not texts:
            return []
        scores = self.scores(texts)
        # each label's first column holds the folded score; the first maximum wins
        best = self.firsts[np.argmax(scores[:, self.firsts], axis=1)]
        return [(self.classes[j], score)
                for j, score in zip(best.tolist(), scores[np.arange(len(texts)), best].tolist())]


@lru_cache(maxsize=32)
def scorer(candidates: frozenset[str]) -> Scorer:
    """The scorer of the identifier restricted to `candidates`."""
    return Scorer(model.identifier(candidates))


#: Texts are scored together in batches of at most this many.
_RANK_BATCH = 2048


class FastRanks:
    """One document's rankings (`model.PublicRanks`' `top`, vectorised): features by text,
    and the best language by text and set of candidates (the features of a text are counted
    once for all sets)."""

    def __init__(self, automaton: Automaton) -> None:
        self.automaton = automaton
        self.features: dict[str, Features] = {}
        self.tops: dict[tuple[str, frozenset[str]], tuple[str, float]] = {}

    def count(self, texts: Sequence[str]) -> None:
        """Count the features of those of `texts` not counted yet, in one pass."""
        new = [text for text in dict.fromkeys(texts) if text not in self.features]
        if new:
            self.features.update(zip(new, count_features(self.automaton, new)))

    def rank(self, texts: Sequence[str], candidates: Sequence[str]) -> None:
        """Find the best language among `candidates` of those of `texts` not ranked yet,
        scored together (`Scorer.tops`)."""
        key = frozenset(candidates)
        new = [text for text in dict.fromkeys(texts) if (text, key) not in self.tops]
        if new:
            self.count(new)
            found = scorer(key)
            for lo in range(0, len(new), _RANK_BATCH):  # bounded temporary arrays
                batch = new[lo : lo + _RANK_BATCH]
                tops = found.tops([self.features[text] for text in batch])
                self.tops.update(zip([(text, key) for text in batch], tops))

    def top(self, text: str, candidates: Sequence[str]) -> tuple[str, float]:
        """py3langid's best language for `text` among `candidates`, with its probability."""
        found = self.tops.get((text, frozenset(candidates)))
        if found is None:
            self.rank([text], candidates)
            found = self.tops[(text, frozenset(candidates))]
        return found


#: Texts `automaton()` ranks both ways before it takes the vectorised path, and the
#: candidates it ranks them among: upper case, decomposed accents, an alias-free mix.
_PROBE = (
    "The competent authorities of the Contracting States shall endeavour to resolve it.",
    "ARTIGO 10 - Os dividendos pagos por uma sociedade residente de um Estado Contratante",
    "Avtal mellan Sverige och Brasilien fo\u0308r att undvika dubbelbeskattning",
    "Das Abkommen gilt fu\u0308r Personen, die in einem Vertragsstaat ansa\u0308ssig sind.",
    "1965.",
)
_PROBE_CANDIDATES = frozenset({"en", "pt", "sv", "de", "nl"})


@cache
def automaton() -> Automaton | None:
    """The vectorised automaton of the shipped model, or None (rank with `rank` itself) when
    the model is not the one the walk was proved on or the scores differ from `rank`'s."""
    made = Automaton(model.identifier())
    if made.checksum() != _CONTEXT_CRC or not made.resets(_SEPARATOR):
        return None
    made.prepare()
    found = scorer(_PROBE_CANDIDATES).tops(walk(made, [encode(text) for text in _PROBE]))
    public = model.identifier(_PROBE_CANDIDATES)
    if found != [tuple(public.rank(text)[0]) for text in _PROBE]:
        return None
    return made
