"""One reading-order stream per language: every line labelled (the long ones identified, the
short ones taking the language of the text around them), the document's languages kept, and
paragraphs broken by a page or column of another language joined back together."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import groupby
from operator import itemgetter

from indexer.clean import ends_sentence, is_heading, join_lines, starts_item
from indexer.languages.identify import LONG, OTHERS, PRIMARY, Detector, latin_of
from indexer.languages.scripts import CJK, letters_and_scripts
from indexer.models import Line


def split(
    lines: Sequence[Line], candidates: Sequence[str] | None = None
) -> dict[str, tuple[Line, ...]]:
    """One reading-order stream of lines per language, ordered by first appearance.

    Every input line ends up in exactly one stream with `lang` set; a paragraph interrupted by
    another language's page or column is joined into one Line (its start/end span the gap).
    """
    letters, scripts = letters_and_scripts([line.text for line in lines])
    detector = Detector()
    labels = _label_long(lines, candidates, letters, scripts, detector)
    _absorb_quotes(labels, letters, scripts)
    langs = document_languages(letters, labels, candidates)
    _label_short(lines, labels, langs, letters, detector)
    order: dict[str, list[tuple[int, Line]]] = {}
    for i, line in enumerate(lines):
        lang = labels[i] or (langs[0] if langs else "")
        order.setdefault(lang, []).append((i, replace(line, lang=lang)))
    return {lang: _stream(items) for lang, items in order.items()}


def document_languages(
    letter_counts: Sequence[int], labels: dict[int, str], candidates: Sequence[str] | None
) -> list[str]:
    """Languages with a real share of the text (>= 5 % of the identified letters, or a run of
    three or more consecutive paragraphs with 800+ letters): quoted foreign tax names or a
    stray misdetection do not make a version of their own."""
    counts = Counter(labels.values())
    letters = Counter(dict.fromkeys(counts, 0))  # (the same order of languages as counts)
    for i, lang in labels.items():
        letters[lang] += letter_counts[i]
    total = sum(letters.values())
    runs: Counter[str] = Counter()  # letters in the longest run of consecutive lines
    for lang, run in groupby(sorted(labels.items()), key=itemgetter(1)):
        sizes = [letter_counts[i] for i, _ in run]
        if len(sizes) >= 3:
            runs[lang] = max(runs[lang], sum(sizes))
    keep = [
        lang
        for lang, n in letters.most_common()
        if lang in CJK
        or (n >= 0.05 * total and counts[lang] >= 2)
        or runs[lang] >= 800
    ]
    if not keep and letters:
        keep = [letters.most_common(1)[0][0]]
    if candidates:
        keep = [lang for lang in keep if lang in candidates] or list(candidates)
    return keep


# --- long lines: identified on their own ----------------------------------------------------


def _label_long(lines: Sequence[Line], candidates: Sequence[str] | None,
                letters: Sequence[int], scripts: Sequence[str],
                detector: Detector) -> dict[int, str]:
    """Labels of the lines long enough to identify on their own: first among the candidates,
    then, but for long foreign passages, among the languages the document turned out to have."""
    long_ = [i for i in range(len(lines)) if letters[i] >= LONG or scripts[i]]
    sure = [i for i in long_ if letters[i] >= 2 * LONG] or long_
    first = _first_labels(lines, long_, sure, candidates, letters, scripts, detector)
    langs = document_languages(letters, {i: v for i, v in first.items() if v}, candidates)
    labels = {i: scripts[i] or first.get(i, "") for i in long_}
    _relabel(lines, labels, langs, letters, scripts, detector)
    return labels


def _first_labels(lines: Sequence[Line], long_: Sequence[int], sure: Sequence[int],
                  candidates: Sequence[str] | None, letters: Sequence[int],
                  scripts: Sequence[str], detector: Detector) -> dict[int, str]:
    """The `sure` lines' languages among the candidates, which decide the document's."""
    given = latin_of(candidates)
    if len(given) > 1:
        _rank_ahead(lines, long_, sure, candidates, given, letters, scripts, detector)
    return {i: detector.detect(lines[i].text, candidates, letters[i], scripts[i], given)
            for i in sure}


def _relabel(lines: Sequence[Line], labels: dict[int, str], langs: Sequence[str],
             letters: Sequence[int], scripts: Sequence[str], detector: Detector) -> None:
    """Identify the long lines again among the document's own languages `langs`, in place,
    but for those written in a script and the long foreign passages."""
    again = [i for i, lang in labels.items()
             if not scripts[i] and not _kept_foreign(lang, langs, letters[i])]
    latin = tuple(lang for lang in langs if lang not in CJK) or PRIMARY
    if len(latin) > 1:
        detector.ranks.rank([lines[i].text for i in again], latin)
    for i in again:
        labels[i] = detector.detect(lines[i].text, latin, letters[i], scripts[i], latin)


def _rank_ahead(lines: Sequence[Line], long_: Sequence[int], sure: Sequence[int],
                candidates: Sequence[str] | None, given: tuple[str, ...],
                letters: Sequence[int], scripts: Sequence[str], detector: Detector) -> None:
    """Rank together the lines `_first_labels` will rank, their features counted in one pass
    with the other long lines' (which `_relabel` ranks among the text's own languages when it
    has several)."""
    ranks = detector.ranks
    ranks.count([lines[i].text for i in long_ if not scripts[i]])
    ranks.rank([lines[i].text for i in sure if not scripts[i]], given)
    if candidates is None:
        ranks.rank([lines[i].text for i in sure if letters[i] >= 2 * LONG and not scripts[i]],
                   PRIMARY + OTHERS)


def _kept_foreign(lang: str, langs: Sequence[str], letters: int) -> bool:
    """Does a long line keep its first label `lang`, a language other than the document's
    (`langs`) and the primary ones, being long enough to be sure of it?"""
    return bool(lang) and lang not in langs and lang not in PRIMARY and letters >= 4 * LONG


#: A run of lines of one language inside another's text is a quotation (foreign tax names
#: listed in an article: "- de loonbelasting (wages tax),") below this many letters, as
#: `document_languages` needs 800 letters in a run before a language counts as a version ...
_QUOTE_LETTERS = 400
#: ... when the language around it has at least twice its letters beside it, or among the
#: labelled lines this close to it on either side (text alternating line by line has as much
#: of both).
_QUOTE_WINDOW = 12


def _absorb_quotes(labels: dict[int, str], letters: Sequence[int], scripts: Sequence[str]) -> None:
    """Give a short run of long lines labelled with one language, between lines of another
    language on both sides, the language around it when that language dominates the text
    near it, in place: a list of foreign names quoted inside an article is part of that
    article's version, not a passage of its own."""
    order = sorted(labels)
    while _absorb_pass(labels, letters, scripts, order):
        pass  # (an island absorbed can make the text near another one dominate)


