"""Stage `languages`: the language of each block, and one reading-order stream per language.

Chinese (and other CJK scripts) is decided by script. Latin text is identified with
py3langid (restricted to the candidate languages on a private identifier, loaded lazily),
helped by lexical cues (article keywords, function words) for short strings; py3langid was
chosen over langdetect by `scripts/measure_langid.py`. Headings and labels take the language
of the text they open; paragraphs broken by a page or column of another language are joined
back together in their own stream.
"""

from __future__ import annotations

import copy
import math
import re
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np

from indexer.clean import ends_sentence, is_heading, join_lines, starts_item
from indexer.models import Line, copy_with

#: Languages the corpus is built for; Latin text is identified among these by default.
PRIMARY: tuple[str, ...] = ("en", "pt", "sv")
#: Other languages recognised (and kept apart) when a text clearly is one of them.
OTHERS: tuple[str, ...] = ("nl", "es", "da", "no", "de", "fr")

#: The blocks of the scripts `_script` counts, first and last code point of each, by the
#: script's number: 1 Han (CJK Extension A, Unified and Compatibility Ideographs), 2 kana,
#: 3 Hangul.
_SCRIPT_BLOCKS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0x3400, 0x9FFF), (0xF900, 0xFAFF)),
    2: ((0x3040, 0x30FF),),
    3: ((0xAC00, 0xD7AF),),
}


def _char_class(blocks: Sequence[tuple[int, int]]) -> re.Pattern[str]:
    """A regex of one character in any of `blocks`."""
    return re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in blocks) + "]")


_HAN = _char_class(_SCRIPT_BLOCKS[1])
_KANA = _char_class(_SCRIPT_BLOCKS[2])
_HANGUL = _char_class(_SCRIPT_BLOCKS[3])
_CJK = _char_class([block for blocks in _SCRIPT_BLOCKS.values() for block in blocks])  # any
_WORD = re.compile(r"[^\W\d_]+")

# Words that are strong evidence on their own (article headings and the like).
_CUES: dict[str, frozenset[str]] = {
    "sv": frozenset({"artikel", "avtal", "avtalet", "skatt", "och", "skall", "att", "för"}),
    "en": frozenset({"article", "agreement", "convention", "the", "and", "shall", "of"}),
    "pt": frozenset({"artigo", "acordo", "convenção", "impôsto", "imposto", "não", "os", "das"}),
    "nl": frozenset({"artikel", "verdrag", "het", "een", "van", "zijn", "wordt"}),
    "es": frozenset({"artículo", "convenio", "el", "los", "del", "por", "las"}),
    "da": frozenset({"artikel", "aftale", "og", "af", "til", "ikke", "skal"}),
    "no": frozenset({"artikkel", "avtale", "og", "av", "til", "ikke", "skal"}),
    "de": frozenset({"artikel", "abkommen", "der", "die", "und", "des", "nicht"}),
    "fr": frozenset({"article", "convention", "le", "les", "des", "et", "est"}),
}


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Function words per language, for scoring very short strings.
_STOP: dict[str, frozenset[str]] = {
    "sv": _wordset(
        "och i att det som en på är av för med till den har de inte om ett han men var "
        "skall skola må äro från vid denna detta dock eller icke sådan sådana efter under "
        "enligt vilka vilken hemvist staten avtalsslutande beträffande"
    ),
    "en": _wordset(
        "the of and to in a is that for it as was with be by on not he this are or at "
        "from which shall may such any other state states income tax where"
    ),
    "pt": _wordset(
        "de a o que e do da em um para é com não uma os no se na por mais as dos como "
        "ao das à seu sua ou ser quando sobre ser serå seräo näo déste pelo pela"
    ),
    "nl": _wordset("de het een van en in is dat op te zijn voor met die niet aan er"),
    "es": _wordset("el la de que y en los del se las por un para con no una su al es"),
    "da": _wordset("og i at det er en til på af med for den ikke som de der har skal"),
    "no": _wordset("og i det er en til på av med for den ikke som de har skal ble"),
    "de": _wordset("der die und in den von zu das mit sich des auf für ist im dem nicht"),
    "fr": _wordset("le la de et les des en du un une est que pour dans par sur au"),
}
# Texts at least this long (in letters) are identified on their own; shorter ones are
# scored by cues and, as headings and labels, take the language of the text they open.
_LONG = 25
# An "other" language must win by this probability over the primary ones.
_OTHER_PROB = 0.95


