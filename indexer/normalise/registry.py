"""OCR repair as a registry of named, ordered steps, each of which explains its changes.

In the manner of ftfy's ``fix_and_explain``: :func:`normalise` runs every registered step that
applies to the language, in order, and returns the repaired text with a tuple of
:class:`~indexer.models.Change` (step, before, after, why).

Principles
- A word is only ever replaced by a word the language's lexicon (wordfreq, see
  :mod:`indexer.lexicon`) confirms, reached from the printed token through known OCR confusions
  (a weighted noisy channel, :mod:`indexer.normalise.candidates`). The candidate's frequency is
  the prior, the confusion costs the channel; the best-scoring candidate wins only when it is
  frequent, and the printed token is unknown (or much rarer, for cheap confusions). See
  :mod:`indexer.normalise.letters` and :mod:`indexer.normalise.words`.
- Protected, never changed: numbers and dates, roman-numeral labels (``XVII``, ``Xl``), URLs and
  e-mail addresses, short quoted terms, words another lexicon knows, capitalised words that
  look like names, Swedish compounds whose parts are words, and Chinese (only the Unicode step
  applies, :mod:`indexer.normalise.characters`).
- Speed: what the word steps decide about a token, and which tokens and pieces of text every
  step leaves alone, is learned by the :class:`~indexer.normalise.context.Normaliser` of the
  language the caller passes (:mod:`indexer.normalise.rewrite`, :mod:`indexer.normalise.calm`).
  The steps of one repair share one :class:`~indexer.normalise.scan.Scan` of the text while it
  is unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from ..models import Change, Line
from . import characters, letters, words
from .calm import calm, learn_calm, still, untouched
from .context import Normaliser, shared
from .scan import Scan

#: A step: ``func(scan, normaliser) -> (text, changes)``, the text the one of `scan` when the
#: step leaves it as it is.
StepFunc = Callable[[Scan, Normaliser], tuple[str, list[Change]]]


@dataclass(frozen=True)
class Step:
    """A named normalisation step (see StepFunc)."""

    name: str
    func: StepFunc
    langs: frozenset[str] | None  # None = every language
    doc: str
    word: bool = False  # a word step: acts only on tokens it has not left alone wherever they stand


def _step(name: str, func: StepFunc, langs: tuple[str, ...] | None = None,
          word: bool = False) -> Step:
    return Step(name, func, frozenset(langs) if langs else None, func.__doc__ or "", word)


_LATIN = ("en", "pt", "sv")
#: The steps, in the order they run. The word steps come last (see _Plan).
STEPS: dict[str, Step] = {st.name: st for st in (
    _step("unicode-nfc", characters.unicode_nfc),
    _step("whitespace", characters.whitespace),
    _step("ocr-digits", characters.ocr_digits),
    _step("charset-pt", letters.charset_pt, ("pt",), word=True),
    _step("join-split-words", words.join_split, _LATIN, word=True),
    _step("ocr-letters", letters.ocr_letters, _LATIN, word=True),
    _step("split-glued-words", words.split_glued, ("en", "pt"), word=True),
    _step("spelling", letters.spelling, ("en", "pt"), word=True),
)}


@dataclass(frozen=True)
class DocumentStep:
    """A named step that needs more than one line (see :mod:`indexer.normalise.document`):
    `stage` "version" runs over the lines of one language version before segmentation,
    "treaty" over the aligned units of a treaty's versions after alignment."""

    name: str
    stage: str
    langs: frozenset[str] | None
    func: Callable
    doc: str


def _document_steps() -> dict[str, DocumentStep]:
    from .language import other_language
    from .ngrams import word_context
    from .versions import cross_version
    from .vocabulary import document_vocabulary

    steps = (("other-language", "version", _LATIN, other_language),
             ("document-vocabulary", "version", _LATIN, document_vocabulary),
             ("word-context", "version", _LATIN, word_context),
             ("cross-version", "treaty", _LATIN, cross_version))
    return {name: DocumentStep(name, stage, frozenset(langs), func,
                               (sys.modules[func.__module__].__doc__ or "").split("\n\n")[0])
            for name, stage, langs, func in steps}


@dataclass(frozen=True)
class _Plan:
    """The steps of a language: their functions in order, the index of the first of the word
    steps that end that order, and the names of those."""

    funcs: tuple[StepFunc, ...]
    words: int
    word_names: tuple[str, ...]