def _absorb_pass(labels: dict[int, str], letters: Sequence[int], scripts: Sequence[str],
                 order: list[int]) -> bool:
    """One pass of `_absorb_quotes` over the runs of labels; whether it changed any."""
    changed = False
    runs = [(lang, [k for k, _ in run]) for lang, run in
            groupby(((k, labels[i]) for k, i in enumerate(order)), key=itemgetter(1))]
    for r in range(1, len(runs) - 1):
        lang, ks = runs[r]
        around = runs[r - 1][0]
        if around != runs[r + 1][0] or not around or around == lang:
            continue
        island = [order[k] for k in ks]
        if any(scripts[i] for i in island) or sum(letters[i] for i in island) >= _QUOTE_LETTERS:
            continue
        if _dominated(labels, letters, order, runs, r):
            for i in island:
                labels[i] = around
            changed = True
    return changed


def _dominated(labels: dict[int, str], letters: Sequence[int], order: list[int],
               runs: list[tuple[str, list[int]]], r: int) -> bool:
    """Is run `r` (of `runs`, positions in `order`) dominated by the language around it: both
    runs beside it at least twice its letters, or that language at least twice the island's
    among the labelled lines near it (an island beside another island)?"""
    size = [sum(letters[order[k]] for k in ks) for _, ks in runs[r - 1:r + 2]]
    if min(size[0], size[2]) >= 2 * size[1]:
        return True
    lang, ks = runs[r]
    share: Counter[str] = Counter()
    for i in order[max(0, ks[0] - _QUOTE_WINDOW):ks[-1] + 1 + _QUOTE_WINDOW]:
        share[labels[i]] += letters[i]
    return share[runs[r - 1][0]] >= 2 * share[lang]


