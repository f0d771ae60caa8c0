"""Topic evidence of texts: keyword scores, printed titles, the treaty register.

`raw_scores` sums keyword weights x hits per topic (additive over texts, so `segment` sums
line scores to score any span; `LineScores` does that for one document's lines); `normalise`
turns evidence into 0..1 scores; `classify_title` names the topic a printed title names;
`classify` and `content_scores` score one article, `pooled_scores` the language versions of
one; `treaty_register` tells operative treaty language from notes and advertisements.

The Chinese patterns are written in Simplified characters: every text is read folded to
Simplified (`indexer.hanzi.simplified`, which leaves other text as it is), so a text printed
in Traditional script scores as the same text in Simplified does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from indexer.hanzi import simplified
from indexer.topics.matcher import Matcher, lowered
from indexer.topics.prefilter import Table, build_table
from indexer.topics.table import KEYWORDS, REGISTER, TITLE_PATTERNS, TOPICS

#: The table of a language the tables do not have.
LANG_FALLBACK = "en"


@cache
def keyword_table(lang: str) -> Table:
    """`KEYWORDS` of `lang` as a `Table`: patterns numbered topic by topic, in table order."""
    return build_table([(key, e[0], e[1], e[2:]) for key, per_lang in KEYWORDS.items()
                        for e in per_lang.get(lang) or per_lang[LANG_FALLBACK]])


@cache
def title_table() -> Table:
    """`TITLE_PATTERNS` as a `Table`: patterns numbered topic by topic, in table order."""
    return build_table([(key, p, 0, (lits,)) for key, pats in TITLE_PATTERNS.items()
                        for p, lits in pats])


@cache
def register_matchers(lang: str) -> tuple[tuple[Matcher, ...], tuple[Matcher, ...]]:
    """The treaty-register and other-register patterns of `lang` (`REGISTER`)."""
    treaty, other = (tuple(Matcher.of(kind, p, 0, (lits,)) for p, lits in
                           REGISTER[kind].get(lang) or REGISTER[kind][LANG_FALLBACK])
                     for kind in ("treaty", "other"))
    return treaty, other


def raw_scores(text: str, lang: str) -> dict[str, float]:
    """Keyword evidence per topic: sum of weight x hits (hits capped per pattern). Additive
    over texts, so `segment` can sum line scores to score any span."""
    table = keyword_table(lang)
    text = simplified(text)
    return _raw_scores(table, text, lowered(text))


def _raw_scores(table: Table, text: str, low: str | None) -> dict[str, float]:
    """`raw_scores` of `text`, whose `lowered` form is `low`."""
    if low is None:
        return _scores(table, text, None, range(len(table.matchers)))
    return _scores(table, text, low, table.matchable(table.present(low), low))


def _scores(table: Table, text: str, low: str | None, run: Iterable[int]) -> dict[str, float]:
    """Evidence of the patterns `run` of `table` (the others known not to match)."""
    matchers = table.matchers
    totals: dict[str, float] = {}
    for i in sorted(run):
        m = matchers[i]
        hits = m.hits(text, low)
        if hits:
            totals[m.key] = totals.get(m.key, 0.0) + m.weight * hits
    # patterns run in table order, topic by topic in `KEYWORDS` order (`keyword_table`), so
    # `totals` already holds the topics in `KEYWORDS` order
    return {key: v for key, v in totals.items() if v}


def normalise(raw: dict[str, float]) -> dict[str, float]:
    """Raw evidence -> scores in 0..1: each topic's share of the evidence, damped when the
    evidence is thin (a text with one weak hit is not confidently about anything)."""
    total = sum(raw.values())
    if not total:
        return {}
    damp = total / (total + 3.0)
    return {key: value / total * damp for key, value in raw.items()}


def score_all(text: str, lang: str) -> dict[str, float]:
    """Score in 0..1 for every topic with any evidence in `text` (missing keys score 0)."""
    return normalise(raw_scores(text, lang))


def classify_title(title: str | None) -> str | None:
    """Topic of a printed article title, or None when the title names none."""
    if not title or not title.strip():
        return None
    title = simplified(title)
    table = title_table()
    low = lowered(title)
    # only patterns whose literals the title holds can match; the first of them (in table
    # order) that does names the first topic whose patterns match
    run = range(len(table.matchers)) if low is None else sorted(table.present(low))
    for i in run:
        m = table.matchers[i]
        if m.search(title, low):
            return m.key
    return None


def classify(title: str | None, text: str, lang: str) -> tuple[str | None, float]:
    """(topic key, confidence 0..1) of one article: from its printed title when the title
    names a topic (confidence 0.95), else from its text; (None, 0.0) without evidence."""
    key = classify_title(title)
    if key is not None:
        return key, 0.95
    return _top_topic(content_scores(text, lang))


def _top_topic(scores: dict[str, float]) -> tuple[str | None, float]:
    """(best topic, its score rounded) of `content_scores`; (None, 0.0) when empty."""
    if not scores:
        return None, 0.0
    best = max(scores, key=lambda k: scores[k])
    return best, round(min(scores[best], 1.0), 3)


#: How much of an article's start counts again: its opening sentence names its subject
#: ("Dividends paid by…", "Income … derived from real property…"), later paragraphs often
#: mention other topics in passing (royalties from mines in the immovable-property article).
OPENING_CHARS = 300
OPENING_WEIGHT = 3.0


def content_scores(text: str, lang: str) -> dict[str, float]:
    """Topic scores of an article's text with its opening counted again (0..1 each)."""
    table = keyword_table(lang)
    text = simplified(text)
    low = lowered(text)
    opening, start = _opening_at(text)
    if low is not None and start is not None and "\u03a3" not in opening:
        # the opening is text[start:start + len(opening)], and `low` lower-cases the text
        # character by character (`lowered` passed every character: each lower-cases to
        # one; only "Σ" lower-cases by its neighbours), so its lower-cased form is there
        opening_low: str | None = low[start : start + len(opening)]
    else:
        opening_low = lowered(opening)
    return _with_opening(_raw_scores(table, text, low), _raw_scores(table, opening, opening_low))


