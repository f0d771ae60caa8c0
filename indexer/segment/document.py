"""Structure of one language version: title, preamble, articles (paragraphs, points),
closing, protocol items, and `other` for text that is not the treaty.

Input is one language stream of cleaned logical lines; every input line ends up in exactly
one top-level unit, in reading order. Article boundaries whose headings the print lost are
recovered by `indexer.segment.recover`.

Zones, in order of decision:

1. Article headings ("ARTICLE 10", "Artigo I", "第十条") are grouped into runs; numbering
   restarting at 1 starts a new run. The run that reads most like a tax treaty (topic
   evidence, treaty register) is the treaty; other runs (an unrelated regulation appended
   or prepended to the file) and the text around them become `other`.
2. Around the treaty's articles: title (a line naming the instrument), preamble, then the
   body up to the closing formula ("In witness whereof", "EM TESTEMUNHO", "本协定于…签订"),
   signatures, an optional protocol with its items and its own closing.
3. Text before the title and after the last closing that is not a protocol is `other`; so are
   unnumbered lines after an excerpt's last paragraph that do not read as treaty text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from indexer.segment.body import Para, ends_colon, parse_body
from indexer.models import Line, Unit, copy_with, make
from indexer.segment.numerals import (
    article_heading_re,
    article_heading_zh_re,
    article_reference_re,
    chapter_heading_re,
    paragraph_label,
    parse_label,
    point_labels,
)
from indexer.segment.recover import Anchor, find_references, heading_like, recover, top_of, top_para
from indexer.topics import LineScores, classify_title, normalise, treaty_register

Label = tuple[str, int, int]  # a `paragraph_label`: style, value, end
# ---------------------------------------------------------------------------------------------
# Line grammars
# ---------------------------------------------------------------------------------------------

_PROTOCOL_RE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:additional\s+|protocolo\s+adicional|tilläggs)?"
    r"(?:PROTOCOL|Protocol|PROTOCOLO|Protocolo|PROTOKOLL|Protokoll|P\sR\sO\sT\sO\sC\sO\sL|议定书)"
    r"\s*(?:\w{0,3})?\s*$"
)
_CLOSING_RE = re.compile(
    r"^\s*(?:in\s+witness\s+whereof|in\s+faith\s+whereof|em\s+testemunho|em\s+fé\s+do\s+que"
    r"|till\s+bekräftelse|till\s+bevis|done\s+(?:at|in|in\s+duplicate)\b|feito\s+(?:em|na|no)\b"
    r"|som\s+skedde|本(?:协定|议定书|公约)于.{0,40}(?:签订|签署)|下列签字人|以昭信守)",
    re.IGNORECASE,
)
_SIGNATURE_RE = re.compile(
    r"\||_{3,}|签字|签名|代\s*表|\(s\.\)|\(sgd|\bfor\s+the\b|\bpel[oa]\b|\bpor\s+el\b|^\s*för\b",
    re.IGNORECASE,
)
_INSTRUMENT_RE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:the\s+)?(?:convention|agreement|avtal|konvention|convenção|acordo"
    r"|conven[cç][aã]o|acuerdo|convenio|överenskommelse)\b"
    r"|^[^，。：；]{0,60}(?:协定|公约)[^，。：；]{0,20}$",
    re.IGNORECASE,
)
_AGREED_RE = re.compile(
    r"(?:agreed\s+as\s+follows|have\s+agreed|acordaram|convieram|överenskommit|har\s+kommit\s+överens"
    r"|达成协议如下|协议如下|议定如下)",
    re.IGNORECASE,
)
_REFERS_RE = re.compile(
    r"(?:with\s+reference\s+to|ad|com\s+referência\s+ao?|em\s+relação\s+ao?|relativamente\s+ao?"
    r"|beträffande|till|关于|on|in)\s+(?:the\s+)?(?:Article|Artigo|artigo|Artikel|artikel|Art\.)?\s*"
    r"(?P<label>\d{1,3}|[IVXL]{1,6})\b|关于第(?P<zlabel>[一二三四五六七八九十百0-9]{1,5})条",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Heading:
    label: str
    number: int | None
    title: str  # printed on the heading line ("" when none)
    inline_text: bool  # the rest of the line is the article's first sentence, not a title


def article_heading(text: str) -> Heading | None:
    """An article heading line, or None. The rest of the line is a title when heading-like,
    else (Chinese regulations: "第一条 为加强…") the article's first sentence."""
    m = article_heading_re().match(text) or article_heading_zh_re().match(text)
    if not m:
        return _garbled_heading(text)
    label, rest = m.group("label"), m.group("title") or ""
    if rest and not heading_like(rest, 120):
        if article_heading_zh_re().match(text):
            return Heading(label, parse_label(label), "", True)
        return None  # "Article 5 of the Convention shall…": a sentence, not a heading
    return Heading(label, parse_label(label), rest, False)


