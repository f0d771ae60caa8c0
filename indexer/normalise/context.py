"""The context of OCR repair in one language: a :class:`Normaliser`, made by the caller and
passed to :func:`~indexer.normalise.registry.normalise_line` (or got from :func:`shared`).

It holds the language's lexicon (loaded on first use), the common words of the other languages
(:func:`~indexer.normalise.candidates.foreign_lexicons`), the
:class:`~indexer.normalise.candidates.Chooser` of replacement words, and what the word steps
learn as they go: their verdicts on tokens, the tokens each leaves alone wherever they stand
(its quiet set), the runs of word characters join-split-words can or cannot join
(rare/common), the tokens every word step leaves alone (calm) and the pieces between blanks no
step from ocr-digits on acts on (still, see :mod:`indexer.normalise.calm`).

All of these are facts about a token or a piece in the language, never about the text it
stands in (a step is a function of the text alone): a Normaliser gives every text the repair
it would give it fresh, and keeping one for many texts only saves work. The ingest keeps one
per language for the whole run of a worker (:func:`shared`): a document's words are mostly
words other documents have too, and one made for each document makes the stage about three
times slower over corpus-wild and corpus-extra in one cold pass (ten times in the warm passes
of ``scripts/stage_times.py``).
"""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ..lexicon import Lexicon, load_lexicon
from ..policy import policy
from .candidates import Chooser, foreign_lexicons

if TYPE_CHECKING:
    from .rewrite import Verdict

#: Verdicts remembered per word step before that step's memo (and with it the quiet and calm
#: tokens) starts afresh.
MEMO_LIMIT = 200_000
#: Word runs kept in each of the common/rare sets, and pieces in the still set, before they
#: start afresh (and with common/rare the calm tokens).
WORDS_LIMIT = 200_000


class Normaliser:
    """The OCR repair of language `lang` with the lexicons under `cache_dir` (None: the default
    data directory), and what it has learned (see the module's doc)."""

    def __init__(self, lang: str, cache_dir: str | Path | None = None) -> None:
        self.lang = lang
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        #: per word step, its verdict on each token looked at
        self.memo: dict[str, dict[str, Verdict]] = {}
        #: per word step, the tokens whose verdict is None (a text made of them only is left
        #: as it is after one set operation)
        self.quiet: dict[str, set[str]] = {}
        #: runs of word characters known not to be joinable rare words (Zipf >= _JOIN_RARE,
        #: not letters only, or no piece of a frequent word), and joinable rare words, for
        #: join-split-words
        self.common: set[str] = set()
        self.rare: set[str] = set()
        #: tokens every word step of the language leaves alone wherever they stand (in the
        #: quiet set of each, and in `common`)
        self.calm: set[str] = set()
        #: pieces of text between blanks that ocr-digits and every word step leave alone
        #: wherever they stand (see calm.learn_still)
        self.still: set[str] = set()
        self._chooser: Chooser | None = None

    @cached_property
    def lex(self) -> Lexicon:
        """The lexicon of the language (its policy's, loaded on first use)."""
        pol = policy(self.lang)
        return load_lexicon(pol.lexicon if pol else self.lang, self.cache_dir)

    @cached_property
    def foreign(self) -> tuple[Lexicon, ...]:
        """The common words of the other languages (see candidates.is_foreign)."""
        return foreign_lexicons(self.lang, self.cache_dir)

    @property
    def chooser(self) -> Chooser:
        """The choice of replacement words in the lexicon (made on first use)."""
        if self._chooser is None:
            self._chooser = Chooser(self.lang, self.lex)
        return self._chooser

    def verdicts(self, name: str) -> tuple[dict[str, Verdict], set[str]]:
        """The memo of word step `name` and its set of quiet tokens."""
        memo = self.memo.get(name)
        if memo is None:
            memo = self.memo[name] = {}
            self.quiet[name] = set()
        return memo, self.quiet[name]

    def bound(self) -> None:
        """Start afresh what has grown past its limit, with what is drawn from it (called
        before the steps run over a text, so that what is learned holds while they do: the
        calm and still sets only grow during a repair)."""
        for name, memo in self.memo.items():
            if len(memo) > MEMO_LIMIT:
                memo.clear()
                self.quiet[name].clear()
                self.calm.clear()
                self.still.clear()
        if len(self.common) > WORDS_LIMIT or len(self.rare) > WORDS_LIMIT:
            self.common.clear()
            self.rare.clear()
            self.calm.clear()
            self.still.clear()
        if len(self.still) > WORDS_LIMIT:
            self.still.clear()
        if self._chooser is not None:
            self._chooser.bound()


@cache
def shared(lang: str, cache_dir: str | Path | None = None) -> Normaliser:
    """The Normaliser of `lang` (with the lexicons under `cache_dir`) that the callers in this
    process share, as they share the lexicons it reads (see the module's doc: what it learns
    holds for every text of the language)."""
    return Normaliser(lang, cache_dir)