def _with_opening(whole: dict[str, float], opening: dict[str, float]) -> dict[str, float]:
    # in model order, never set order: ties must break the same way in every process
    merged = {k: whole.get(k, 0.0) + OPENING_WEIGHT * opening.get(k, 0.0)
              for k in TOPICS if k in whole or k in opening}
    return normalise(merged)


def _opening(text: str) -> str:
    """The start of the body: skip a short heading line ("Article V", "ARTIGO 5")."""
    return _opening_at(text)[0]


def _opening_at(text: str) -> tuple[str, int | None]:
    """`_opening` of `text`, and where in `text` it stands (None when it is not a slice of
    `text`, as when line breaks other than "\n" were joined by "\n")."""
    # Only the text's start can matter: a first line shorter than 40 characters lies in
    # it (a longer one is long there too), and `OPENING_CHARS` characters of the joined
    # rest come from at most twice as many (a "\r\n" break becomes one "\n"), plus a
    # break that may be cut in two at the end.
    lines = text[: 40 + 2 + 2 * OPENING_CHARS + 2].splitlines()
    if len(lines) > 1 and len(lines[0]) < 40:
        opening, start = "\n".join(lines[1:])[:OPENING_CHARS], len(lines[0]) + 1
    else:
        opening, start = text[:OPENING_CHARS], 0
    return opening, start if text.startswith(opening, start) else None


def treaty_register(text: str, lang: str) -> float:
    """Evidence that `text` is operative treaty language: hits of treaty-register patterns
    minus twice the hits of first-person/editorial/commercial patterns."""
    treaty, other = register_matchers(lang)
    text = simplified(text)
    low = lowered(text)
    pos = sum(1 for m in treaty if m.search(text, low))
    neg = sum(m.count(text, low) for m in other)
    return pos - 2.0 * neg


class LineScores:
    """Keyword evidence of spans of one document's lines, each line scanned once.

    For lines[a:b] joined by "\n": `raw(a, b)` is `raw_scores` and `classify(title, a, b)`
    `classify` of that text (same values). The literal scan of `raw_scores`
    (`Table.present`) runs once per line: no literal holds a line break, so the patterns a
    span can match are among those its lines' literals allow. Spans with a line whose
    characters the lower-cased shortcuts cannot take (`lowered`) go to `raw_scores` itself.
    The lines are read folded to Simplified, as every text here. One document's: never kept
    across documents.
    """

    def __init__(self, lines: Sequence[str], lang: str) -> None:
        self.lines = [simplified(line) for line in lines]
        self.lang = lang
        table = self._table = keyword_table(lang)
        # one check of the whole document when it passes (a text's characters are safe
        # exactly when every line's are); line by line only when some line does not
        whole = lowered("\n".join(self.lines))
        lows: list[str | None] = [] if whole is None else whole.split("\n")  # type: ignore[assignment]
        if len(lows) != len(self.lines):
            lows = [lowered(t) for t in self.lines]
        self._lows = lows
        self._found = [None if low is None else table.present(low) for low in lows]

    def raw(self, a: int, b: int) -> dict[str, float]:
        """`raw_scores` of lines[a:b] joined by "\n"."""
        found_of = self._found[a:b]
        text = "\n".join(self.lines[a:b])
        if None in found_of:
            return raw_scores(text, self.lang)
        low = text.lower()
        found = frozenset().union(*found_of)  # type: ignore[arg-type]
        return _scores(self._table, text, low, self._table.matchable(found, low))

    def line_raws(self, a: int, b: int) -> list[dict[str, float]]:
        """`raw(j, j + 1)` of every line j in [a, b) (the same values)."""
        table = self._table
        out: list[dict[str, float]] = []
        for j in range(a, b):
            found, text, low = self._found[j], self.lines[j], self._lows[j]
            if found is None or low is None:
                out.append(raw_scores(text, self.lang))
            else:
                out.append(_scores(table, text, low, table.matchable(found, low)))
        return out

    def classify(self, title: str | None, a: int, b: int) -> tuple[str | None, float]:
        """`classify` of lines[a:b] joined by "\n", with printed title `title`."""
        key = classify_title(title)
        if key is not None:
            return key, 0.95
        opening = raw_scores(_opening("\n".join(self.lines[a:b])), self.lang)
        return _top_topic(_with_opening(self.raw(a, b), opening))


def pooled_scores(articles: Sequence[tuple[str | None, str, str]]) -> dict[str, float]:
    """Topic evidence for the language versions of one article: (title, text, lang) each.

    The versions of an article are the same provision, so a printed title in any version
    decides (score 1.0 for its topic); otherwise the content scores of all versions are
    averaged (each normalised first, so a long version does not outvote the others).
    """
    for title, _text, _lang in articles:
        key = classify_title(title)
        if key is not None:
            return {key: 1.0}
    pooled: dict[str, float] = {}
    for _title, text, lang in articles:
        for key, value in content_scores(text, lang).items():
            pooled[key] = pooled.get(key, 0.0) + value / len(articles)
    return pooled
