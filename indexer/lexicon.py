"""Word lexicons for OCR repair: word -> Zipf frequency, built once from wordfreq and cached.

A lexicon is built from wordfreq's ``large`` frequency list of a language (wordfreq ships its
data in the package: no network). It keeps alphabetic words down to Zipf 1.0 and is pickled to
``<cache_dir>/lexicon/<lang>-wf<version>-<layout>.pickle`` (``{word: Zipf}``, sorted by word)
the first time it is needed (``<cache_dir>`` is the machine-wide cache of `indexer.cache`);
later runs, of any data directory, read that file. Nothing is loaded at import time.

The symspellpy index used for edit-distance candidates is built lazily, in memory, from the
frequent part of a lexicon only (the candidates a repair may produce).

A process that asks wordfreq about a few words only (`zipf_frequency`) need not load wordfreq's
word lists: plain words are looked up in a `WordTable`, an SQLite file made once in the cache.
"""

from __future__ import annotations

import re
import sqlite3
import string
import threading
import unicodedata
from bisect import bisect_left, bisect_right
from contextlib import closing
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.cache import (
    building,
    machine_cache,
    read_pickle,
    read_sidecar,
    write_atomic,
    write_pickle,
    write_sidecar,
)

if TYPE_CHECKING:  # pragma: no cover
    from symspellpy import SymSpell

#: Lowest Zipf frequency kept in a lexicon (wordfreq's lists stop at 1.0 anyway).
MIN_ZIPF = 1.0
#: Lowest Zipf frequency of a word the edit-distance index may propose.
SYMSPELL_MIN_ZIPF = 3.0
#: Version of the pickled lexicon layout; bump to make new lexicons.
_LEXICON_VERSION = 2
#: Largest edit distance the symspell index supports.
SYMSPELL_DISTANCE = 2
#: symspellpy's prefix length (5 halves the build time at no cost for our lookups).
SYMSPELL_PREFIX = 5
#: Prefix answers kept per lexicon before that memo starts afresh.
PREFIX_MEMO_LIMIT = 500_000
#: Share of the common words that spell with a letter for it to count as a letter of the
#: language (see Lexicon.alphabet).
ALPHABET_SHARE = 0.002

_WORD = re.compile(r"^[^\W\d_]+(?:['’-][^\W\d_]+)*$")
_LOCK = threading.Lock()
_LOADED: dict[tuple[str, str], Lexicon] = {}
_TABLES: dict[tuple[str, str], WordTable | None] = {}


@cache
def _wordfreq_version() -> str:
    try:
        from importlib.metadata import version

        return version("wordfreq")
    except ImportError:  # pragma: no cover - metadata missing in odd installs
        return "unknown"