_HEADING_WORDS = ("article", "artigo", "artikel", "articulo")
_GARBLED_RE = re.compile(r"(?P<word>.*?[^\W\d_].*?)\s*(?P<label>[IVXLC]{1,6}|\d{1,3})\s*\.?")
_NOT_WORD_LETTER_RE = re.compile(r"[^a-zåäöéíç]")
_ROMAN_LABEL_CHARS = "IVXLC"


def _garbled_heading(text: str) -> Heading | None:
    """A short line that is an OCR-garbled article heading: ".4 rtigo IX", "År tig o XI",
    "Artic1e 5" -- letters within two edits of an article word, then a label."""
    s = text.strip()
    if len(s) > 24:
        return None
    # `_GARBLED_RE` needs a label at the end (before blanks and one "."): checked first,
    # as the lazy word group makes a failing match backtrack over the whole line
    end = s.removesuffix(".").rstrip()[-1:]
    if not end or not (end in _ROMAN_LABEL_CHARS or end.isdecimal()):
        return None
    m = _GARBLED_RE.fullmatch(s)
    if not m:
        return None
    if m.group("word").lstrip(" .,")[:1].islower():
        return None  # "…enligt\nartikel 2.": the tail of a sentence, not a heading
    word = _NOT_WORD_LETTER_RE.sub("", m.group("word").lower())
    if len(word) < 4 or all(Levenshtein.distance(word, w, score_cutoff=2) > 2 for w in _HEADING_WORDS):
        return None
    label = m.group("label")
    return Heading(label, parse_label(label), "", False)


def is_chapter(text: str) -> bool:
    return bool(chapter_heading_re().match(text)) and len(text.strip()) < 120


# ---------------------------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------------------------


def _unit(eid: str, kind: str, lines: Sequence[Line], **kw: object) -> Unit:
    return make(
        Unit,
        eid=eid,
        kind=kind,
        text="\n".join([ln.text for ln in lines]),
        raw="\n".join([ln.raw for ln in lines]),
        start=min([ln.start for ln in lines]),
        end=max([ln.end for ln in lines]),
        **kw,
    )


def _paragraph_units(prefix: str, lines: Sequence[Line], body: Sequence[int], labels: Sequence[Label | None],
                     *, implicit: bool) -> tuple[Unit, ...]:
    """Paragraph units (with point children) for the body lines `body` (indices into lines;
    `labels`: `paragraph_label` of every line)."""
    if not body:
        return ()
    lead, paras = parse_body([lines[i].text for i in body], [labels[i] for i in body])
    if not paras:
        paras = [Para(None, None, list(range(len(body))))]
        lead = []
    elif lead:
        paras[0].lines[:0] = lead
    if not implicit and len(paras) == 1 and paras[0].num is None and not paras[0].points:
        return ()
    units = []
    seen: set[str] = set()
    for k, p in enumerate(paras, 1):
        base = f"{prefix}__para_{p.value if p.value is not None and p.num is not None else k}"
        eid = base
        while eid in seen:
            eid += "_"
        seen.add(eid)
        children = []
        seen_pts: set[str] = set()
        for num, idx in p.points:
            peid = f"{eid}__point_{num}"
            while peid in seen_pts:
                peid += "_"
            seen_pts.add(peid)
            children.append(_unit(peid, "point", [lines[body[j]] for j in sorted(set(idx))], num=num))
        units.append(
            _unit(eid, "paragraph", [lines[body[j]] for j in sorted(set(p.lines))], num=p.num,
                  children=tuple(children))
        )
    return tuple(units)


