"""document-vocabulary: a token the version spells once or twice, within a small OCR distance
of a word the same version spells many times, is that word (``royaltj`` beside royalty,
``profils`` beside 40 × profits, a quoted “emprésa” beside 40 × emprêsa).

The version's own spelling is the evidence, weighed against the lexicon: a token the lexicon
knows as a common word is left alone, one it knows as a rare word only yields to a much
commoner neighbour, and two forms of one word (an inflection, a compound's ending) or an
older spelling of it (:mod:`indexer.normalise.orthography`) are never taken for a misreading.
A compound the version spells once is read part by part (:mod:`indexer.normalise.compounds`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from ..models import Change, Line
from .candidates import KNOWN, RARE_CEILING, recase, zipf_1945
from .compounds import MIN_COMPOUND, compound_reading, heads
from .context import Normaliser
from .distance import JUNK, allowance, clitic, extends, hyphenated, ocr_cost
from .document import Fix, tokens
from .orthography import older_form

#: A word of the version: spelled at least this often (and this many times as often as the
#: token read as it).
TARGET_COUNT = 3
TARGET_RATIO = 3
#: A token is looked at when spelled at most this often.
RARE_COUNT = 2
#: A token the lexicon knows yields only to a word this much commoner in the lexicon.
KNOWN_MARGIN = 1.0
#: Two candidate words about equally close (within this cost): the token is left as it is.
AMBIGUOUS = 0.15


def _plain(word: str, alphabet: frozenset[str]) -> bool:
    return all(ch in alphabet for ch in word)


def _bigrams(w: str) -> frozenset[str]:
    return frozenset(w[i:i + 2] for i in range(len(w) - 1))


#: The version's words by length, each with its letter pairs.
Targets = dict[int, list[tuple[str, frozenset[str]]]]


def _targets(counts: Counter[str], nz: Normaliser) -> Targets:
    """The version's words by length: spelled TARGET_COUNT times or more, in the letters of
    the language only."""
    alphabet = nz.lex.alphabet
    by_len: Targets = defaultdict(list)
    for w, k in counts.items():
        if k >= TARGET_COUNT and len(w) >= 4 and _plain(w, alphabet):
            by_len[len(w)].append((w, _bigrams(w)))
    return by_len


def _candidates(tok: str, by_len: Targets) -> list[str]:
    """Targets of about the length of `tok` sharing at least a third of its letter pairs."""
    grams = _bigrams(tok)
    need = len(grams)
    return [w for n in range(len(tok) - 3, len(tok) + 3) for w, wg in by_len.get(n, ())
            if len(grams & wg) * 3 >= need]


def _choose(tok: str, counts: Counter[str], by_len: Targets, nz: Normaliser,
            noisy: bool) -> tuple[str, str] | None:
    """The word of the version `tok` stands for, with the reason, or None."""
    low = tok.lower()
    z0 = zipf_1945(low, nz.lex)[0]
    if z0 >= RARE_CEILING or len(low) < 4 or (z0 >= KNOWN and not noisy):
        return None  # (a typed text's rare words are words)
    scored = []
    for w in _candidates(low, by_len):
        if w == low or extends(low, w) or counts[w] < TARGET_RATIO * counts[low]:
            continue
        if z0 >= KNOWN and nz.lex.freq(w) < z0 + KNOWN_MARGIN:
            continue
        limit = allowance(w, noisy)
        cost = ocr_cost(low, w, nz.lang, limit)
        if cost <= limit and not older_form(low, w, nz.lang):
            scored.append((cost, -counts[w], w))
    if not scored:
        return None
    scored.sort()
    cost, _, w = scored[0]
    if len(scored) > 1 and scored[1][0] - cost < AMBIGUOUS:
        return None
    why = (f"'{w}' {counts[w]} times in this version, '{low}' {counts[low]} time(s); "
           f"OCR cost {cost:.1f}")
    return w, why


def suspended(text: str, end: int) -> bool:
    """Is the token ending at `end` of `text` the first part of a compound whose rest is
    given later ("ränte- och royaltyinkomster", "finans- och utrikesdepartementet")?"""
    return text[end:end + 1] == "-" and text[end + 1:end + 2] in (" ", "\n", "")


def document_vocabulary(lines: Sequence[Line], nz: Normaliser,
                        others: Sequence[Normaliser], noisy: bool) -> dict[int, list[Fix]]:
    """The fixes of the step, by line index (see the module's doc)."""
    found = list(tokens(lines))
    counts = Counter(t.lower() for _, _, _, t in found)
    by_len = _targets(counts, nz)
    chosen: dict[str, tuple[str, str] | None] = {}
    established: Counter[str] | None = None  # the version's word beginnings, when needed
    fixes: dict[int, list[Fix]] = defaultdict(list)

    def known(part: str) -> bool:
        return nz.lex.freq(part) >= KNOWN or counts[part.lower()] > 0

    made = [{ch.after for ch in x.changes} for x in lines]  # decided by the line steps
    for k, a, b, tok in found:
        low = tok.lower()
        if counts[low] > RARE_COUNT or tok.isupper() and len(tok) > 1 or tok in made[k] \
                or hyphenated(tok, known) or clitic(tok) or suspended(lines[k].text, b):
            continue
        if low not in chosen:
            chosen[low] = _choose(tok, counts, by_len, nz, noisy)
            if chosen[low] is None and noisy and len(low) >= MIN_COMPOUND:
                if established is None:
                    established = heads(counts)
                chosen[low] = compound_reading(low, counts, established, nz, noisy)
        got = chosen[low]
        if got is not None:
            after = recase(got[0], tok.strip("".join(JUNK)))
            fixes[k].append(Fix(a, b, after, Change("document-vocabulary", tok, after, got[1])))
    return fixes
