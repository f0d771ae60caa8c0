"""One topic per article of a treaty, each model topic to at most one article."""

from __future__ import annotations

#: Below this share of an article's evidence a second-choice topic is not given.
MIN_SECOND_CHOICE = 0.1


def assign(articles: dict[int, dict[str, float]]) -> dict[int, str | None]:
    """One topic per article of a treaty, each model topic to at most one article.

    A model convention gives each topic one article, so when two articles of a treaty claim
    the same topic the better-supported one keeps it and the other takes its next best topic
    (if it has real evidence for one). Titled articles (score 1.0) always keep their topic.
    """
    claims = sorted(
        ((score, number, key) for number, scores in articles.items()
         for key, score in scores.items()),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    out: dict[int, str | None] = {n: None for n in articles}
    taken: set[str] = set()
    for score, number, key in claims:
        if out[number] is not None:
            continue
        best = max(articles[number].values())
        if score >= 1.0 or (key not in taken and (score == best or score >= MIN_SECOND_CHOICE)):
            out[number] = key
            taken.add(key)
    return out