def segment(lines: Sequence[Line], lang: str, *, article: int | None = None,
            topics: bool = True) -> tuple[Unit, ...]:
    """Top-level units of one language stream, in reading order (see module doc).

    `topics=False` leaves each article's topic to the caller (only a hint recovery found is
    kept): the ingest decides topics per treaty, over all language versions of an article
    (`pipeline._harmonise_topics`), and would overwrite the topic of every article here."""
    lines = list(lines)
    if not lines:
        return ()
    texts = [ln.text for ln in lines]
    heads = {i: h for i, t in enumerate(texts) if (h := article_heading(t)) is not None}
    runs = _runs(heads)
    # topic evidence of this version's lines (without topics, nothing reads the line
    # hits of `line_raws` again)
    scores = LineScores(texts, lang, keep_line_hits=topics)
    main = _pick_main(runs, heads, texts, lang, scores)
    regions = _regions(runs, main, texts, heads)
    units: list[Unit] = []
    # lines outside the main treaty region
    main_lo, main_hi = regions[main] if main is not None else (0, len(lines))
    labels = [paragraph_label(t) for t in texts]  # each line's, once for the document
    body_units = _treaty(lines, texts, heads, runs[main] if main is not None else [], main_lo, main_hi,
                         lang, article, scores, labels, topics)
    other_spans: list[tuple[int, int, str]] = []
    if main_lo > 0:
        other_spans.append((0, main_lo, "text before the treaty"))
    if main_hi < len(lines):
        other_spans.append((main_hi, len(lines), "text after the treaty"))
    pre = [u for u in (_other_units(lines, a, b, note) for a, b, note in other_spans if a == 0)]
    post = [u for u in (_other_units(lines, a, b, note) for a, b, note in other_spans if a != 0)]
    for u in pre:
        units.extend(u)
    units.extend(body_units)
    for u in post:
        units.extend(u)
    return _number_others(units)


def _other_units(lines: Sequence[Line], a: int, b: int, note: str) -> list[Unit]:
    chunk = [ln for ln in lines[a:b]]
    return [_unit("other", "other", chunk, note=note)] if chunk else []


def _number_others(units: list[Unit]) -> tuple[Unit, ...]:
    out = []
    k = 0
    closing = 0
    for u in units:
        if u.kind == "other":
            k += 1
            u = copy_with(u, eid=f"other_{k}")
        elif u.kind == "closing":
            closing += 1
            u = copy_with(u, eid="closing" if closing == 1 else f"closing_{closing}")
        out.append(u)
    return tuple(out)


def _runs(heads: dict[int, Heading]) -> list[list[int]]:
    """Heading line indices grouped into runs of increasing numbers."""
    runs: list[list[int]] = []
    last = 0
    for i in sorted(heads):
        n = heads[i].number
        if runs and (n is None or n > last or (n == last and re.search(r"[A-Za-z]$", heads[i].label))):
            runs[-1].append(i)
        elif runs and n is not None and n < last and n != 1 and last - n < 3:
            runs[-1].append(i)  # an OCR misreading inside the run, resolved later
        else:
            runs.append([i])
        if n is not None:
            last = max(last, n) if runs[-1] != [i] else n
    return runs