@dataclass
class Lexicon:
    """Zipf frequencies of the words of one language (lower-cased keys)."""

    lang: str
    zipf: dict[str, float]
    path: Path

    def freq(self, word: str) -> float:
        """Zipf frequency of `word` (case-folded), 0.0 when unknown."""
        return self.zipf.get(word.lower(), 0.0)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self.zipf

    @cached_property
    def folded(self) -> dict[str, float]:
        """The frequency of the commonest word of each spelling without diacritics
        ("ciencia": that of "ciência")."""
        import unicodedata

        out: dict[str, float] = {}
        for word, z in self.zipf.items():
            key = "".join(c for c in unicodedata.normalize("NFD", word) if c.isascii())
            if z > out.get(key, -1.0):
                out[key] = z
        return out

    @cached_property
    def _sorted(self) -> list[str]:
        # the cache file is written in sorted order, and sorting a sorted list is linear
        return sorted(self.zipf)

    @cached_property
    def _prefix_memo(self) -> dict[str, bool]:
        return {}

    @cached_property
    def _at_least(self) -> dict[float, frozenset[str]]:
        return {}

    def at_least(self, zipf: float) -> frozenset[str]:
        """The words (lower case) with a Zipf frequency of `zipf` or more: ``w in
        lex.at_least(z)`` is ``lex.freq(w) >= z`` for a lower-case `w` (made on first use)."""
        got = self._at_least.get(zipf)
        if got is None:
            got = self._at_least[zipf] = frozenset(w for w, z in self.zipf.items() if z >= zipf)
        return got

    @cached_property
    def alphabet(self) -> frozenset[str]:
        """The letters of the language: the ASCII letters and every letter that at least
        ALPHABET_SHARE of its common words (Zipf >= 3) or one of its very common words (Zipf
        >= 5) spells with (``ã`` and ``à`` in Portuguese, ``å`` in Swedish, not ``é`` in
        English)."""
        words = self.at_least(3.0)
        counts: dict[str, int] = {}
        for w in words:
            for ch in set(w):
                if ch.isalpha() and not ch.isascii():
                    counts[ch] = counts.get(ch, 0) + 1
        least = ALPHABET_SHARE * max(1, len(words))
        common = {ch for w in self.at_least(5.0) for ch in w if ch.isalpha()}
        return frozenset(string.ascii_lowercase) | common | {
            ch for ch, k in counts.items() if k >= least}

    @cached_property
    def _ends(self) -> dict[float, tuple[list[str], list[str]]]:
        return {}

    def is_piece(self, part: str, zipf: float) -> bool:
        """Is lower-case `part` a proper prefix or a proper suffix of a word with a Zipf
        frequency of `zipf` or more? (Searched by bisection in the sorted list of those words
        and in that of their reversed spellings, made on first use.)"""
        ends = self._ends.get(zipf)
        if ends is None:
            words = sorted(self.at_least(zipf))
            ends = self._ends[zipf] = (words, sorted(w[::-1] for w in words))
        for words, key in zip(ends, (part, part[::-1])):
            # the words that properly extend `key` follow it (and `key` itself) in sorted order
            i = bisect_right(words, key)
            if i < len(words) and words[i].startswith(key):
                return True
        return False

    def has_prefix(self, prefix: str) -> bool:
        """Does some known word start with `prefix` (lower case)? Lets candidate generation
        abandon a spelling as soon as no word can grow out of it (memoised: the spellings
        explored share their prefixes)."""
        memo = self._prefix_memo
        got = memo.get(prefix)
        if got is None:
            if len(memo) > PREFIX_MEMO_LIMIT:
                memo.clear()
            words = self._sorted
            i = bisect_left(words, prefix)
            got = memo[prefix] = i < len(words) and words[i].startswith(prefix)
        return got

    def continues(self, stem: str, longest: int = 5) -> bool:
        """Is some known word `stem` + at most `longest` more letters (other than `stem`)?"""
        words = self._sorted
        i = bisect_left(words, stem)
        while i < len(words) and words[i].startswith(stem):
            if len(words[i]) - len(stem) <= longest and words[i] != stem:
                return True
            i += 1
        return False

    @cached_property
    def symspell(self) -> SymSpell:
        """A symspellpy index of the words with Zipf >= SYMSPELL_MIN_ZIPF (built lazily, then
        persisted beside the lexicon file and loaded from there)."""
        from symspellpy import SymSpell

        side = self.path.with_name(
            f"{self.path.stem}-symspell-z{int(SYMSPELL_MIN_ZIPF * 10)}-d{SYMSPELL_DISTANCE}"
            f"-p{SYMSPELL_PREFIX}.pickle")
        stored = read_sidecar(side, self.path)
        if isinstance(stored, bytes):
            sym = SymSpell(max_dictionary_edit_distance=SYMSPELL_DISTANCE,
                           prefix_length=SYMSPELL_PREFIX)
            if sym.load_pickle(stored, from_bytes=True):
                return sym
        sym = build_symspell(self.zipf)
        write_sidecar(side, self.path, sym.save_pickle(to_bytes=True))
        return sym


def build_symspell(zipf: dict[str, float]) -> SymSpell:
    """A fresh symspellpy index of the words of `zipf` with Zipf >= SYMSPELL_MIN_ZIPF (count
    10**(zipf - 1))."""
    from symspellpy import SymSpell

    sym = SymSpell(max_dictionary_edit_distance=SYMSPELL_DISTANCE, prefix_length=SYMSPELL_PREFIX)
    for word, z in zipf.items():
        if z >= SYMSPELL_MIN_ZIPF:
            sym.create_dictionary_entry(word, int(10 ** (z - 1)))
    return sym


def _is_word(word: str) -> bool:
    """Letters only, with inner apostrophes or hyphens (faster than a regex over 300k words)."""
    if word.isalpha():
        return True
    return _WORD.match(word) is not None


def build_lexicon(lang: str, min_zipf: float = MIN_ZIPF) -> dict[str, float]:
    """The lexicon of wordfreq language `lang`: ``{word: Zipf}`` in sorted word order, the
    words of its ``large`` list down to `min_zipf`."""
    from wordfreq import get_frequency_list

    # one float object per centi-zipf value (equal to c / 100): a smaller, faster pickle
    table = [c / 100 for c in range(1000)]
    zipf: dict[str, float] = {}
    for i, words in enumerate(get_frequency_list(lang, "large")):
        value = 900 - i  # wordfreq bins are one centibel apart, starting at Zipf 9
        if value < min_zipf * 100:
            break
        for word in words:
            if word not in zipf and _is_word(word):
                zipf[word] = table[value] if 0 <= value < 1000 else value / 100
    return dict(sorted(zipf.items()))


def _read(path: Path) -> dict[str, float] | None:
    """The lexicon pickled in `path`, or None when there is none (or it is unreadable)."""
    zipf = read_pickle(path)
    return zipf if isinstance(zipf, dict) else None