@lru_cache(maxsize=1)
def _base_identifier() -> Any:
    """py3langid's shipped model, as `LanguageIdentifier.from_model_file` loads it."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    path = Path(MODEL_FILE)
    if not path.is_absolute():
        path = MODEL_DIR / path
    ptc, pc, classes, nextmove, row, output = _model(path)
    return LanguageIdentifier(np.asarray(ptc), np.asarray(pc), classes, nextmove, output,
                              norm_probs=True, tk_row=row)


def _model(path: Path) -> tuple[Any, ...]:
    """py3langid's `load_model` of `path`, kept unpacked in a pickled sidecar in the data
    directory (beside the lexicons: `lexicon.default_cache_dir()`). The model ships
    LZMA-compressed, and unpacking its ~70 MB costs every process over half a second; the
    sidecar loads in a tenth of that and is remade when the model file changes."""
    from py3langid.modelio import load_model

    from indexer.lexicon import default_cache_dir, read_sidecar, write_sidecar

    side = default_cache_dir() / "langid" / f"{path.name}.pickle"
    model = read_sidecar(side, path)
    if isinstance(model, tuple) and len(model) == 6:
        return model
    model = tuple(load_model(path))
    try:
        side.parent.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only data directory: no sidecar
        return model
    write_sidecar(side, path, model)
    return model


@lru_cache(maxsize=32)
def _identifier(candidates: tuple[str, ...]) -> Any:
    """A private py3langid identifier restricted to `candidates` (never the global one).

    A shallow copy of one loaded model: `set_languages` only rebinds the copy's attributes.
    """
    identifier = copy.copy(_base_identifier())
    known = set(identifier._full_model[2])
    identifier.set_languages([c for c in candidates if c in known])
    return identifier


# py3langid counts byte n-gram features by walking an automaton over the UTF-8 bytes, one
# Python step per byte. The automaton of the model it ships is 6-definite: the state after any
# byte depends only on the last 6 bytes read (`_context_bytes` proves it from the tables), so
# every position's state is found with vectorised steps, each position starting from state 0
# six bytes back. Texts are walked joined by a separator byte that sends every state back to
# state 0 and is no feature (0xFF, which UTF-8 never holds): a walk that starts in the text
# before, or in the separators put before the first text, is where py3langid's walk of the
# text alone would be. The shortcut is only taken for the automaton it was proved on (its
# checksum, the separator checked too); any other model is walked by py3langid itself.
_CONTEXT = 6
_CONTEXT_CRC = 0xEC09D053
_SEPARATOR = 0xFF


class _Automaton:
    """py3langid's feature automaton as numpy arrays."""

    def __init__(self, identifier: Any) -> None:
        self.nextmove = np.asarray(identifier.tk_nextmove)
        self.rowbase = np.asarray(identifier._rowbase, dtype=np.int64)
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


@lru_cache(maxsize=1)
def _automaton() -> _Automaton | None:
    """The vectorised automaton, or None when the model is not the one `_CONTEXT` holds for."""
    automaton = _Automaton(_base_identifier())
    if automaton.checksum() != _CONTEXT_CRC or not automaton.resets(_SEPARATOR):
        return None
    automaton.prepare()
    return automaton


def _context_bytes(automaton: _Automaton, limit: int = 16) -> int | None:
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


class _Features:
    """One text's py3langid features: encoded length, feature ids (in order of first
    occurrence, as py3langid counts them) and log(1 + count) of each."""

    __slots__ = ("ids", "size", "weights")

    def __init__(self, size: int, ids: np.ndarray, weights: np.ndarray) -> None:
        self.size = size
        self.ids = ids  # intp
        self.weights = weights  # float32: log(1 + count)

    @classmethod
    def of_counts(cls, size: int, ids: np.ndarray, counts: np.ndarray) -> _Features:
        return cls(size, ids.astype(np.intp, copy=False), np.log1p(counts.astype(np.float32)))


#: Below this many bytes in all, py3langid's own walk is quicker than the vectorised one.
_VECTOR_BYTES = 1000
#: Texts are counted in batches of at most this many bytes and texts (or one text), to bound
#: memory (and the bits of the sort keys).
_CHUNK_BYTES = 1 << 20
_CHUNK_TEXTS = 1 << 16


