"""Letters and scripts: how many letters a text has, and whether it is written in Han (Chinese),
kana (Japanese) or Hangul (Korean), which decide its language without a model."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import numpy as np

#: The languages decided by script.
CJK: tuple[str, ...] = ("zh", "ja", "ko")

#: The blocks of the scripts `script` counts, first and last code point of each, by the
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
_ANY = _char_class([block for blocks in _SCRIPT_BLOCKS.values() for block in blocks])


def script(text: str, letters: int | None = None) -> str:
    """ "zh", "ja" or "ko" when the text is written in that script, else ""."""
    if letters is None:
        letters = count_letters(text)
    if not letters or text.isascii() or not _ANY.search(text):
        return ""
    return _script_of(len(_HAN.findall(text)), len(_KANA.findall(text)),
                      len(_HANGUL.findall(text)), letters)


def _script_of(han: int, kana: int, hangul: int, letters: int) -> str:
    """`script` of a text with `letters` letters (not 0) of which `han`, `kana` and `hangul`
    (not all 0) are in those scripts."""
    if han + kana + hangul < 0.3 * letters:
        return ""
    if kana >= 0.1 * (han + kana):
        return "ja"
    if hangul > han:
        return "ko"
    return "zh"


def count_letters(text: str) -> int:
    """The letters (`str.isalpha`) of `text`."""
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
    for first, last, number in sorted((first, last, number)
                                      for number, blocks in _SCRIPT_BLOCKS.items()
                                      for first, last in blocks):
        bounds += [first, last + 1]
        scripts += [number, 0]
    return np.array(bounds), np.array(scripts, dtype=np.intp)


_SCRIPT_BOUNDS, _SCRIPT_OF_BOUND = _script_bounds()


def letters_and_scripts(texts: Sequence[str]) -> tuple[list[int], list[str]]:
    """`count_letters` and `script` of each of `texts` (one document's lines), in one
    vectorised pass over their code points: `str.isalpha` of the Basic Multilingual Plane
    looked up in a table, of the few characters beyond it asked one by one; the Han, kana and
    Hangul characters of each text counted from the positions of those few at or above
    U+3040."""
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
        _fill_scripts(codes, ends, letters, scripts)
    return letters, scripts


def _fill_scripts(codes: np.ndarray, ends: np.ndarray, letters: Sequence[int],
                  scripts: list[str]) -> None:
    """Set `scripts[i]` for each text (ending at `ends[i]` in `codes`) written in a script."""
    high = np.flatnonzero(codes >= _SCRIPT_BOUNDS[0])
    kind = _SCRIPT_OF_BOUND[np.searchsorted(_SCRIPT_BOUNDS, codes[high], side="right")]
    found = kind > 0
    if not found.any():
        return
    line = np.searchsorted(ends, high[found], side="right")
    counts = np.bincount(line * 3 + (kind[found] - 1), minlength=3 * len(scripts))
    counts = counts.reshape(-1, 3)
    for i in np.flatnonzero(counts.any(axis=1)).tolist():
        if letters[i]:
            han, kana, hangul = counts[i].tolist()
            scripts[i] = _script_of(han, kana, hangul, letters[i])


@cache
def _alpha_table() -> np.ndarray:
    """`str.isalpha` of every code point of the Basic Multilingual Plane."""
    return np.array([chr(code).isalpha() for code in range(0x10000)], dtype=bool)