def load_lexicon(
    lang: str, cache_dir: str | Path | None = None, min_zipf: float = MIN_ZIPF
) -> Lexicon:
    """The lexicon of wordfreq language `lang`, built into the cache on first use.

    A `min_zipf` above the default gives a smaller lexicon of the common words only (used to
    recognise words of other languages)."""
    base = Path(cache_dir) if cache_dir is not None else machine_cache()
    suffix = "" if min_zipf == MIN_ZIPF else f"-z{int(min_zipf * 10)}"
    path = base / "lexicon" / f"{lang}-wf{_wordfreq_version()}{suffix}-{_LEXICON_VERSION}.pickle"
    key = (lang + suffix, str(base))
    lex = _LOADED.get(key)
    if lex is not None:
        return lex
    with _LOCK:
        lex = _LOADED.get(key)
        if lex is None:
            zipf = _read(path)
            if zipf is None:
                with building(path):  # one builder per file, across processes too
                    zipf = _read(path)
                    if zipf is None:
                        zipf = build_lexicon(lang, min_zipf)
                        write_pickle(path, zipf)
            lex = Lexicon(lang, zipf, path)
            _LOADED[key] = lex
    return lex


# ---------------------------------------------------------------------------------------------
# Looking up a few words without loading a lexicon

#: Lower-case Latin letters that NFKC (so NFC too) and case folding leave as they are (so not
#: ``ß``, ``ŉ``, ``ĳ``, ``µ``): wordfreq's tokenizer reads a word made of them only as one token,
#: the word itself, in a language written with a plain regex tokenizer (`_plain_tokens`).
_PLAIN = frozenset(
    c for c in map(chr, range(ord("a"), 0x250))
    if unicodedata.category(c) == "Ll" and c.casefold() == c
    and unicodedata.is_normalized("NFKC", c)
)
#: Version of the word table layout; bump to make new tables.
_TABLE_VERSION = 1


class WordTable:
    """wordfreq's Zipf frequencies of the `_PLAIN` words of one language, in an SQLite file in
    the cache (made on first use): opening it reads nothing and a lookup a few pages, where
    wordfreq loads its whole word list of the language (a fifth of a second or more)."""

    def __init__(self, lang: str, db: sqlite3.Connection, path: Path | None = None) -> None:
        self.lang = lang
        self._db: sqlite3.Connection | None = db
        self._path = path
        self._lock = threading.Lock()

    def freq(self, word: str) -> float:
        """``wordfreq.zipf_frequency(word, lang)`` of a `_PLAIN` word: as stored, 0.0 when the
        word is not in wordfreq's list (as wordfreq says of an unknown word). A table found
        damaged (a cache file corrupted on disk) is removed, for the next process to make
        again, and wordfreq answers instead."""
        with self._lock:
            if self._db is not None:
                try:
                    row = self._db.execute("SELECT zipf FROM zipf WHERE word = ?",
                                           (word,)).fetchone()
                    return row[0] if row else 0.0
                except sqlite3.DatabaseError:
                    self._drop()
        from wordfreq import zipf_frequency as wordfreq_zipf

        return wordfreq_zipf(word, self.lang)

    def _drop(self) -> None:
        """Close and remove the damaged table (the cache is only a speed-up)."""
        db, self._db = self._db, None
        if db is not None:
            db.close()
        if self._path is not None:
            try:
                self._path.unlink(missing_ok=True)
            except OSError:
                pass


def _plain_tokens(lang: str) -> bool:
    """Does wordfreq tokenize `lang` with its regex tokenizer and no change of letters besides
    normalisation and case folding (no transliteration, mark removal, Turkish i, cedillas)?"""
    from wordfreq.language_info import get_language_info

    info = get_language_info(lang)
    return (info["tokenizer"] == "regex" and info["transliteration"] is None
            and info["lookup_transliteration"] is None and not info["remove_marks"]
            and not info["dotless_i"] and info["diacritics_under"] is None)


def _write_table(lang: str, side: Path) -> None:
    """Write the word table of `lang` to `side` (atomically; a read-only cache is left alone):
    every `_PLAIN` word of wordfreq's 'best' list with its ``zipf_frequency``, which depends on
    the word's frequency only, so wordfreq is asked once per frequency."""
    from wordfreq import get_frequency_dict, zipf_frequency

    by_freq: dict[float, float] = {}
    rows = []
    for word, freq in get_frequency_dict(lang, "best").items():
        if word and _PLAIN.issuperset(word):
            zipf = by_freq.get(freq)
            if zipf is None:
                zipf = by_freq[freq] = zipf_frequency(word, lang)
            rows.append((word, zipf))
    rows.sort()

    def fill(tmp: Path) -> None:
        with closing(sqlite3.connect(tmp)) as db:
            db.execute("PRAGMA journal_mode = OFF")  # a new file, renamed into place once whole
            db.execute("CREATE TABLE zipf (word TEXT PRIMARY KEY, zipf REAL NOT NULL) WITHOUT ROWID")
            db.executemany("INSERT INTO zipf VALUES (?, ?)", rows)
            db.commit()

    try:
        write_atomic(side, fill)
    except sqlite3.Error:
        pass


