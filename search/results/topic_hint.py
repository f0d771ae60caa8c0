"""The model-convention topic a query asks about, read by the classifier that tags the
articles (`indexer.topics`): a printed title pattern ("pensions", "Juros") or the content
keywords of one topic ahead of every other ("withholding rate on interest" -> interest;
"fixed base" -> independent services). Among articles matched alike, those on that topic
come first (`versions.preferred_first`), and relaxed matching keeps them even when they hold
fewer of the words: a question names its subject and words the text may not use."""

from __future__ import annotations

from collections.abc import Sequence

#: The languages a query is read in (its own is not known for a Latin-script query).
QUERY_LANGS = ("en", "pt", "sv", "zh")


def query_topic(words: Sequence[str]) -> str | None:
    """The topic the query's plain `words` name: a title pattern's, else the one topic
    whose content keywords score highest in any language (None: none, or a tie)."""
    from indexer.topics import classify_title, score_all

    text = " ".join(words)
    if not text.strip():
        return None
    titled = classify_title(text)
    if titled is not None:
        return titled
    best: dict[str, float] = {}
    for lang in QUERY_LANGS:
        for key, score in score_all(text, lang).items():
            best[key] = max(best.get(key, 0.0), score)
    ranked = sorted(best.values(), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0] == ranked[1]):
        return None
    return max(best, key=best.__getitem__)
