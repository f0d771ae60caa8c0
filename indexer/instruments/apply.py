"""Operations applied to one language version's units, giving the version as amended.

`apply(units, steps, lang)` takes the version's top-level units and the operations of its
later instruments in date order ((instrument id, date, operation) steps) and returns the
units as amended, with one `Step` per operation: what it did ("applied", or why not) and,
for the top-level unit it changed, the unit before and after. New text is segmented by the
segment stage itself (`indexer.segment.segment`), so an article or paragraph brought by a
protocol has its paragraphs and points as any other; a unit a protocol made or changed
keeps that protocol's id in `Step.instrument`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from indexer.instruments.model import Operation, Target
from indexer.models import Line, Unit


@dataclass(frozen=True)
class Step:
    """What one operation did to the version: `status` "applied", "understanding" or "not
    applied: …"; `before` and `after` the top-level unit it changed (None: there was none,
    or there is none any more)."""

    instrument: str
    date: str | None
    op: Operation
    status: str
    eid: str | None = None  # the unit it changed (or would have)
    before: Unit | None = None
    after: Unit | None = None


def _segmented(new: Sequence[str], lang: str, start: int, article: int | None = None
               ) -> tuple[Unit, ...]:
    from indexer.segment import segment

    lines = [Line(text=t, raw=t, start=start + k, end=start + k, lang=lang)
             for k, t in enumerate(new)]
    return segment(lines, lang, article=article, topics=False)


def _reeid(unit: Unit, old: str, new: str) -> Unit:
    """`unit` and its descendants with the eId prefix `old` made `new`."""
    eid = new + unit.eid[len(old):] if unit.eid.startswith(old) else unit.eid
    return replace(unit, eid=eid, children=tuple(_reeid(c, old, new) for c in unit.children))


def _fresh(unit: Unit, start: int, end: int) -> Unit:
    """A unit made from an instrument's text: its raw is its text, it has no OCR repairs, and
    it spans the instrument's lines."""
    return replace(unit, raw=unit.text, changes=(), start=start, end=end,
                   children=tuple(_fresh(c, start, end) for c in unit.children))


def _with_label(new: Sequence[str], label: str, style: str) -> list[str]:
    """`new` with its first line labelled ("2. …", "a) …") when the print left it out."""
    lines = list(new)
    if lines and not lines[0].lstrip().startswith((f"{label}.", f"{label})", f"({label})",
                                                   f"{label} ", f"§ {label}")):
        lines[0] = f"{label}{style} {lines[0].lstrip()}"
    return lines


def _article(op: Operation, lang: str, old: Unit | None, span: tuple[int, int]) -> Unit | None:
    """The article an operation's new text is (headed or not)."""
    target = op.target
    if target is None or target.number is None or not op.new:
        return None
    lines = list(op.new)
    if _heading(lines[0]) is None:  # the new text begins with its title or its first paragraph
        lines.insert(0, f"{_ARTICLE_WORD.get(lang, 'Article')} {target.article}")
    found = [u for u in _segmented(lines, lang, span[0], article=target.number)
             if u.kind == "article"]
    if not found:
        return None
    unit = found[0]
    eid = target.article_eid
    unit = _reeid(unit, unit.eid, eid)
    topic = old.topic if old is not None else _topic_of(unit, lang)
    return _fresh(replace(unit, number=target.number, label=target.article, topic=topic,
                          chapter=old.chapter if old is not None else None,
                          number_inferred=False), *span)


#: The word that heads an article in each language, for a new text that has no heading.
_ARTICLE_WORD = {"en": "Article", "pt": "Artigo", "sv": "Artikel"}


def _heading(text: str) -> str | None:
    from indexer.instruments.clauses import parse_target

    head = text.strip()[:40]
    t = parse_target(head)
    return t.article if t is not None and head.lower().startswith(("art", "第")) else None


def _topic_of(unit: Unit, lang: str) -> str | None:
    from indexer.topics import classify_title

    return classify_title(unit.title) if unit.title else None


def _paragraph(op: Operation, lang: str, span: tuple[int, int]) -> Unit | None:
    target = op.target
    if target is None or target.paragraph is None or target.number is None or not op.new:
        return None
    lines = _with_label(op.new, target.paragraph, ".")
    units = _segmented([f"Article {target.number}", *lines], lang, span[0])
    paras = [c for u in units if u.kind == "article" for c in u.children if c.kind == "paragraph"]
    if not paras:
        return None
    eid = f"{target.article_eid}__para_{target.paragraph}"
    # (a text the segmenter cut in two, "… shall not exceed:", "a) …", "This paragraph …":
    # one paragraph, as the clause says)
    children = tuple(_reeid(c, c.eid.rsplit("__", 1)[0], eid) for p in paras for c in p.children)
    para = replace(paras[0], eid=eid, num=target.paragraph, children=children,
                   text="\n".join(p.text for p in paras))
    return _fresh(para, *span)