# --- short lines: the language of the text around them -------------------------------------


def _label_short(lines: Sequence[Line], labels: dict[int, str], langs: Sequence[str],
                 letters: Sequence[int], detector: Detector) -> None:
    """Give every short line (heading, label, name, fragment) a language, in place: the
    language of its block's line before, or of the line introducing it, or of the long
    lines around it."""
    latin = [lang for lang in langs if lang not in CJK] or list(PRIMARY)
    default = Counter(labels.values()).most_common(1)[0][0] if labels else latin[0]
    next_long = _next_long(len(lines), labels)
    prev_long: int | None = None
    item_since = False  # does a line after `prev_long` (before this one) start an item?
    for i, line in enumerate(lines):
        if i in labels:
            prev_long, item_since = i, False
            continue
        structural = starts_item(line.text)  # (a heading starts an item)
        if not structural and i > 0 and lines[i - 1].block == line.block and i - 1 in labels:
            labels[i] = labels[i - 1]  # the rest of its block
        elif (not structural and not item_since and prev_long is not None
              and _introduces(lines[prev_long], line)):
            labels[i] = labels[prev_long]  # names under "For the Government of ...:"
        else:
            ahead = next_long[i + 1]
            cue = detector.cue_language(line.text, latin) if letters[i] else ""
            labels[i] = _between(
                line.text, cue, labels[ahead] if ahead is not None else None,
                labels[prev_long] if prev_long is not None else None, default)
        item_since = item_since or structural


def _next_long(n: int, labels: dict[int, str]) -> list[int | None]:
    """For each of `n` lines (and one past the last), the first labelled line from it on."""
    found: list[int | None] = [None] * (n + 1)
    for i in range(n - 1, -1, -1):
        found[i] = i if i in labels else found[i + 1]
    return found


def _introduces(prev: Line, line: Line) -> bool:
    """Does `prev`, a long line ending in a colon on `line`'s page, introduce `line`?"""
    return (prev.page == line.page and ends_sentence(prev.text)
            and prev.text.rstrip().endswith(":"))


def _between(text: str, cue: str, ahead: str | None, before: str | None,
             default: str) -> str:
    """The language of a short line from the long lines around it: the next one's (`ahead`),
    else the last one's (`before`), else its own `cue` or the document's `default`."""
    if ahead is not None:  # a heading takes the language of the text it opens ...
        if cue and cue != ahead and is_heading(text):
            return cue  # ... unless its own keyword says otherwise (column end)
        return ahead
    if before is not None:
        return before
    return cue or default


# --- streams -------------------------------------------------------------------------------


def _stream(items: Sequence[tuple[int, Line]]) -> tuple[Line, ...]:
    """One language's lines (with their index in the document), paragraphs broken by a page
    or column (of another language) joined back together."""
    stream: list[Line] = []
    last_index = -2
    for index, line in items:
        if stream:
            prev = stream[-1]
            interrupted = index > last_index + 1 or line.page != prev.page
            if _continues(prev, line, interrupted):
                stream[-1] = replace(prev, text=join_lines(prev.text, line.text),
                                     raw=f"{prev.raw}\n{line.raw}", end=line.end)
                last_index = index
                continue
        stream.append(line)
        last_index = index
    return tuple(stream)


def _title(line: Line) -> bool:
    """A short capitalised line on its own ("Agreement", "Avtal"): a heading, not a fragment."""
    words = line.text.split()
    return "\n" not in line.raw and len(words) <= 3 and line.text[:1].isupper()


def _continues(prev: Line, line: Line, streams_gap: bool) -> bool:
    """Is `line` the continuation of paragraph `prev` across a page or column break?"""
    # (every condition must hold: the cheapest are tested first)
    if not (streams_gap or (line.start > prev.end + 1 and ("\n" in prev.raw or "\n" in line.raw))):
        return False
    if not line.text[:1].islower():
        return False
    if ends_sentence(prev.text) or is_heading(prev.text) or _title(prev):
        return False
    if not streams_gap and prev.text.rstrip().endswith(",") and starts_item(prev.text):
        return False  # "b) …, " then "and in either case …": the list's end, not the item's
    return not starts_item(line.text, prev.text)