def _pick_main(runs: list[list[int]], heads: dict[int, Heading], texts: Sequence[str], lang: str,
               scores: LineScores) -> int | None:
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
        for j, i in enumerate(run):
            if best is not None and total + _ARTICLE_MAX * (len(run) - j) < best[0] - 1e-9:
                break  # even full marks for the rest would lose
            end = run[j + 1] if j + 1 < len(run) else min(len(texts), i + 40)
            if classify_title(heads[i].title) is not None:  # = `classify(title, "", lang)`
                total += 1.0
            else:
                s = normalise(scores.raw(i, end))  # `score_all` of the lines joined
                total += max(s.values(), default=0.0)
            total += 0.3 * min(1.0, treaty_register("\n".join(texts[i:end]), lang) / 3.0)
        else:
            if best is None or (total, len(run), r) > best:
                best = (total, len(run), r)
    assert best is not None  # the longest run is always weighed in full
    return best[2]


#: The most one article adds to its run's total in `_pick_main`.
_ARTICLE_MAX = 1.3


def _walk_back(texts: Sequence[str], i: int, floor: int) -> int:
    """First line of the title block above line i (short heading-like lines)."""
    j = i
    while j - 1 >= floor:
        t = texts[j - 1].strip()
        if not t:
            j -= 1
            continue
        if _SIGNATURE_RE.search(t) or _CLOSING_RE.match(t) or len(t) > 120:
            break
        if t.endswith(("。", ".", ";", "；")) and not t.startswith(("（", "(")):
            break
        j -= 1
    return j


def _regions(runs: list[list[int]], main: int | None, texts: Sequence[str], heads: dict[int, Heading]) -> dict[int, tuple[int, int]]:
    """[start, end) of the text each run owns."""
    starts = []
    for r, run in enumerate(runs):
        floor = runs[r - 1][-1] + 1 if r > 0 else 0
        if r == main:
            title = next((j for j in range(floor, run[0]) if _INSTRUMENT_RE.search(texts[j])), None)
            starts.append(title if title is not None else (floor if r == 0 else _walk_back(texts, run[0], floor)))
        else:
            starts.append(_walk_back(texts, run[0], floor))
    out = {}
    for r in range(len(runs)):
        end = starts[r + 1] if r + 1 < len(runs) else len(texts)
        out[r] = (starts[r], end)
    return out


def _treaty(lines: Sequence[Line], texts: Sequence[str], heads: dict[int, Heading], run: list[int],
            lo: int, hi: int, lang: str, article: int | None, scores: LineScores,
            labels: Sequence[Label | None], topics: bool = True) -> list[Unit]:
    """Units of the treaty region [lo, hi), other runs already removed (`labels`:
    `paragraph_label` of every line)."""
    # closing formula after the last article heading (or anywhere when none)
    last_head = run[-1] if run else lo
    closing = next((j for j in range(last_head, hi) if _CLOSING_RE.match(texts[j])), None)
    proto = next((j for j in range(last_head, hi) if _PROTOCOL_RE.match(texts[j])), None)
    body_end = min(x for x in (closing, proto, hi) if x is not None)
    # front matter and the body's first line
    if run:
        body_start = run[0]
        while body_start - 1 >= lo and is_chapter(texts[body_start - 1]) or (
            body_start - 2 >= lo and is_chapter(texts[body_start - 2]) and heading_like(texts[body_start - 1])):
            body_start -= 1 if is_chapter(texts[body_start - 1]) else 2
    else:
        agreed = next((j for j in range(lo, body_end) if _AGREED_RE.search(texts[j]) and ends_colon(texts[j])), None)
        first_para = next((j for j in range(lo, body_end) if top_of(labels[j]) or is_chapter(texts[j])), body_end)
        body_start = agreed + 1 if agreed is not None else first_para
    units: list[Unit] = []
    title_idx = next((j for j in range(lo, body_start) if _INSTRUMENT_RE.search(texts[j])), None)
    if title_idx is not None:
        if title_idx > lo:
            units.append(_unit("other", "other", lines[lo:title_idx], note="text before the treaty title"))
        t_end = title_idx + 1
        while t_end < body_start and _title_continues(texts[t_end]):
            t_end += 1
        units.append(_unit("title", "title", lines[title_idx:t_end]))
        if t_end < body_start:
            units.append(_unit("preamble", "preamble", lines[t_end:body_start]))
    elif body_start > lo:
        units.append(_unit("preamble", "preamble", lines[lo:body_start]))
    has_front = body_start > lo
    # the body
    body_units, tail = _articles(lines, texts, heads, run, body_start, body_end, lang, article, has_front,
                                  closed=body_end < hi, scores=scores, labels=labels,
                                  topics=topics)
    units.extend(body_units)
    if tail is not None and tail < body_end:
        units.append(_unit("other", "other", lines[tail:body_end], note="not treaty text"))
    # closing, protocol, protocol closing
    j = body_end
    while j < hi:
        if _PROTOCOL_RE.match(texts[j]):
            end = next((k for k in range(j + 1, hi) if _CLOSING_RE.match(texts[k])), hi)
            units.extend(_protocol(lines, texts, j, end, labels))
            j = end
        elif _CLOSING_RE.match(texts[j]):
            end = _closing_end(texts, j, hi)
            units.append(_unit("closing", "closing", lines[j:end]))
            j = end
        else:
            end = next((k for k in range(j + 1, hi) if _PROTOCOL_RE.match(texts[k]) or _CLOSING_RE.match(texts[k])), hi)
            units.append(_unit("other", "other", lines[j:end], note="text after the closing"))
            j = end
    return units


