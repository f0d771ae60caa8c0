"""The word steps that move word boundaries: a word broken by a stray space or a hyphen
(``join-split-words``) and two words printed without the space between them
(``split-glued-words``), each confirmed by the lexicon."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lexicon import Lexicon
from ..models import Change
from .context import Normaliser
from .rewrite import ROMAN, ByPlace, Verdict, foreign, known, places, rewrite
from .scan import HYPHEN_BREAK, Scan, unprotected

# ---------------------------------------------------------------------------------------------
# join-split-words

_WORD_RUN = re.compile(r"(?<!\w)[^\W\d_]+(?!\w)")
_SEP_OK = re.compile(r"^(?: |-(?:[ \t]+|[ \t]*\n[ \t]*)|[ \t]+-[ \t]*\n)$")
#: Below this Zipf frequency a piece is rare enough to be joined across a plain space.
_JOIN_RARE = 2.5
#: A joined form must be at least this frequent.
_JOIN_FREQ = 3.5
_NOT_LETTER = re.compile(r"[\d_]")


def _rare_words(runs: list[str], nz: Normaliser) -> set[str]:
    """The words (_WORD_RUN: runs of letters only) among the runs of word characters `runs`
    whose frequency is below _JOIN_RARE and that can be a piece of a joined form (each run
    looked up once, then remembered in the Normaliser's common or rare set).

    A joined form is a word of Zipf >= _JOIN_FREQ, and lower-casing a word lower-cases each
    piece alike (but for the context-dependent final sigma): a rare word that is neither a
    proper prefix nor a proper suffix of such a word (case-folded) joins nothing, whatever
    its neighbours, and is left out."""
    common, rare = nz.common, nz.rare
    if common.issuperset(runs):
        return set()
    lex = nz.lex
    freq = lex.freq
    found = set()
    for w in set(runs).difference(common):
        if w in rare:
            found.add(w)
        elif ((w.isalpha() or not _NOT_LETTER.search(w)) and freq(w) < _JOIN_RARE
              and ("Σ" in w or lex.is_piece(w.lower(), _JOIN_FREQ))):
            rare.add(w)
            found.add(w)
        else:
            common.add(w)
    return found


def _may_join(runs: list[str], rare: set[str], freq: Callable[[str], float]) -> bool:
    """Could a rare word of `rare` join a neighbour across a plain space? Only if, with the
    run of word characters before or after it in `runs`, it spells a frequent word (a joined
    form that is a lexicon word has letters only, so both runs are words). Each place of a
    rare word is looked at once (found by `list.index`, in C)."""
    last = len(runs) - 1
    for k in places(runs, rare):
        w = runs[k]
        if k > 0 and freq(runs[k - 1] + w) >= _JOIN_FREQ and not w[:1].isupper():
            return True
        if (k < last and freq(w + runs[k + 1]) >= _JOIN_FREQ
                and not runs[k + 1][:1].isupper()):
            return True
    return False


def _any_pair(runs: list[str], rare: set[str], hyphens: bool, lex: Lexicon) -> bool:
    """Could any pair of neighbouring runs of word characters join? Only a pair with a rare
    piece, or with a hyphen break between (`hyphens`: the text has one), can: two words of
    the language are never joined across a plain space (any other separator is refused)."""
    if not hyphens:
        # only a pair with a rare piece can join (a pair _may_join finds is also one
        # _joinable would accept: a frequent joined form of neighbouring runs)
        return bool(rare) and _may_join(runs, rare, lex.freq)
    # Whatever the separator, a joined form is frequent and the pieces are neighbouring runs
    # (a separator _SEP_OK accepts has no word character): no such pair, nothing to join.
    return not lex.at_least(_JOIN_FREQ).isdisjoint(
        map(str.lower, map(str.__add__, runs, runs[1:])))


def _joinable(a: str, sep: str, b: str, freq: Callable[[str], float]) -> float | None:
    """The frequency of `a` + `b` when the words `a` and `b`, with `sep` between, are one
    word broken in two, else None."""
    zj = freq(a + b)
    if zj < _JOIN_FREQ or b[:1].isupper():
        return None
    if any(c.isdigit() for c in a + b) or ROMAN.match(a) or ROMAN.match(b):
        return None
    za, zb = freq(a), freq(b)
    if "-" in sep:
        return zj if zj >= max(za, zb) else None
    rare = min(za, zb)
    if rare >= _JOIN_RARE or zj < rare + _JOIN_RARE or len(a + b) < 4:
        return None
    return zj


def _pairs(text: str, words: list[re.Match[str]], rare: set[str], hyphens: bool) -> list[int]:
    """The indexes of the `words` that may be joined to the next one, in order: those with a
    rare word of `rare` in the pair, and those with a hyphen between them and the next."""
    found = {j for i, m in enumerate(words) if m.group() in rare for j in (i - 1, i)}
    if hyphens:
        found.update(i for i in range(len(words) - 1)
                     if "-" in text[words[i].end() : words[i + 1].start()])
    return sorted(i for i in found if 0 <= i < len(words) - 1)


def _join_pairs(text: str, words: list[re.Match[str]], pairs: list[int],
                freq: Callable[[str], float]) -> tuple[str, list[Change]]:
    """`text` with each pair of `words` at `pairs` that is a word broken in two joined (a word
    joined to the one before it does not start another pair)."""
    changes: list[Change] = []
    out: list[str] = []
    pos = after = 0
    for i in pairs:
        if i < after:
            continue
        m1, m2 = words[i], words[i + 1]
        sep = text[m1.end() : m2.start()]
        zj = _joinable(m1.group(), sep, m2.group(), freq) if _SEP_OK.match(sep) else None
        if zj is None:
            continue
        joined = m1.group() + m2.group()
        changes.append(Change("join-split-words", text[m1.start() : m2.end()], joined,
                              f"'{joined}' (zipf {zj:.1f}) broken by a space"))
        out.append(text[pos : m1.start()] + joined)
        pos = m2.end()
        after = i + 2
    if not changes:
        return text, changes
    out.append(text[pos:])
    return "".join(out), changes


def join_split(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """A word broken by a stray space or a hyphen and space (``sej a``, ``con- forme``) when
    the joined form is a frequent word and a piece is not a word."""
    text = scan.text
    runs = scan.runs
    if len(runs) < 2:
        return text, []
    rare = _rare_words(runs, nz)
    hyphens = HYPHEN_BREAK.search(text) is not None
    if not _any_pair(runs, rare, hyphens, nz.lex):
        return text, []
    words = list(_WORD_RUN.finditer(text))
    if scan.protected:
        words = unprotected(words, scan.protected)
    if len(words) < 2:
        return text, []
    return _join_pairs(text, words, _pairs(text, words, rare, hyphens), nz.lex.freq)


# ---------------------------------------------------------------------------------------------
# split-glued-words


def _split_verdict(tok: str, nz: Normaliser) -> Verdict:
    if len(tok) < 6 or not tok.isalpha() or known(tok, nz) or foreign(tok, nz):
        return None
    lex = nz.lex
    found = []
    for i in range(2, len(tok) - 1):
        a, b = tok[:i], tok[i:]
        za, zb = lex.freq(a), lex.freq(b)
        # one piece must be a very common (function) word: "ofthe", "finansoch"
        short_ok = min(len(a), len(b)) > 3 or min(za, zb) >= 5.5
        if min(za, zb) >= 3.5 and max(za, zb) >= 5.5 and short_ok:
            found.append((min(za, zb), a, b))
    if len(found) != 1:
        return None
    _, a, b = found[0]
    fix = (f"{a} {b}", f"'{tok}' not a word; '{a}' and '{b}' are")
    return ByPlace(tok, lambda name: None if name else fix, hyphen=True)


def split_glued(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """Two words printed without the space between them (not for Swedish, which compounds)."""
    return rewrite(scan, nz, "split-glued-words", _split_verdict)