def _point(op: Operation, parent: str, span: tuple[int, int]) -> Unit | None:
    target = op.target
    if target is None or target.point is None or not op.new:
        return None
    lines = _with_label(op.new, target.point, ")")
    text = "\n".join(lines)
    return Unit(eid=f"{parent}__point_{target.point}", kind="point", text=text, raw=text,
                start=span[0], end=span[1], num=target.point)


# --- a unit's children changed: its text follows ---------------------------------------------

def _head_text(unit: Unit) -> str:
    """A unit's text before its first child's."""
    if not unit.children:
        return unit.text
    at = unit.text.find(unit.children[0].text)
    return unit.text[:at].rstrip("\n") if at > 0 else ""


def _rebuilt(unit: Unit, children: Sequence[Unit], old: Unit | None, new: Unit | None) -> Unit:
    """`unit` with `children`; its text has `old`'s text made `new`'s where it can be
    found, else is its head and its children's texts."""
    text = unit.text
    if old is not None and new is not None and old.text and old.text in text:
        text = text.replace(old.text, new.text, 1)
    elif old is not None and new is None and old.text and old.text in text:
        text = text.replace(old.text, "", 1).replace("\n\n", "\n").strip("\n")
    else:
        text = "\n".join(x for x in [_head_text(unit), *(c.text for c in children)] if x)
    raw = unit.raw if text == unit.text else text
    return replace(unit, children=tuple(children), text=text, raw=raw, changes=())


def _edit(unit: Unit, eid: str, fn) -> Unit | None:
    """`unit` with its descendant `eid` made `fn(descendant)` (None: removed); None when it
    has no such descendant (`unit` itself is never `eid`)."""
    for k, child in enumerate(unit.children):
        if child.eid.rstrip("_") == eid:
            new = fn(child)
            children = list(unit.children)
            if new is None:
                del children[k]
            else:
                children[k] = new
            return _rebuilt(unit, children, child, new)
        if eid.startswith(child.eid.rstrip("_") + "__"):
            return _with_child(unit, k, _edit(child, eid, fn))
    return None


def _insert_child(unit: Unit, new: Unit, parent: str) -> Unit | None:
    """`unit` with `new` added to its descendant `parent` (or to itself), in order of its
    number."""
    if unit.eid.rstrip("_") == parent:
        children = list(unit.children)
        at = len(children)
        key = _order(new.num)
        for k, c in enumerate(children):
            if c.kind == new.kind and _order(c.num) > key:
                at = k
                break
        children.insert(at, new)
        text = unit.text
        if at < len(unit.children) and unit.children[at].text in text:
            i = text.find(unit.children[at].text)
            text = text[:i] + new.text + "\n" + text[i:]
        else:
            last = unit.children[-1].text if unit.children else ""
            i = text.find(last) + len(last) if last and last in text else len(text)
            text = text[:i].rstrip("\n") + "\n" + new.text + text[i:]
        return replace(unit, children=tuple(children), text=text, raw=text, changes=())
    for k, child in enumerate(unit.children):
        if parent.startswith(child.eid.rstrip("_")):
            return _with_child(unit, k, _insert_child(child, new, parent))
    return None


def _with_child(unit: Unit, k: int, new_child: Unit | None) -> Unit | None:
    """`unit` with its child `k` replaced by `new_child` (None: the edit below it failed)."""
    if new_child is None:
        return None
    children = list(unit.children)
    child, children[k] = children[k], new_child
    return _rebuilt(unit, children, child, new_child)


def _order(num: str | None) -> tuple[int, str]:
    if num is None:
        return (0, "")
    return (int(num), "") if num.isdigit() else (1000, num)


def _words(unit: Unit, old: str, new: str | None) -> Unit | None:
    """`unit` with the words `old` made `new` (None: deleted) in it and its descendants;
    None when its text does not hold them."""
    if old not in unit.text:
        return None
    to = new if new is not None else ""

    def fix(u: Unit) -> Unit:
        text = u.text.replace(old, to)
        if new is None:
            text = text.replace("  ", " ").replace(" ,", ",").replace(" .", ".")
        return replace(u, text=text, raw=text if text != u.text else u.raw, changes=(),
                       children=tuple(fix(c) for c in u.children))

    return fix(unit)