def _title_continues(text: str) -> bool:
    s = text.strip()
    if not s or len(s) > 160 or _AGREED_RE.search(s):
        return False
    letters = [c for c in s if c.isalpha()]
    upper = letters and sum(c.isupper() for c in letters) / len(letters) > 0.8
    cjk = any("\u4e00" <= c <= "\u9fff" for c in s) and not re.search(r"[，。：；]", s)
    return bool(upper or s[0].islower() or cjk or _INSTRUMENT_RE.search(s))


def _closing_end(texts: Sequence[str], j: int, hi: int) -> int:
    """End of a closing formula and its signature block."""
    last = j
    k = j + 1
    while k < hi:
        t = texts[k].strip()
        if _PROTOCOL_RE.match(t) or article_heading(t):
            break
        if _CLOSING_RE.match(t) or _SIGNATURE_RE.search(t) or len(t) <= 80:
            last = k
        elif len(t) > 160 and k - last > 0:
            break
        else:
            last = k
        k += 1
    return last + 1


def _protocol(lines: Sequence[Line], texts: Sequence[str], j: int, end: int,
              labels: Sequence[Label | None]) -> list[Unit]:
    """Protocol heading and intro (eid "protocol") and its items prot_1, prot_2 …"""
    items: list[int] = []
    expected = 1
    for k in range(j + 1, end):
        pl = labels[k]
        ad = not pl and re.match(r"^\s*ad\s+art", texts[k], re.IGNORECASE)
        if (pl and pl[1] == expected) or ad:
            items.append(k)
            expected += 1
    out = [_unit("protocol", "protocol", lines[j:items[0] if items else end])]
    for n, k in enumerate(items, 1):
        stop = items[n] if n < len(items) else end
        refers = None
        m = _REFERS_RE.search(texts[k]) or article_reference_re().search(texts[k])
        if m:
            label = m.group("label") or m.group("zlabel")
            refers = parse_label(label) if label else None
        children = _paragraph_units(f"prot_{n}", lines, list(range(k + 1, stop)), labels, implicit=False)
        out.append(_unit(f"prot_{n}", "protocol", lines[k:stop], number=n, refers_to=refers,
                         children=children))
    return out


