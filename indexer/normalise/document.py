"""The repair steps that need more than one line: evidence from the whole language version
(its vocabulary, the other languages of the document) and, after alignment, from the other
versions (:mod:`indexer.normalise.versions`).

They run after the line steps of the registry, on what those made, and add their changes to
the lines' (step, before, after, why: the why names the evidence). A token the line steps
protect stays protected here too, except where the evidence is the document itself: a quoted
term the same version spells otherwise many times (“emprésa” beside 40 × emprêsa) is a slip.

Whether a version was printed and read back (OCR) or typed decides how far a token may be
read as another word: the share of its words the line steps had to repair is the prior
(see :func:`noisy`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..models import Change, Line
from .context import Normaliser
from .distance import WORD
from .orthography import System, consistent, estimate

#: The steps that change no word (the Unicode form, blanks): not repairs a reader would
#: count, nor printed words anyone looks for.
LAYOUT_STEPS = frozenset({"unicode-nfc", "whitespace"})
#: A version in which the line steps repaired at least this share of the words is a print
#: read by OCR (the 1965 print: 2-3 %; typed treaties: under 0.05 %).
NOISY_SHARE = 0.004


@dataclass(frozen=True)
class Fix:
    """Replace ``text[start:end]`` of a line with `after`, explained by `change`."""

    start: int
    end: int
    after: str
    change: Change


def tokens(lines: Iterable[Line]) -> Iterable[tuple[int, int, int, str]]:
    """(line index, start, end, token) of every word token of `lines` (see distance.WORD)."""
    for k, line in enumerate(lines):
        for m in WORD.finditer(line.text):
            yield k, m.start(), m.end(), m.group()


def noisy(lines: Sequence[Line]) -> bool:
    """Did the line steps repair at least NOISY_SHARE of the words of `lines`?"""
    words = sum(len(WORD.findall(x.text)) for x in lines)
    repaired = sum(1 for x in lines for ch in x.changes if ch.before != ch.after
                   and ch.step not in LAYOUT_STEPS)
    return words > 0 and repaired >= NOISY_SHARE * words


def apply(lines: Sequence[Line], fixes: dict[int, list[Fix]]) -> list[Line]:
    """`lines` with the fixes of each line made (right to left) and their changes added."""
    out = list(lines)
    for k, items in fixes.items():
        line = out[k]
        text = line.text
        for fx in sorted(items, key=lambda f: f.start, reverse=True):
            text = text[:fx.start] + fx.after + text[fx.end:]
        made = tuple(fx.change for fx in sorted(items, key=lambda f: f.start))
        out[k] = replace(line, text=text, changes=line.changes + made)
    return out


def repair_version(lines: Sequence[Line], nz: Normaliser,
                   others: Sequence[Normaliser] = (), is_noisy: bool | None = None,
                   doubted: frozenset[str] = frozenset()) -> list[Line]:
    """The document steps over the lines of one language version (already through the line
    steps), `nz` the normaliser of its language and `others` those of the other languages
    of the document, in the registry's order (DOCUMENT_STEPS of stage "version").
    `is_noisy`: whether the source is a print read by OCR (None: judged from `lines`).
    `doubted`: the words the OCR engine doubted (:func:`.evidence.doubted`), repaired last
    by the wider search of :mod:`.evidence`."""
    from .evidence import repair_doubted
    from .registry import DOCUMENT_STEPS

    out = list(lines)
    if is_noisy is None:
        is_noisy = noisy(out)
    for step in DOCUMENT_STEPS.values():
        if step.stage == "version" and (step.langs is None or nz.lang in step.langs):
            fixes = step.func(out, nz, others, is_noisy)
            if fixes:
                out = apply(out, fixes)
    if doubted:
        out = repair_doubted(out, nz, doubted)
    return kept_system(out, system_of(out, nz))


def system_of(lines: Sequence[Line], nz: Normaliser) -> System:
    """The spelling system of a version, from the words of its `lines` as printed."""
    from .candidates import fold
    from .rewrite import freq

    lex = nz.lex

    def accented(word: str) -> float:  # (only Portuguese printed fewer accents)
        return lex.folded.get(fold(word), 0.0) if nz.lang == "pt" else 0.0

    return estimate((tok for _k, _a, _b, tok in tokens(lines)), nz.lang, lambda w: freq(w, nz),
                    accented)


_WHOLE = "(?<![^\\W_]){}(?![^\\W_])"


def kept_system(lines: Sequence[Line], system: System) -> list[Line]:
    """`lines` with every change undone that took a word of the document's own spelling
    `system` to today's (see :func:`.orthography.consistent`): the repair never changes a
    word consistent with the system the document is written in."""
    import re

    if not system.older:
        return list(lines)
    out = []
    for line in lines:
        undo = [ch for ch in line.changes if ch.step not in LAYOUT_STEPS
                and consistent(ch.before, ch.after, system)]
        if not undo:
            out.append(line)
            continue
        text = line.text
        for ch in undo:
            text = re.sub(_WHOLE.format(re.escape(ch.after)), lambda _m, b=ch.before: b, text,
                          count=1)
        out.append(replace(line, text=text,
                           changes=tuple(ch for ch in line.changes if ch not in undo)))
    return out