def _open_table(side: Path) -> sqlite3.Connection | None:
    """The word table in `side`, opened read-only, or None when there is none."""
    if not side.exists():
        return None
    try:
        return sqlite3.connect(f"{side.resolve().as_uri()}?mode=ro", uri=True,
                               check_same_thread=False)
    except sqlite3.Error:
        return None


def word_table(lang: str, cache_dir: str | Path | None = None) -> WordTable | None:
    """The word table of wordfreq language `lang` (made in the cache on first use), or None
    where wordfreq does not read `_PLAIN` words as they are, or the table cannot be made."""
    base = Path(cache_dir) if cache_dir is not None else machine_cache()
    key = (lang, str(base))
    if key in _TABLES:
        return _TABLES[key]
    with _LOCK:
        if key not in _TABLES:
            side = base / "lexicon" / f"{lang}-wf{_wordfreq_version()}-zipf{_TABLE_VERSION}.sqlite"
            db = _open_table(side)
            if db is None and _plain_tokens(lang):
                with building(side):
                    db = _open_table(side)
                    if db is None:
                        _write_table(lang, side)
                        db = _open_table(side)
            _TABLES[key] = WordTable(lang, db, side) if db is not None else None
    return _TABLES[key]


def zipf_frequency(word: str, lang: str, cache_dir: str | Path | None = None) -> float:
    """``wordfreq.zipf_frequency(word, lang)``, read from the language's `word_table` when
    `word` is made of `_PLAIN` letters (wordfreq then looks up `word` itself in its list); any
    other word is left to wordfreq."""
    if word and _PLAIN.issuperset(word):
        table = word_table(lang, cache_dir)
        if table is not None:
            return table.freq(word)
    from wordfreq import zipf_frequency as wordfreq_zipf

    return wordfreq_zipf(word, lang)


# ---------------------------------------------------------------------------------------------
# Portuguese 1945 orthography (before the 1971 reform): a differential circumflex on the stressed
# closed vowel of many words (impôsto, sôbre, Govêrno, êste). wordfreq's lists know the modern
# spellings; these helpers map an old spelling to the modern one it stands for.

_PT_VOWELS = "aeiouáéíóúâêôãõàü"


def _stressed_nucleus(word: str) -> tuple[int, int] | None:
    """Span of the stressed vowel group of an unaccented Portuguese word (the default stress
    rule: penultimate syllable for words ending in a, e, o (+s), am, em, ens; else the last)."""
    w = word.lower()
    groups = [m.span() for m in re.finditer(f"[{_PT_VOWELS}]+", w)]
    # u after q/g before e/i is not a vowel of its own
    groups = [g for g in groups if not (w[g[0]] == "u" and g[0] > 0 and w[g[0] - 1] in "qg"
                                        and g[1] - g[0] == 1)] or groups
    if not groups:
        return None
    base = w.removesuffix("s")
    penult = base.endswith(("a", "e", "o", "am", "em", "en"))
    if penult and len(groups) >= 2:
        return groups[-2]
    return groups[-1]


def _differential_slot(word: str, i: int) -> bool:
    """Could position `i` of unaccented `word` carry a 1945 differential circumflex? Only the
    stressed vowel of a paroxytone (``imposto``, ``sobre``, ``este``) or of a monosyllable
    (``for``); oxytones such as ``exterior`` never had one."""
    span = _stressed_nucleus(word)
    if span is None or not span[0] <= i < span[1]:
        return False
    groups = re.findall(f"[{_PT_VOWELS}]+", word.lower())
    return len(groups) == 1 or span != _last_group(word)


def _last_group(word: str) -> tuple[int, int] | None:
    found = [m.span() for m in re.finditer(f"[{_PT_VOWELS}]+", word.lower())]
    return found[-1] if found else None


def pt_uncircumflex(word: str) -> str | None:
    """The modern spelling of a 1945 spelling with one differential circumflex (``impôsto`` ->
    ``imposto``), or None when `word` cannot be one (no circumflex, several, or not on the
    stressed vowel of a paroxytone or monosyllable: ``exteriôr`` is no 1945 spelling)."""
    marks = [i for i, c in enumerate(word) if c in "êôÊÔ"]
    if len(marks) != 1:
        return None
    i = marks[0]
    folded = word[:i] + {"ê": "e", "ô": "o", "Ê": "E", "Ô": "O"}[word[i]] + word[i + 1 :]
    return folded if _differential_slot(folded, i) else None