# --- the version -------------------------------------------------------------------------------

def _top_index(units: Sequence[Unit], target: Target) -> int | None:
    eid = target.article_eid
    for k, u in enumerate(units):
        if u.kind == "article" and u.eid.rstrip("_") == eid:
            return k
    return None


def _insert_at(units: Sequence[Unit], target: Target, after: Target | None) -> int:
    """Where a new article goes: after the article `after` names, else after the last
    article of a lower number (or suffix)."""
    if after is not None:
        k = _top_index(units, after)
        if k is not None:
            return k + 1
    key = (target.number or 0, target.suffix)
    last = None
    for k, u in enumerate(units):
        if u.kind == "article" and u.number is not None and (u.number, u.label or "") <= key:
            last = k
    return (last + 1) if last is not None else len(units)


def apply(units: Sequence[Unit], steps: Sequence[tuple[str, str | None, Operation]],
          lang: str, span: tuple[int, int] = (0, 0)) -> tuple[tuple[Unit, ...], list[Step]]:
    """The version's top-level `units` as amended by `steps` ((instrument, date, operation),
    in the order to apply them), and what each step did."""
    out = list(units)
    done: list[Step] = []
    for instrument, date, op in steps:
        out, step = _one(out, instrument, date, op, lang, span)
        done.append(step)
    return tuple(out), done


def _one(units: list[Unit], instrument: str, date: str | None, op: Operation, lang: str,
         span: tuple[int, int]) -> tuple[list[Unit], Step]:
    def step(status: str, before: Unit | None = None, after: Unit | None = None) -> Step:
        return Step(instrument, date, op, status, op.target.eid if op.target else None,
                    before, after)

    if op.action == "understanding":
        return units, step("understanding")
    if op.action == "unparsed" or op.target is None:
        return units, step("not applied: the clause could not be read (shown for a person "
                            "to check)")
    target = op.target
    k = _top_index(units, target)
    if op.action == "insert" and target.level == "article":
        if k is not None:
            return units, step(f"not applied: the treaty already has {target.cited()}")
        new = _article(op, lang, None, span)
        if new is None:
            return units, step("not applied: no new text after the clause")
        at = _insert_at(units, target, op.after)
        return units[:at] + [new] + units[at:], step("applied", None, new)
    if k is None:
        return units, step(f"not applied: the treaty has no {target.cited().split('(')[0]}")
    old = units[k]
    new = _changed(old, op, lang, span)
    if isinstance(new, str):
        return units, step(f"not applied: {new}")
    if new is None:
        return units[:k] + units[k + 1:], step("applied", old, None)
    return units[:k] + [new] + units[k + 1:], step("applied", old, new)


def _changed(old: Unit, op: Operation, lang: str, span: tuple[int, int]) -> Unit | None | str:
    """The article `old` as the operation makes it (None: deleted), or why it cannot."""
    target = op.target
    assert target is not None
    if op.action == "words":
        where = old if target.level == "article" else _descendant(old, target.eid)
        if where is None:
            return f"{target.cited()} not found"
        if not op.old_words:
            return "no words to replace"
        new = _words(where, op.old_words, op.new_words)
        if new is None:
            return f"the words \"{op.old_words}\" are not in {target.cited()}"
        if where is old:
            return new
        return _edit(old, target.eid, lambda _u: new) or f"{target.cited()} not found"
    if target.level == "article":
        if op.action == "delete":
            return None
        new = _article(op, lang, old, span)
        return new if new is not None else "no new text after the clause"
    parent = target.eid.rsplit("__", 1)[0]
    if op.action == "insert":
        unit = _paragraph(op, lang, span) if target.level == "paragraph" else _point(
            op, parent, span)
        if unit is None:
            return "no new text after the clause"
        if _descendant(old, target.eid) is not None:
            return f"the treaty already has {target.cited()}"
        return _insert_child(old, unit, parent) or f"{target.cited()} has nowhere to go"
    if _descendant(old, target.eid) is None:
        return f"{target.cited()} not found"
    if op.action == "delete":
        return _edit(old, target.eid, lambda _u: None) or f"{target.cited()} not found"
    unit = _paragraph(op, lang, span) if target.level == "paragraph" else _point(op, parent, span)
    if unit is None:
        return "no new text after the clause"
    return _edit(old, target.eid, lambda _u: unit) or f"{target.cited()} not found"


def _descendant(unit: Unit, eid: str) -> Unit | None:
    for c in unit.children:
        if c.eid.rstrip("_") == eid:
            return c
        found = _descendant(c, eid)
        if found is not None:
            return found
    return None
