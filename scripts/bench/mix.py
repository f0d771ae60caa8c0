"""The scale benchmark's query mix and citations, and how a mix is timed and summarised."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from bench.common import pct_rank

#: (category, query, filters). Every engine and the FTS5 baseline get the same mix.
MIX: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("term", "dividends", {}),
    ("term", "royalties", {}),
    ("term", "resident", {}),
    ("term", "dividendos", {}),
    ("term", "tributação", {}),
    ("term", "utdelning", {}),
    ("term", "beskattning", {}),
    ("phrase", '"permanent establishment"', {}),
    ("phrase", '"beneficial owner"', {}),
    ("phrase", '"estabelecimento permanente"', {}),
    ("phrase", '"fast driftställe"', {}),
    ("boolean", "dividends OR royalties", {}),
    ("boolean", "interest AND NOT dividends", {}),
    ("fuzzy", "dividnds~", {}),
    ("fuzzy", "royaltes~1", {}),
    ("fuzzy", "tributacão~", {}),
    ("prefix", "divid*", {}),
    ("prefix", "tribut*", {}),
    ("filtered", "dividends", {"treaty": "br-pe-2006"}),
    ("filtered", "dividendos", {"lang": "pt"}),
    ("filtered", "tax", {"topic": "dividends"}),
    ("filtered", "imposto", {"party": "BR", "lang": "pt"}),
    ("chinese", "股息", {}),
    ("chinese", "常设机构", {}),
    ("chinese", "特许权使用费", {}),
    ("chinese", "居民", {"lang": "zh"}),
    # as users type them: a typo searched as corrected, a question (relaxed matching, the
    # topic it names), a Chinese question (its words), a word no text has (its gloss)
    ("typed", "permanent establishmnet", {}),
    ("typed", "pensons", {}),
    ("typed", "what is the withholding rate on interest", {}),
    ("typed", "股息如何征税", {}),
    ("typed", "養老金", {}),
)
#: Citations looked up with search.citations.cite; "{copy}" is a generated treaty id.
CITATIONS = (
    "br-pe-2006 Art. 10(2)",
    "Brazil–Peru Art. 10(2)(a)",
    "Artigo 10, parágrafo 2 da Convenção Brasil–Colômbia",
    "中国巴西协定第十条第二款",
    "artikel VII § 2 avtalet Sverige–Brasilien",
    "es-pt-1993 Art. 10(1)",
    "{copy} Art. 12(1)",
)

#: A query phase stops after this many seconds of timing (at least 3 rounds are kept).
PHASE_SECONDS = 90.0


def label(query: str, filters: dict) -> str:
    """How a query of the mix is named in the hit totals."""
    return f"{query} {filters or ''}".strip()


def interleaved(calls: Sequence[tuple[str, Callable[[], object]]], rounds: int
                ) -> dict[str, list[float]]:
    """Time every call `rounds` times, round-robin over the mix (after one warm-up each);
    stop early after PHASE_SECONDS (a slow engine at a large size). Milliseconds per key."""
    for _, fn in calls:
        fn()
    samples: dict[str, list[float]] = {}
    start = time.perf_counter()
    for i in range(rounds):
        if i >= 3 and time.perf_counter() - start > PHASE_SECONDS:
            break
        for cat, fn in calls:
            t = time.perf_counter()
            fn()
            samples.setdefault(cat, []).append((time.perf_counter() - t) * 1000)
    return samples


def p50_p95(values: Sequence[float]) -> dict[str, float]:
    return {"p50": round(pct_rank(values, 50), 2), "p95": round(pct_rank(values, 95), 2)}


def summary(samples: dict[str, list[float]]) -> dict:
    """p50 and p95 of all the samples, p95 without the fuzzy queries, and both per category."""
    every = [x for v in samples.values() for x in v]
    plain = [x for k, v in samples.items() if k != "fuzzy" for x in v]
    return {
        **p50_p95(every), "p95_no_fuzzy": round(pct_rank(plain, 95), 2),
        "by_category": {k: p50_p95(v) for k, v in samples.items()},
    }
