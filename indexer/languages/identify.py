"""The language of one text: by script for Chinese, Japanese and Korean; Latin text by
py3langid restricted to the candidate languages, helped by lexical cues (article keywords,
function words) for short strings. py3langid was chosen over langdetect by
`scripts/measure_langid.py`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from indexer.languages import fastid
from indexer.languages.model import PublicRanks
from indexer.languages.scripts import CJK, count_letters, script

#: Languages the corpus is built for; Latin text is identified among these by default.
PRIMARY: tuple[str, ...] = ("en", "pt", "sv")
#: Other languages recognised (and kept apart) when a text clearly is one of them.
OTHERS: tuple[str, ...] = ("nl", "es", "da", "no", "de", "fr")

#: Texts at least this long (in letters) are identified on their own; shorter ones are
#: scored by cues and, as headings and labels, take the language of the text they open.
LONG = 25
# An "other" language must win by this probability over the primary ones.
_OTHER_PROB = 0.95

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

_CueWeights = dict[str, tuple[tuple[str, int], ...]]


def _cue_weights(candidates: tuple[str, ...]) -> _CueWeights:
    """Word -> (candidate, 2 for a cue word or 1 for a function word), in candidate order."""
    weights: dict[str, list[tuple[str, int]]] = {}
    for lang in candidates:
        cues, stop = _CUES.get(lang, frozenset()), _STOP.get(lang, frozenset())
        for word in cues | stop:
            weights.setdefault(word, []).append((lang, 2 if word in cues else 1))
    return {word: tuple(pairs) for word, pairs in weights.items()}


def latin_of(candidates: Sequence[str] | None) -> tuple[str, ...]:
    """The Latin-script candidates (en/pt/sv when none are given)."""
    return tuple(c for c in (candidates or PRIMARY) if c not in CJK)


class Ranks(Protocol):
    """A document's py3langid rankings (`fastid.FastRanks` or `model.PublicRanks`)."""

    def count(self, texts: Sequence[str]) -> None: ...
    def rank(self, texts: Sequence[str], candidates: Sequence[str]) -> None: ...
    def top(self, text: str, candidates: Sequence[str]) -> tuple[str, float]: ...


def new_ranks() -> Ranks:
    """Empty rankings: vectorised when `fastid` holds for the installed model."""
    automaton = fastid.automaton()
    return fastid.FastRanks(automaton) if automaton is not None else PublicRanks()


class Detector:
    """The identification of one document's texts (or of one text): py3langid's rankings
    and the cue weights of each tuple of candidates, made once for the document."""

    def __init__(self) -> None:
        self.ranks = new_ranks()
        self._weights: dict[tuple[str, ...], _CueWeights] = {}

    def cue_scores(self, text: str, candidates: Sequence[str]) -> Counter[str]:
        """Lexical score per candidate: strong cue words count 2, function words 1."""
        key = tuple(candidates)
        weights = self._weights.get(key)
        if weights is None:
            weights = self._weights[key] = _cue_weights(key)
        scores: Counter[str] = Counter()
        for word in _WORD.findall(text.lower()):
            for lang, weight in weights.get(word, ()):
                scores[lang] += weight
        return scores

    def cue_language(self, text: str, candidates: Sequence[str]) -> str:
        """The single best-scoring candidate by cues, or "" on a tie or no evidence."""
        ranked = self.cue_scores(text, candidates).most_common(2)
        if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
            return ""
        return ranked[0][0]

    def detect(self, text: str, candidates: Sequence[str] | None, letters: int,
               written: str, latin: tuple[str, ...]) -> str:
        """`detect` of a text with `letters` letters written in script `written` ("" for
        none), `latin` being `latin_of(candidates)`."""
        if written:
            return written
        if not letters or not latin:
            return ""
        if len(latin) == 1:
            return latin[0]
        if letters < LONG:
            cue = self.cue_language(text, latin)
            if cue:
                return cue
        best = self.ranks.top(text, latin)[0]
        if candidates is None and letters >= 2 * LONG:
            top, prob = self.ranks.top(text, PRIMARY + OTHERS)
            if top in OTHERS and prob >= _OTHER_PROB:
                scores = self.cue_scores(text, (top, best))
                if scores[top] >= scores[best]:
                    return top
        return best


def cue_scores(text: str, candidates: Sequence[str]) -> Counter[str]:
    """Lexical score per candidate: strong cue words count 2, function words 1."""
    return Detector().cue_scores(text, candidates)


def detect(text: str, candidates: Sequence[str] | None = None) -> str:
    """ISO 639-1 code of `text`'s language ("" when it has no letters).

    With no `candidates`, Latin text is identified among en/pt/sv, or labelled with another
    language (nl, es, da, no, de, fr) when it clearly is one of those.
    """
    letters = count_letters(text)
    return Detector().detect(text, candidates, letters, script(text, letters),
                             latin_of(candidates))