def _count_features(texts: Sequence[str]) -> list[_Features]:
    """The features of each of `texts`, counted in vectorised passes over all their bytes, up
    to `_CHUNK_BYTES` at a time (by py3langid's own walk, text by text, when they are few or
    `_CONTEXT` does not hold for the model)."""
    from py3langid.langid import LanguageIdentifier, visit_counts

    encoded = [LanguageIdentifier._encode(text) for text in texts]
    sizes = [len(data) for data in encoded]
    automaton = _automaton()
    if automaton is None or sum(sizes) < _VECTOR_BYTES:
        identifier = _base_identifier()
        out = []
        for data in encoded:
            visits = visit_counts(identifier.tk_nextmove, identifier._rowbase,
                                  identifier.tk_output, data) or {}
            out.append(_Features.of_counts(len(data), np.fromiter(visits, np.intp, len(visits)),
                                 np.fromiter(visits.values(), np.float32, len(visits))))
        return out
    if (sum(sizes) > _CHUNK_BYTES or len(encoded) > _CHUNK_TEXTS) and len(encoded) > 1:
        half = len(texts) // 2
        return _count_features(texts[:half]) + _count_features(texts[half:])
    # the separators before each text: _CONTEXT - 1 before the first, one between texts
    separator = bytes([_SEPARATOR])
    data = np.frombuffer(separator * (_CONTEXT - 1) + separator.join(encoded), dtype=np.uint8)
    n = len(data) - (_CONTEXT - 1)  # positions whose state is wanted: data[_CONTEXT - 1:]
    # the state after byte i (of those) is the walk from state 0 over the bytes i - 5 ... i:
    # the first two looked up together, then one step per byte (row base to row base but for
    # the last)
    data = data.astype(np.int32)  # (the sums below of one type: no casts on the way)
    row = automaton.pair_rows[(data[:n] << 8) | data[1 : n + 1]]
    for back in range(_CONTEXT - 3, 0, -1):
        row = automaton.next_rows[row + data[_CONTEXT - 1 - back : len(data) - back]]
    state = automaton.nextmove[row + data[_CONTEXT - 1 :]]
    # the text of each position (a separator, which outputs nothing, counts with the one before)
    text_of = np.repeat(np.arange(len(encoded)), np.add(sizes, 1))[:n]
    found = automaton.output[state]
    hit = found >= 0
    shift = automaton.feature_bits
    keys = (text_of[hit] << shift) | found[hit]  # (text, feature) of every hit, in text order
    # count equal keys; the first of each, in order, gives py3langid's order of features.
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
    keys, counts = keys[is_first], counts[is_first]
    bounds = np.searchsorted(keys >> shift, np.arange(len(encoded) + 1)).tolist()
    # log1p of float32 is element-wise: the same values as taken text by text, or looked up
    # in a table of log1p of every count
    weights = np.log1p(np.arange(counts.max(initial=0) + 1, dtype=np.float32))[counts]
    ids = (keys & ((1 << shift) - 1)).astype(np.intp, copy=False)
    return [
        _Features(size, ids[lo:hi], weights[lo:hi])
        for size, lo, hi in zip(sizes, bounds[:-1], bounds[1:])
    ]


#: Texts are scored together in batches of at most this many.
_RANK_BATCH = 2048


class _Memo:
    """One document's py3langid work: features by text, best languages by text and
    candidate set."""

    def __init__(self) -> None:
        self.features: dict[str, _Features] = {}
        self.tops: dict[tuple[str, frozenset[str]], tuple[str, float]] = {}

    def count(self, texts: Sequence[str]) -> None:
        """Count the features of those of `texts` not counted yet, in one pass."""
        new = [text for text in dict.fromkeys(texts) if text not in self.features]
        if new:
            self.features.update(zip(new, _count_features(new)))

    def rank(self, texts: Sequence[str], candidates: tuple[str, ...]) -> None:
        """Find the best language among `candidates` of those of `texts` not ranked yet,
        scored together (`_Scorer.tops`)."""
        key = _candidate_set(tuple(candidates))
        new = [text for text in dict.fromkeys(texts) if (text, key) not in self.tops]
        if new:
            self.count(new)
            scorer = _scorer(candidates)
            for lo in range(0, len(new), _RANK_BATCH):  # bounded temporary arrays
                batch = new[lo : lo + _RANK_BATCH]
                found = scorer.tops([self.features[text] for text in batch])
                self.tops.update(zip([(text, key) for text in batch], found))


