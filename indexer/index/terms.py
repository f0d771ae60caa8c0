"""A bilingual term table learnt from the corpus at index time: which terms of one language
stand for which of another ("pensões" -> 退休金, "beneficial" -> 受益所有人), so that a query in
one language reaches the same provision in the others (`search.results.translate`).

The pairs it learns from are articles in two languages that say the same thing:

- *parallel*: the same article (eId) of one treaty in two of its language versions;
- *comparable*: articles of the same model-convention topic in two treaties of different
  languages (the only pairs a language with no parallel text, such as the corpus's Chinese,
  has), each article paired with a few of the other language's.

Each article is a bag of its distinct analysed terms (those in more than a quarter of a
language's articles are not terms). The candidates are the aligner's (`indexer.align.lexicon
.candidate_translations`: co-occurring in two pairs or more, Dice >= 0.5); a term keeps the
candidates within TIE of its best (a term written as several words, "beneficial owner", has
several equally good translations) that are within PARTNER_TIE of their own best, at most
KEEP.

The sample is bounded (per language and topic, per treaty and language), so the table costs
the same on any corpus size. It is written beside the index (`terms.json`):
``{"en": {"pt": {"pension": ["pensõ", ...]}}}`` (index terms, not surface words).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

from indexer.models import IndexDoc

TERMS_FILE = "terms.json"
#: Articles sampled per (language, topic) and per (treaty, language), treaties sampled.
PER_TOPIC = 12
PER_TREATY = 60
TREATIES = 60
#: Articles of the other language each article is paired with, per topic.
PARTNERS = 4
#: A term of more than this share of a language's sampled articles is no term.
COMMON = 0.25
#: Dice below a term's best, and below its partner's best, still kept; translations kept
#: per term; the least Dice kept.
TIE = 0.05
PARTNER_TIE = 0.2
KEEP = 4
MIN_DICE = 0.55
_NOT_TERM = re.compile(r"[\d\W_]+")

Key = tuple[str, str, str]  # (treaty, lang, article eId)


class TermSample:
    """The articles a build's term table learns from, collected as the documents stream by
    (`tee`)."""

    def __init__(self) -> None:
        self.texts: dict[Key, list[str]] = {}
        self.topic: dict[Key, str] = {}
        self._per_topic: dict[tuple[str, str], int] = defaultdict(int)
        self._per_treaty: dict[tuple[str, str], int] = defaultdict(int)
        self._treaties: set[str] = set()

    def tee(self, docs: Iterable[IndexDoc]) -> Iterator[IndexDoc]:
        for doc in docs:
            self._add(doc)
            yield doc

    def _add(self, doc: IndexDoc) -> None:
        if doc.kind != "article" or not doc.text:
            return
        key = (doc.treaty, doc.lang, doc.article_eid)
        if key not in self.texts:
            by_topic = bool(doc.topic) and self._per_topic[doc.lang, doc.topic] < PER_TOPIC
            if len(self._treaties) < TREATIES:
                self._treaties.add(doc.treaty)
            by_treaty = doc.treaty in self._treaties and \
                self._per_treaty[doc.treaty, doc.lang] < PER_TREATY
            if not (by_topic or by_treaty):
                return
            self.texts[key] = []
            self.topic[key] = doc.topic
            self._per_topic[doc.lang, doc.topic] += by_topic
            self._per_treaty[doc.treaty, doc.lang] += 1
        self.texts[key].append(doc.text)


def _bags(sample: TermSample) -> dict[Key, list[str]]:
    """Each sampled article's distinct terms, the common ones of its language left out."""
    from indexer.index.analysis import TermMemo, index_terms

    bags: dict[Key, list[str]] = {}
    memo = TermMemo()  # (the terms of `analyse`, each token's worked out once)
    for key, texts in sample.texts.items():
        terms = index_terms("\n".join(texts), key[1], memo).terms
        bags[key] = [t for t in dict.fromkeys(terms) if not _NOT_TERM.fullmatch(t)]
    per_lang: dict[str, list[Key]] = defaultdict(list)
    for key in bags:
        per_lang[key[1]].append(key)
    for keys in per_lang.values():
        df: dict[str, int] = defaultdict(int)
        for k in keys:
            for t in bags[k]:
                df[t] += 1
        common = {t for t, c in df.items() if c > COMMON * len(keys)}
        for k in keys:
            bags[k] = [t for t in bags[k] if t not in common]
    return bags


def _pairs(sample: TermSample, a: str, b: str) -> list[tuple[Key, Key]]:
    """The parallel and comparable article pairs of languages `a` and `b`, in a fixed order."""
    keys = sorted(sample.texts)
    by_article = {(k[0], k[2]): k for k in keys if k[1] == b}
    out = [(k, by_article[k[0], k[2]]) for k in keys if k[1] == a and (k[0], k[2]) in by_article]
    topics_b: dict[str, list[Key]] = defaultdict(list)
    for k in keys:
        if k[1] == b and sample.topic[k]:
            topics_b[sample.topic[k]].append(k)
    seen: dict[str, int] = defaultdict(int)
    for k in keys:
        if k[1] != a or not sample.topic[k]:
            continue
        others = [o for o in topics_b.get(sample.topic[k], []) if o[0] != k[0]]
        start = seen[sample.topic[k]]
        seen[sample.topic[k]] += 1
        for i in range(min(PARTNERS, len(others))):
            out.append((k, others[(start + i) % len(others)]))
    return out


def _choose(candidates: list[tuple[str, str, float]]) -> dict[str, list[str]]:
    """x -> the y within TIE of x's best and within PARTNER_TIE of y's best, best first."""
    best_x: dict[str, float] = defaultdict(float)
    best_y: dict[str, float] = defaultdict(float)
    for x, y, d in candidates:
        best_x[x] = max(best_x[x], d)
        best_y[y] = max(best_y[y], d)
    out: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for x, y, d in candidates:
        if d >= MIN_DICE and d >= best_x[x] - TIE and d >= best_y[y] - PARTNER_TIE:
            out[x].append((d, y))
    return {x: [y for _d, y in sorted(ys, key=lambda p: (-p[0], p[1]))[:KEEP]]
            for x, ys in sorted(out.items())}


def learn(sample: TermSample) -> dict[str, dict[str, dict[str, list[str]]]]:
    """The term table of `sample`: source language -> target language -> term -> terms."""
    from indexer.align.lexicon import candidate_translations

    bags = _bags(sample)
    langs = sorted({k[1] for k in bags})
    table: dict[str, dict[str, dict[str, list[str]]]] = defaultdict(dict)
    for i, a in enumerate(langs):
        for b in langs[i + 1:]:
            pairs = [(bags[ka], bags[kb]) for ka, kb in _pairs(sample, a, b)]
            if not pairs:
                continue
            cands = candidate_translations(pairs)
            table[a][b] = _choose(cands)
            table[b][a] = _choose([(y, x, d) for x, y, d in cands])
    return dict(table)


def write_terms(gen: Path, sample: TermSample) -> None:
    (gen / TERMS_FILE).write_text(json.dumps(learn(sample), ensure_ascii=False, sort_keys=True),
                                  "utf-8")


def load_terms(gen: Path) -> dict[str, dict[str, dict[str, list[str]]]]:
    """The term table of an index generation ({} for one built without it)."""
    path = gen / TERMS_FILE
    if not path.is_file():
        return {}
    return json.loads(path.read_text("utf-8"))
