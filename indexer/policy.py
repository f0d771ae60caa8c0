"""One language policy table: per language the script, Unicode normal form, tokenizer,
stemmer and lexicon. CJK gets its own path."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class LanguagePolicy:
    code: str  # ISO 639-1
    name: str  # English name
    script: str  # "Latn" or "Hani"
    normal_form: str  # Unicode normal form of stored text
    tokenizer: str  # "words" (regex word tokens) or "jieba"
    stemmer: str | None  # Snowball algorithm name, or None
    lexicon: str  # wordfreq language code
    fold_keep: str = ""  # letters accent folding must keep (Swedish å/ä/ö)


_POLICIES = {
    "en": LanguagePolicy("en", "English", "Latn", "NFC", "words", "english", "en"),
    "pt": LanguagePolicy("pt", "Portuguese", "Latn", "NFC", "words", "portuguese", "pt"),
    "sv": LanguagePolicy("sv", "Swedish", "Latn", "NFC", "words", "swedish", "sv", "åäöÅÄÖ"),
    "zh": LanguagePolicy("zh", "Chinese", "Hani", "NFKC", "jieba", None, "zh"),
}

#: The languages the corpus is built for, in display order.
LANGUAGES: tuple[str, ...] = tuple(_POLICIES)


@cache
def policy(lang: str) -> LanguagePolicy | None:
    """The policy for `lang`, or None for a language the corpus only keeps, never analyses."""
    return _POLICIES.get(lang)