class _Scorer:
    """py3langid's scoring (`_decide` and `rank`, with normalised probabilities) for one
    restricted identifier, of a text whose features are counted."""

    def __init__(self, identifier: Any) -> None:
        self.classes = list(identifier.nb_classes)
        # float16 -> float32 is exact: the product py3langid computes after the same cast
        self.table = np.ascontiguousarray(identifier.nb_ptc, dtype=np.float32)
        self.prior = identifier.nb_pc
        self.aliases = list(identifier._alias_pairs)
        first: dict[str, int] = {}
        for column, lang in enumerate(self.classes):
            first.setdefault(lang, column)
        self.firsts = np.array(list(first.values()), dtype=np.intp)

    def top(self, features: _Features) -> tuple[str, float]:
        """The first of py3langid's `rank`: the most probable label (the first in model
        order on a tie: `rank` sorts stably) and its probability."""
        return self.tops([features])[0]

    def tops(self, texts: Sequence[_Features]) -> list[tuple[str, float]]:
        """`top` of each of `texts`. Each text's product of weights and model rows is
        computed alone, as for one text (a float32 sum's rounding depends on how the product
        is laid out); the rest, element by element or row by row, for all texts at once."""
        if not texts:
            return []
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
        for i, j in self.aliases:  # a label's second column folded into its first
            scores[:, i] += scores[:, j]
            scores[:, j] = 0.0
        # each label's first column holds the folded score; the first maximum wins
        best = self.firsts[np.argmax(scores[:, self.firsts], axis=1)]
        return [(self.classes[j], score)
                for j, score in zip(best.tolist(), scores[np.arange(len(texts)), best].tolist())]


@lru_cache(maxsize=32)
def _scorer(candidates: tuple[str, ...]) -> _Scorer:
    return _Scorer(_identifier(candidates))


def _top(text: str, candidates: tuple[str, ...], memo: _Memo | None = None
         ) -> tuple[str, float]:
    """py3langid's best language for `text` among `candidates`, with its probability. It
    depends on the set of candidates only (`set_languages` keeps the model's class order),
    so `memo` is keyed by the set; the text's features are counted once for all sets."""
    if memo is None:
        memo = _Memo()
    key = (text, _candidate_set(candidates))
    found = memo.tops.get(key)
    if found is not None:
        return found
    features = memo.features.get(text)
    if features is None:
        memo.count([text])
        features = memo.features[text]
    found = memo.tops[key] = _scorer(candidates).top(features)
    return found


@lru_cache(maxsize=64)
def _candidate_set(candidates: tuple[str, ...]) -> frozenset[str]:
    """The set `_Memo.tops` is keyed by (made once per tuple of candidates)."""
    return frozenset(candidates)


def _script(text: str, letters: int | None = None) -> str:
    """ "zh", "ja" or "ko" when the text is written in that script, else ""."""
    if letters is None:
        letters = _letters(text)
    if not letters or text.isascii() or not _CJK.search(text):
        return ""
    return _script_of(len(_HAN.findall(text)), len(_KANA.findall(text)),
                      len(_HANGUL.findall(text)), letters)


def _script_of(han: int, kana: int, hangul: int, letters: int) -> str:
    """`_script` of a text with `letters` letters (not 0) of which `han`, `kana` and `hangul`
    (not all 0) are in those scripts."""
    if han + kana + hangul < 0.3 * letters:
        return ""
    if kana >= 0.1 * (han + kana):
        return "ja"
    if hangul > han:
        return "ko"
    return "zh"


def _letters(text: str) -> int:
    if text.isascii():
        return len(text.translate(_ASCII_NON_LETTERS))
    return sum(map(str.isalpha, text))


#: Deletes every ASCII character that is not a letter (`str.isalpha`).
_ASCII_NON_LETTERS = {code: None for code in range(128) if not chr(code).isalpha()}


