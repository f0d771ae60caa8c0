"""Structure of one language version: title, preamble, articles (paragraphs, points),
closing, protocol items, and `other` for text that is not the treaty.

Input is one language stream of cleaned logical lines; every input line ends up in exactly
one top-level unit, in reading order. Article boundaries whose headings the print lost are
recovered by `indexer.segment.recover`.

Zones, in order of decision:

1. Article headings ("ARTICLE 10", "Artigo I", "第十条") are grouped into runs; numbering
   restarting at 1 starts a new run. The run that reads most like a tax treaty (topic
   evidence, treaty register) is the treaty; other runs (an unrelated regulation appended
   or prepended to the file) and the text around them become `other` (this module).
2. Around the treaty's articles: title (a line naming the instrument), preamble, then the
   body up to the closing formula ("In witness whereof", "EM TESTEMUNHO", "本协定于…签订"),
   signatures, an optional protocol with its items and its own closing (`treaty`; the
   articles: `articles`).
3. Text before the title and after the last closing that is not a protocol is `other`; so are
   unnumbered lines after an excerpt's last paragraph that do not read as treaty text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from indexer.models import Line, Unit
from indexer.segment.lines import CLOSING_RE, INSTRUMENT_RE, SIGNATURE_RE, Heading
from indexer.segment.stream import Stream, read_stream
from indexer.segment.treaty import treaty_units
from indexer.segment.units import unit
from indexer.topics import classify_title, normalise, treaty_register


def segment(lines: Sequence[Line], lang: str, *, article: int | None = None,
            topics: bool = True) -> tuple[Unit, ...]:
    """Top-level units of one language stream, in reading order (see module doc).

    `topics=False` leaves each article's topic to the caller (only a hint recovery found is
    kept): the ingest decides topics per treaty, over all language versions of an article
    (`pipeline.treaty.harmonise_topics`), and would overwrite the topic of every article here."""
    lines = list(lines)
    if not lines:
        return ()
    doc = read_stream(lines, lang, article=article, topics=topics)
    runs = _runs(doc.heads)
    main = _pick_main(runs, doc)
    if main is None:
        lo, hi, run = 0, len(lines), []
    else:
        (lo, hi), run = _main_region(runs, main, doc.texts), runs[main]
    units = _other_units(lines, 0, lo, "text before the treaty")
    units += treaty_units(doc, run, lo, hi)
    units += _other_units(lines, hi, len(lines), "text after the treaty")
    return _number_others(units)


def _other_units(lines: Sequence[Line], a: int, b: int, note: str) -> list[Unit]:
    chunk = list(lines[a:b])
    return [unit("other", "other", chunk, note=note)] if chunk else []


def _number_others(units: list[Unit]) -> tuple[Unit, ...]:
    out = []
    k = 0
    closing = 0
    for u in units:
        if u.kind == "other":
            k += 1
            u = replace(u, eid=f"other_{k}")
        elif u.kind == "closing":
            closing += 1
            u = replace(u, eid="closing" if closing == 1 else f"closing_{closing}")
        out.append(u)
    return tuple(out)


def _runs(heads: dict[int, Heading]) -> list[list[int]]:
    """Heading line indices grouped into runs of increasing numbers."""
    runs: list[list[int]] = []
    last = 0
    order = sorted(heads)
    for k, i in enumerate(order):
        n = heads[i].number
        if runs and n is not None and n > last + 3 and _resumes(heads, order[k + 1:], last):
            runs[-1].append(i)  # "Artikel 199" between 18 and 20: a misprint inside the run
            continue
        if runs and (n is None or n > last or (n == last and re.search(r"[A-Za-z]$", heads[i].label))):
            runs[-1].append(i)
        elif runs and n is not None and n < last and n != 1 and last - n < 3:
            runs[-1].append(i)  # an OCR misreading inside the run, resolved later
        else:
            runs.append([i])
        if n is not None:
            last = max(last, n) if runs[-1] != [i] else n
    return runs


def _resumes(heads: dict[int, Heading], after: list[int], last: int) -> bool:
    """Does the next numbered heading of `after` go on from number `last` (within 3)?"""
    n = next((heads[i].number for i in after if heads[i].number is not None), None)
    return n is not None and last < n <= last + 3


def _pick_main(runs: list[list[int]], doc: Stream) -> int | None:
    """Index of the run that is the treaty: most articles that read as tax-treaty topics.

    An article adds at most `_ARTICLE_MAX` to its run's total (1.0 for topic evidence, 0.3
    for treaty register), so runs are weighed longest first and a run stops being weighed
    as soon as even full marks for its remaining articles could not beat the best total
    found: it cannot be the treaty (the treaty's total is always weighed in full)."""
    if not runs:
        return None
    if len(runs) == 1:
        return 0  # nothing to choose from: the scores below would not matter
    best: tuple[float, int, int] | None = None
    for r in sorted(range(len(runs)), key=lambda r: (-len(runs[r]), r)):
        run = runs[r]
        total = 0.0
        for j in range(len(run)):
            if best is not None and total + _ARTICLE_MAX * (len(run) - j) < best[0] - 1e-9:
                break  # even full marks for the rest would lose
            total += _treaty_likeness(doc, run, j)
        else:
            if best is None or (total, len(run), r) > best:
                best = (total, len(run), r)
    assert best is not None  # the longest run is always weighed in full
    return best[2]


#: The most one article adds to its run's total in `_pick_main`.
_ARTICLE_MAX = 1.3


def _treaty_likeness(doc: Stream, run: list[int], j: int) -> float:
    """What article `run[j]` adds to its run's total in `_pick_main`: its topic evidence (up
    to 1.0) and its treaty register (up to 0.3)."""
    texts, i = doc.texts, run[j]
    end = run[j + 1] if j + 1 < len(run) else min(len(texts), i + 40)
    if classify_title(doc.heads[i].title) is not None:  # = `classify(title, "", lang)`
        topic = 1.0
    else:
        s = normalise(doc.scores.raw(i, end))  # `score_all` of the lines joined
        topic = max(s.values(), default=0.0)
    return topic + 0.3 * min(1.0, treaty_register("\n".join(texts[i:end]), doc.lang) / 3.0)


def _walk_back(texts: Sequence[str], i: int, floor: int) -> int:
    """First line of the title block above line i (short heading-like lines)."""
    j = i
    while j - 1 >= floor:
        t = texts[j - 1].strip()
        if not t:
            j -= 1
            continue
        if SIGNATURE_RE.search(t) or CLOSING_RE.match(t) or len(t) > 120:
            break
        if t.endswith(("。", ".", ";", "；")) and not t.startswith(("（", "(")):
            break
        j -= 1
    return j


def _main_region(runs: list[list[int]], main: int, texts: Sequence[str]) -> tuple[int, int]:
    """[start, end) of the text the treaty's run `runs[main]` owns: from its title (or the
    title block above its first heading) to where the next run's title block starts."""
    run = runs[main]
    floor = runs[main - 1][-1] + 1 if main > 0 else 0
    title = next((j for j in range(floor, run[0]) if INSTRUMENT_RE.search(texts[j])), None)
    start = title if title is not None else (floor if main == 0 else _walk_back(texts, run[0], floor))
    if main + 1 == len(runs):
        return start, len(texts)
    return start, _walk_back(texts, runs[main + 1][0], run[-1] + 1)