@cache
def _plan(lang: str) -> _Plan:
    steps = [st for st in STEPS.values() if st.langs is None or lang in st.langs]
    first = len(steps)
    while first and steps[first - 1].word:
        first -= 1
    return _Plan(tuple(st.func for st in steps), first, tuple(st.name for st in steps[first:]))


# ---------------------------------------------------------------------------------------------
# Public API

#: Passes of the steps over one text at most (a text settles after one or two).
MAX_PASSES = 4


def normalise(
    text: str, lang: str, cache_dir: str | Path | None = None
) -> tuple[str, tuple[Change, ...]]:
    """Repair `text` of language `lang` with the process's Normaliser of `lang`
    (:func:`~indexer.normalise.context.shared`); see :func:`repair`."""
    return repair(text, shared(lang, cache_dir))


def normalise_line(line: Line, normaliser: Normaliser) -> Line:
    """`line` with its ``text`` repaired by `normaliser` (that of ``line.lang``) and
    ``changes`` set (`line` itself when nothing changed: a Line is frozen)."""
    if line.lang != normaliser.lang:
        raise ValueError(f"a line in {line.lang!r} given to the normaliser of "
                         f"{normaliser.lang!r}")
    text, changes = repair(line.text, normaliser)
    if not changes and text == line.text:
        return line
    return replace(line, text=text, changes=line.changes + changes)


def repair(text: str, nz: Normaliser) -> tuple[str, tuple[Change, ...]]:
    """Repair `text` in the language of `nz`; return the new text and the changes made, in
    order.

    The steps run again over a text they changed until it stops changing (a repair can make
    a word that a step before it would repair in turn, e.g. ``wu]`` -> ``wiil`` -> ``will``),
    so normalising a normalised text changes nothing.

    A step is a function of the text alone (what `nz` has learned only saves work), so the
    steps after the last one that acted in a pass (changed the text or reported a change)
    were given that pass's final text and left it as it was: the next pass stops when it
    reaches them with that text still unchanged, as they would leave it unchanged again. So
    too a pass ends after a word step that made a text of still pieces (see calm.still),
    which the word steps after it would leave as it is, and no pass starts over a text no
    step would change (see calm.untouched)."""
    # a pass after the first starts with the scan of the text the last one left
    scan = Scan(text)
    if nz.still and untouched(scan, nz):
        return text, ()
    nz.bound()  # (what the steps learn, they learn in a repair that gets this far)
    plan = _plan(nz.lang)
    changes: list[Change] = []
    settled = len(plan.funcs)  # the steps from this one on left the current text as it is
    for n in range(MAX_PASSES):
        if n and nz.still and untouched(scan, nz):
            break  # every step would leave the text the last pass made as it is
        scan, acted = _one_pass(scan, nz, plan, settled, changes)
        if acted is None:
            break  # no step reported a change
        settled = acted + 1
    return scan.text, tuple(changes)


def _one_pass(scan: Scan, nz: Normaliser, plan: _Plan, settled: int, changes: list[Change]
              ) -> tuple[Scan, int | None]:
    """One pass of the steps of `plan` over the text of `scan`, from the first to the step
    `settled` (those from it on left the text as it is in the pass before: they are not run
    unless a step before them acts), adding the changes made to `changes`. Returns the scan
    of the text made and the index of the last step that acted (changed the text or
    reported a change), or None when no step reported a change. Learns the calm tokens of
    the text the word steps were given, when they ran."""
    made_any = False
    acted = -1
    judged = None  # the runs of the text the word steps were given, when they ran
    for i, func in enumerate(plan.funcs):
        if i == settled and acted < 0:
            break  # the text is the one these steps left as it was in the pass before
        if i == plan.words:
            if calm(scan, nz):
                break  # the word steps (the last ones) would all leave the text as it is
            judged = scan.runs
        new, made = func(scan, nz)
        if new is not scan.text:
            if made or new != scan.text:
                acted = i
            scan = Scan(new)
        elif made:
            acted = i
        if made:
            changes.extend(made)
            made_any = True
        if acted == i >= plan.words and still(scan, nz):
            break  # the word steps after this one would leave the new text as it is
    if judged is not None:
        learn_calm(judged, nz, plan.word_names)
    return scan, acted if made_any else None


#: The steps that need more than one line, in the order they run (after the line steps).
DOCUMENT_STEPS: dict[str, DocumentStep] = _document_steps()