def _script_bounds() -> tuple[np.ndarray, np.ndarray]:
    """`_SCRIPT_BLOCKS` as sorted bounds (each block's first code point and the one after its
    last), and the script number (0 for none) of the code points from each bound on: a code
    point's index among the bounds (`np.searchsorted(..., side="right")`) picks its script."""
    bounds, scripts = [], [0]
    for first, last, script in sorted((first, last, script)
                                      for script, blocks in _SCRIPT_BLOCKS.items()
                                      for first, last in blocks):
        bounds += [first, last + 1]
        scripts += [script, 0]
    return np.array(bounds), np.array(scripts, dtype=np.intp)


_SCRIPT_BOUNDS, _SCRIPT_OF_BOUND = _script_bounds()


def _letters_and_scripts(texts: Sequence[str]) -> tuple[list[int], list[str]]:
    """`_letters` and `_script` of each of `texts` (one document's lines), in one vectorised
    pass over their code points: `str.isalpha` of the Basic Multilingual Plane looked up in a
    table, of the few characters beyond it asked one by one; the Han, kana and Hangul
    characters of each text counted from the positions of those few at or above U+3040."""
    joined = "".join(texts)
    sizes = np.array([len(text) for text in texts], dtype=np.int64)
    ends = np.cumsum(sizes)
    if joined.isascii():
        codes = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
        alpha = _alpha_table()[codes]
    else:  # (surrogatepass: a lone surrogate, no letter, is counted as the table says)
        codes = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        astral = codes > 0xFFFF
        if astral.any():
            alpha = _alpha_table()[np.where(astral, 0, codes)]
            alpha[astral] = [chr(code).isalpha() for code in codes[astral].tolist()]
        else:
            alpha = _alpha_table()[codes]
    totals = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(alpha, out=totals[1:])
    letters = (totals[ends] - totals[ends - sizes]).tolist()
    scripts = [""] * len(texts)
    if codes.dtype == np.uint32:
        high = np.flatnonzero(codes >= _SCRIPT_BOUNDS[0])
        kind = _SCRIPT_OF_BOUND[np.searchsorted(_SCRIPT_BOUNDS, codes[high], side="right")]
        found = kind > 0
        if found.any():
            line = np.searchsorted(ends, high[found], side="right")
            counts = np.bincount(line * 3 + (kind[found] - 1), minlength=3 * len(texts))
            counts = counts.reshape(-1, 3)
            for i in np.flatnonzero(counts.any(axis=1)).tolist():
                if letters[i]:
                    han, kana, hangul = counts[i].tolist()
                    scripts[i] = _script_of(han, kana, hangul, letters[i])
    return letters, scripts


@lru_cache(maxsize=1)
def _alpha_table() -> np.ndarray:
    """`str.isalpha` of every code point of the Basic Multilingual Plane."""
    return np.array([chr(code).isalpha() for code in range(0x10000)], dtype=bool)


def cue_scores(text: str, candidates: Sequence[str]) -> Counter[str]:
    """Lexical score per candidate: strong cue words count 2, function words 1."""
    scores: Counter[str] = Counter()
    weights = _cue_weights(tuple(candidates))
    for word in _WORD.findall(text.lower()):
        for lang, weight in weights.get(word, ()):
            scores[lang] += weight
    return scores


