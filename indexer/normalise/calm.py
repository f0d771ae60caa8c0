"""What every step leaves alone: the calm tokens and still pieces a Normaliser learns, and the
tests that pass a text over with them.

The tokens a word step leaves alone wherever they stand are its quiet set (see
:func:`~indexer.normalise.rewrite.rewrite`); those every word step of the language leaves
alone are calm (:func:`learn_calm`), so a text made of them only costs one set operation for
all the word steps (:func:`calm`). The pieces between blanks of such texts that ocr-digits
cannot act on either are still (:func:`learn_still`), so a text made of them skips ocr-digits
and the word steps after one ``str.split`` (:func:`still`), and one in NFC with single spaces
skips every step (:func:`untouched`).
"""

from __future__ import annotations

import unicodedata

from .context import Normaliser
from .scan import HYPHEN_BREAK, LIGATURE_MARKS, MIXED_DIGITS, RUN, TOKEN_JUNK, Scan


def calm(scan: Scan, nz: Normaliser) -> bool:
    """Would every word step leave the text as it is, whatever its memos hold? So when each
    run of word characters is calm (join-split-words finds no rare piece), each token it may
    have is calm (a rewrite step finds them all quiet: see Scan.loose) and no hyphen break
    gives join-split-words a pair without a rare piece. (So too when every piece between
    blanks is still.)"""
    if still(scan, nz):
        return True
    if (not scan.loose(nz.calm) and HYPHEN_BREAK.search(scan.text) is None
            and (TOKEN_JUNK.isdisjoint(scan.marks)  # the tokens are then the runs
                 or nz.calm.issuperset(scan.runs))):
        learn_still(scan, nz)
        return True
    return False


def still(scan: Scan, nz: Normaliser) -> bool:
    """Is every piece of the text between blanks one of the still pieces (:func:`learn_still`)?
    Then ocr-digits and every word step leave it as it is: one split and one set operation
    instead of the scans for runs of word characters, numbers and hyphen breaks."""
    return scan.stilled(nz.still)[0]


def untouched(scan: Scan, nz: Normaliser) -> bool:
    """Would every step leave the text as it is? So for a text of still pieces (no step from
    ocr-digits on changes it, and no still piece holds a Latin ligature) joined by single
    spaces (nothing for the whitespace step) in NFC: one split, one set operation and one join
    instead of a pass over the steps. (Only a language whose still pieces are learned, one
    with word steps after unicode-nfc, whitespace and ocr-digits, has any.)"""
    is_still, pieces = scan.stilled(nz.still)
    text = scan.text
    return (is_still and " ".join(pieces) == text
            and (text.isascii() or unicodedata.is_normalized("NFC", text)))


def learn_still(scan: Scan, nz: Normaliser) -> None:
    """Add to the still pieces those between the blanks of a calm text (:func:`calm`: its runs
    of word characters calm, and every token it may have) that ocr-digits cannot act on and
    that cannot end a hyphen break. What those look at never reaches over a blank: a number to
    repair (a digit beside ``l``, ``I`` or ``O``) lies inside one piece, a paragraph's ``l`` is
    a run of word characters (so of one piece), and a hyphen break's hyphen ends a piece. Runs
    of word characters and tokens never cross a blank either (a piece has the same ones
    wherever it stands, but for whether a ``]`` at a token's end closes a bracket:
    Scan.loose counts both), so a text made of still pieces has calm runs and tokens only, no
    hyphen break and nothing for ocr-digits: whatever the memos hold, no step from ocr-digits
    on changes it. (A piece with a Latin ligature is not kept, so that a text of still pieces
    in NFC is one the Unicode step leaves as it is: see untouched.)"""
    pieces = nz.still
    for piece in set(scan.stilled(pieces)[1]).difference(pieces):
        if (piece[-1] != "-" and MIXED_DIGITS.search(piece) is None
                and "l" not in RUN.findall(piece) and LIGATURE_MARKS.isdisjoint(piece)):
            pieces.add(piece)


def learn_calm(runs: list[str], nz: Normaliser, names: tuple[str, ...]) -> None:
    """Add to the calm tokens those of `runs` that every word step `names` now leaves alone
    wherever they stand (join-split-words: the runs of `common`; the others: their quiet
    tokens)."""
    new = set(runs).difference(nz.calm)
    for name in names:
        left = nz.common if name == "join-split-words" else nz.quiet.get(name)
        if left is None:  # a step that has not run yet
            return
        new.intersection_update(left)
    nz.calm.update(new)