def _articles(lines: Sequence[Line], texts: Sequence[str], heads: dict[int, Heading], run: list[int],
              lo: int, hi: int, lang: str, article: int | None, has_front: bool, closed: bool,
              scores: LineScores, labels: Sequence[Label | None], topics: bool = True
              ) -> tuple[list[Unit], int | None]:
    """Article units for body [lo, hi); also where non-treaty trailing text starts, if any."""
    if hi <= lo:
        return [], None
    body = list(texts[lo:hi])
    # trailing lines that do not continue the treaty (an editor's note after an excerpt)
    tail = _tail_other(body, lang) if closed is False else None
    if tail is not None:
        body = body[:tail]
    anchors = []
    for i in run:
        if not lo <= i < lo + len(body):
            continue
        k = i - lo
        # a chapter heading (and its title) directly above an article heading opens it
        if k >= 1 and is_chapter(body[k - 1]):
            k -= 1
        elif k >= 2 and is_chapter(body[k - 2]) and heading_like(body[k - 1]):
            k -= 2
        anchors.append(Anchor(k, heads[i].number, heads[i].label))
    forced = [i for i, t in enumerate(body) if is_chapter(t) and not any(a.index == i for a in anchors)]
    refs = find_references(texts)
    first = article if article is not None else (1 if has_front else None)
    raw = scores.line_raws(lo, lo + len(body))  # each line's `raw_scores`
    spans = recover(body, lang, anchors, forced, first_number=first, refs=refs, raw=raw,
                    labels=labels[lo:lo + len(body)])
    units = []
    chapter: str | None = None
    seen: set[str] = set()
    for sp in spans:
        idx = list(range(lo + sp.start, lo + sp.end))
        k = 0
        # chapter heading (and its title line) at the top of the article
        while k < len(idx) and is_chapter(texts[idx[k]]):
            chapter = _chapter_label(texts[idx[k]])
            k += 1
            if k < len(idx) and heading_like(texts[idx[k]]) and not article_heading(texts[idx[k]]):
                chapter += " – " + texts[idx[k]].strip()
                k += 1
        title = None
        head = heads.get(idx[k]) if k < len(idx) else None
        if head is not None:
            title = head.title or None
            k += 1
            nxt = texts[idx[k + 1]] if k + 1 < len(idx) else ""
            if (not title and not head.inline_text and k < len(idx) and heading_like(texts[idx[k]])
                    and not point_labels(nxt)):
                title = texts[idx[k]].strip()
                k += 1
        body_idx = idx[k:]
        if head is not None and head.inline_text:
            body_idx = [idx[k - 1]] + body_idx  # "第一条 为加强…": the heading line is text too
        topic = scores.classify(title, lo + sp.start + k, lo + sp.end)[0] if topics else None
        eid = f"art_{sp.number}"
        if sp.label and re.search(r"[A-Za-z]$", sp.label) and re.match(r"\d", sp.label):
            eid += sp.label[-1].lower()
        while eid in seen:
            eid += "_"
        seen.add(eid)
        children = _paragraph_units(eid, lines, body_idx, labels, implicit=True)
        units.append(_unit(eid, "article", [lines[i] for i in idx], number=sp.number, label=sp.label,
                           title=title, topic=topic or sp.topic_hint, number_inferred=sp.inferred,
                           chapter=chapter, children=children))
    return units, (lo + tail if tail is not None else None)


def _chapter_label(text: str) -> str:
    """"C H A P T E R III" -> "Chapter III"; "第一章 总则" -> "第一章 总则"."""
    m = chapter_heading_re().match(text)
    if m is None:
        return text.strip()
    if m.group("zlabel"):
        return text.strip()
    label = m.group("label").replace(" ", "")
    title = m.group("title")
    return f"Chapter {label}" + (f" – {title}" if title else "")


def _tail_other(body: Sequence[str], lang: str) -> int | None:
    """Index of the first trailing line that is not treaty text: unnumbered lines after the
    last numbered paragraph that score low on treaty register (first person, editorial)."""
    last_num = max((i for i, t in enumerate(body) if top_para(t) or point_labels(t) or article_heading(t)), default=None)
    if last_num is None:
        return None
    for i in range(last_num + 1, len(body)):
        if treaty_register(body[i], lang) <= 0:
            return i
    return None