@lru_cache(maxsize=32)
def _cue_weights(candidates: tuple[str, ...]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Word -> (candidate, 2 for a cue word or 1 for a function word), in candidate order."""
    weights: dict[str, list[tuple[str, int]]] = {}
    for lang in candidates:
        cues, stop = _CUES.get(lang, frozenset()), _STOP.get(lang, frozenset())
        for word in cues | stop:
            weights.setdefault(word, []).append((lang, 2 if word in cues else 1))
    return {word: tuple(pairs) for word, pairs in weights.items()}


def _cue_language(text: str, candidates: Sequence[str]) -> str:
    """The single best-scoring candidate by cues, or "" on a tie or no evidence."""
    ranked = cue_scores(text, candidates).most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return ""
    return ranked[0][0]


def detect(text: str, candidates: Sequence[str] | None = None) -> str:
    """ISO 639-1 code of `text`'s language ("" when it has no letters).

    With no `candidates`, Latin text is identified among en/pt/sv, or labelled with another
    language (nl, es, da, no, de, fr) when it clearly is one of those.
    """
    return _detect(text, candidates, _letters(text))


def _latin(candidates: Sequence[str] | None) -> tuple[str, ...]:
    """The Latin-script candidates (en/pt/sv when none are given)."""
    return _latin_of(tuple(candidates) if candidates else PRIMARY)


@lru_cache(maxsize=64)
def _latin_of(candidates: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c for c in candidates if c not in ("zh", "ja", "ko"))


def _detect(text: str, candidates: Sequence[str] | None, letters: int,
            script: str | None = None, memo: _Memo | None = None,
            latin: tuple[str, ...] | None = None) -> str:
    """`detect` with the text's letter count (and script, and `_latin(candidates)`) known."""
    if script is None:
        script = _script(text, letters)
    if script:
        return script
    if not letters:
        return ""
    if latin is None:
        latin = _latin(candidates)
    if not latin:
        return ""
    if len(latin) == 1:
        return latin[0]
    if letters < _LONG:
        cue = _cue_language(text, latin)
        if cue:
            return cue
    best = _top(text, latin, memo)[0]
    if candidates is None and letters >= 2 * _LONG:
        top, prob = _top(text, PRIMARY + OTHERS, memo)
        if top in OTHERS and prob >= _OTHER_PROB:
            scores = cue_scores(text, (top, best))
            if scores[top] >= scores[best]:
                return top
    return best


# --- streams --------------------------------------------------------------------------------


def _document_languages(
    letter_counts: Sequence[int], labels: dict[int, str], candidates: Sequence[str] | None
) -> list[str]:
    """Languages with a real share of the text (>= 5 % of the identified letters, or a run of
    three or more consecutive paragraphs with 800+ letters): quoted foreign tax names or a stray misdetection do not
    make a version of their own."""
    counts = Counter(labels.values())
    letters = Counter(dict.fromkeys(counts, 0))  # (the same order of languages as counts)
    for i, lang in labels.items():
        letters[lang] += letter_counts[i]
    total = sum(letters.values())
    runs: Counter[str] = Counter()  # letters in the longest run of consecutive lines
    for lang, run in groupby(sorted(labels.items()), key=itemgetter(1)):
        sizes = [letter_counts[i] for i, _ in run]
        if len(sizes) >= 3:
            runs[lang] = max(runs[lang], sum(sizes))
    keep = [
        lang
        for lang, n in letters.most_common()
        if lang in ("zh", "ja", "ko")
        or (n >= 0.05 * total and counts[lang] >= 2)
        or runs[lang] >= 800
    ]
    if not keep and letters:
        keep = [letters.most_common(1)[0][0]]
    if candidates:
        keep = [lang for lang in keep if lang in candidates] or list(candidates)
    return keep


def _label_long(lines: Sequence[Line], candidates: Sequence[str] | None,
                letters: Sequence[int], scripts: Sequence[str]) -> dict[int, str]:
    """Labels of the lines long enough to identify on their own."""
    memo = _Memo()
    long_ = [i for i in range(len(lines)) if letters[i] >= _LONG or scripts[i]]
    sure = [i for i in long_ if letters[i] >= 2 * _LONG] or long_
    given = _latin(candidates)
    if len(given) > 1:  # the lines `_detect` will rank, ranked together
        # (counted in one pass with the other long lines, which are ranked again below among
        # the text's own languages when it has several)
        memo.count([lines[i].text for i in long_ if not scripts[i]])
        memo.rank([lines[i].text for i in sure if not scripts[i]], given)
        if candidates is None:
            memo.rank([lines[i].text for i in sure if letters[i] >= 2 * _LONG
                       and not scripts[i]], PRIMARY + OTHERS)
    first = {i: _detect(lines[i].text, candidates, letters[i], scripts[i], memo, given)
             for i in sure}
    langs = _document_languages(letters, {i: v for i, v in first.items() if v}, candidates)
    latin = tuple(lang for lang in langs if lang not in ("zh", "ja", "ko")) or PRIMARY
    labels: dict[int, str] = {}
    again: list[int] = []
    for i in long_:
        lang = scripts[i] or first.get(i, "")
        foreign = lang and lang not in langs and lang not in PRIMARY
        labels[i] = lang
        if not scripts[i] and not (foreign and letters[i] >= 4 * _LONG):
            again.append(i)
    if len(latin) > 1:
        memo.rank([lines[i].text for i in again], latin)
    own = _latin(latin)
    for i in again:  # among the text's own languages
        labels[i] = _detect(lines[i].text, latin, letters[i], scripts[i], memo, own)
    return labels


def _label_short(lines: Sequence[Line], labels: dict[int, str], langs: Sequence[str],
                 letters: Sequence[int]) -> None:
    """Give every short line (heading, label, name, fragment) a language, in place."""
    latin = [lang for lang in langs if lang not in ("zh", "ja", "ko")] or list(PRIMARY)
    default = Counter(labels.values()).most_common(1)[0][0] if labels else (latin[0])
    n = len(lines)
    next_long: list[int | None] = [None] * (n + 1)
    for i in range(n - 1, -1, -1):
        next_long[i] = i if i in labels else next_long[i + 1]
    prev_long: int | None = None
    item_since = False  # does a line after `prev_long` (before this one) start an item?
    for i, line in enumerate(lines):
        if i in labels:
            prev_long = i
            item_since = False
            continue
        text = line.text
        cue = _cue_language(text, latin) if letters[i] else ""
        structural = starts_item(text)  # (a heading starts an item)
        same_block_prev = i > 0 and lines[i - 1].block == line.block and (i - 1) in labels
        ahead = next_long[i + 1]
        introduced = (
            prev_long is not None
            and not item_since
            and not structural  # no line in (prev_long, i] starts an item
            and lines[prev_long].page == line.page
            and ends_sentence(lines[prev_long].text)
            and lines[prev_long].text.rstrip().endswith(":")
        )
        item_since = item_since or structural
        if same_block_prev and not structural:
            lang = labels[i - 1]
        elif introduced and not structural:
            lang = labels[prev_long]  # names under "For the Government of ...:"
        elif ahead is not None:
            lang = labels[ahead]  # a heading takes the language of the text it opens
            if cue and cue != lang and is_heading(text):
                lang = cue  # ... unless its own keyword says otherwise (column end)
        elif prev_long is not None:
            lang = labels[prev_long]
        else:
            lang = cue or default
        labels[i] = lang


def _with_lang(line: Line, lang: str) -> Line:
    """`replace(line, lang=lang)`, made fast (one per line; see `models.copy_with`)."""
    return copy_with(line, lang=lang)


def _title(line: Line) -> bool:
    """A short capitalised line on its own ("Agreement", "Avtal"): a heading, not a fragment."""
    words = line.text.split()
    return "\n" not in line.raw and len(words) <= 3 and line.text[:1].isupper()


def _continues(prev: Line, line: Line, streams_gap: bool) -> bool:
    """Is `line` the continuation of paragraph `prev` across a page or column break?"""
    # (every condition must hold: the cheapest are tested first)
    if not (streams_gap or (line.start > prev.end + 1 and ("\n" in prev.raw or "\n" in line.raw))):
        return False
    if not line.text[:1].islower():
        return False
    if ends_sentence(prev.text) or is_heading(prev.text) or _title(prev):
        return False
    return not starts_item(line.text, prev.text)


def split(
    lines: Sequence[Line], candidates: Sequence[str] | None = None
) -> dict[str, tuple[Line, ...]]:
    """One reading-order stream of lines per language, ordered by first appearance.

    Every input line ends up in exactly one stream with `lang` set; a paragraph interrupted by
    another language's page or column is joined into one Line (its start/end span the gap).
    """
    letters, scripts = _letters_and_scripts([line.text for line in lines])
    labels = _label_long(lines, candidates, letters, scripts)
    langs = _document_languages(letters, labels, candidates)
    _label_short(lines, labels, langs, letters)
    order: dict[str, list[tuple[int, Line]]] = {}
    for i, line in enumerate(lines):
        lang = labels[i] or (langs[0] if langs else "")
        order.setdefault(lang, []).append((i, _with_lang(line, lang)))
    out: dict[str, tuple[Line, ...]] = {}
    for lang, items in order.items():
        stream: list[Line] = []
        last_index = -2
        for index, line in items:
            if stream:
                prev = stream[-1]
                interrupted = index > last_index + 1 or line.page != prev.page
                if _continues(prev, line, interrupted):
                    stream[-1] = replace(
                        prev,
                        text=join_lines(prev.text, line.text),
                        raw=f"{prev.raw}\n{line.raw}",
                        end=line.end,
                    )
                    last_index = index
                    continue
            stream.append(line)
            last_index = index
        out[lang] = tuple(stream)
    return out
