""""Did you mean": for a query word absent or rare in the index as written, the index's words
nearest by edit distance whose terms are more frequent. Computed from the vocabulary the build
writes (`rows.Vocabulary`: document frequencies of terms and of surface words), so it is the
same for every engine; Latin-script languages only (those with surface words)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from indexer.index.analysis import analyse
from indexer.index.chinese import has_han
from indexer.index.query_syntax import Node, Word, levenshtein, words_of
from indexer.index.typing_cost import EDIT, typing_cost

__all__ = ["Suggestion", "corrected", "load_vocabulary", "suggest"]

#: Alternatives offered per word, best first.
ALTERNATIVES = 3
#: How near an alternative is: (typing cost, -document frequency of its term).
_Score = tuple[float, int]
#: A word this frequent in the general language (wordfreq's Zipf scale: once in a million
#: words) is a word, even where the corpus lacks it: it is taken as typed ("arv",
#: inheritance) unless one slip of the likeliest kind (a typing cost of one EDIT) makes it
#: out of a word more common in the general language ("räta" for "ränta", "skater" for
#: "skatter"). Typos rarely are words (the misspellings of the relevance set are 0-2.2).
KNOWN_ZIPF = 3.0
#: A word this frequent (wordfreq's Zipf scale: "the", "av", "har", "hur") is a function
#: word: never corrected, never offered (a search does not need it: `search.results.relaxed`).
FUNCTION_ZIPF = 6.0


@dataclass(frozen=True)
class Suggestion:
    term: str  # as typed
    alternatives: tuple[str, ...]  # best first


def load_vocabulary(path: Path) -> dict:
    """The vocabulary file of a generation: ``{"df": {lang: {term: n}}, "surface": {lang:
    {word: n}}}``, plus ``"by_initial"``: per language, the (word, n) of the surface words by
    their first character."""
    data = json.loads(path.read_text("utf-8"))
    by_initial: dict[str, dict[str, list[tuple[str, int]]]] = {}
    for lang, words in data["surface"].items():
        table = by_initial.setdefault(lang, {})
        for w, c in words.items():
            table.setdefault(w[:1], []).append((w, c))
    data["by_initial"] = by_initial
    return data


def suggest(tree: Node | None, langs: Iterable[str], vocab: dict) -> tuple[Suggestion, ...]:
    """For each plain query word of `tree` (each part of a hyphenated one) that is absent or
    rare as written in the languages `langs` of `vocab` (a `load_vocabulary`), the words
    nearest to it whose terms are more frequent."""
    langs = [lang for lang in langs if lang in vocab["surface"]]
    out: list[Suggestion] = []
    seen: set[str] = set()
    for word, negated in words_of(tree):
        w = unicodedata.normalize("NFC", word.text.lower())
        if w in seen or not _plain(word, negated, w):
            continue
        seen.add(w)
        # a hyphenated word ("non-residnet"): each of its parts of four letters or more
        parts = [x for x in word.text.split("-") if len(x) >= 4] if "-" in w else [word.text]
        for part in parts:
            p = unicodedata.normalize("NFC", part.lower())
            if not p.isalpha() or sum(vocab["surface"][lang].get(p, 0) for lang in langs) > 1:
                continue
            alts = _nearest(p, langs, vocab)
            if alts:
                out.append(Suggestion(part, alts))
    return tuple(out)


def _plain(word: Word, negated: bool, w: str) -> bool:
    """Whether `word` (`w`: lower case, NFC) is one to correct: not under a NOT, neither a
    prefix nor fuzzy, not Chinese."""
    return not (negated or word.prefix or word.fuzzy is not None or has_han(w))


def general_zipf(word: str, langs: Iterable[str]) -> float:
    """How common `word` is in the general language of the likeliest of `langs` (Zipf)."""
    from indexer.lexicon import zipf_frequency

    return max((zipf_frequency(word, lang) for lang in langs), default=0.0)


def _worth_offering(zipf: float, cand: str, cost: float, langs: list[str]) -> bool:
    """May `cand` (at typing cost `cost`) be offered for a word of general Zipf `zipf`? Never a
    function word, nor for one; for a word of the language (KNOWN_ZIPF) only a one-slip
    alternative more common than it."""
    if zipf >= FUNCTION_ZIPF:
        return False
    other = general_zipf(cand, langs)
    if other >= FUNCTION_ZIPF:
        return False
    return zipf < KNOWN_ZIPF or (cost <= EDIT and other > zipf)


@lru_cache(maxsize=4096)
def _term(word: str, lang: str) -> str | None:
    """The term of `word` in `lang` (None: not one token)."""
    toks = analyse(word, lang)
    return toks[0].term if len(toks) == 1 else None


def _nearest(w: str, langs: list[str], vocab: dict, n: int = ALTERNATIVES) -> tuple[str, ...]:
    """The `n` surface words nearest to `w` (the likeliest typo, `typing_cost`, then most
    frequent term) whose term is more frequent than that of `w`, in any of `langs`, and that
    are worth offering (`_worth_offering`)."""
    limit = 1 if len(w) <= 4 else 2
    scored: dict[str, _Score] = {}
    for lang in langs:
        for cand, score in _candidates(w, lang, vocab, limit):
            best = scored.get(cand)
            if best is None or score < best:
                scored[cand] = score
    zipf = general_zipf(w, langs) if scored else 0.0
    kept = [c for c in scored if _worth_offering(zipf, c, scored[c][0], langs)]
    return tuple(sorted(kept, key=lambda c: (*scored[c], c))[:n])


def _candidates(w: str, lang: str, vocab: dict, limit: int) -> Iterable[tuple[str, _Score]]:
    """(word, (typing cost, -document frequency of its term)) of the surface words of
    `lang` within `limit` edits of `w` whose term is another and more frequent than that of
    `w`."""
    df = vocab["df"].get(lang, {})
    own = _term(w, lang)
    own_df = df.get(own, 0) if own else 0
    for cand, _count in vocab["by_initial"][lang].get(w[:1], ()):
        if abs(len(cand) - len(w)) > limit or cand == w:
            continue
        d = levenshtein(w, cand, limit)
        if d > limit:
            continue
        term = _term(cand, lang)
        cdf = df.get(term, 0) if term else 0
        if term == own or cdf <= own_df:
            continue
        yield cand, (typing_cost(w, cand), -cdf)


def corrected(query: str, suggestions: tuple[Suggestion, ...]) -> str | None:
    """`query` with each suggested word replaced by its best alternative (None: unchanged)."""
    if not suggestions:
        return None
    out = query
    for s in suggestions:
        out = re.sub(rf"(?<!\w){re.escape(s.term)}(?!\w)", s.alternatives[0], out)
    return out if out != query else None
