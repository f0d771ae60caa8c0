"""The OCR repairs of one article, version by version, for `treaty compare --repairs` (the
terminal's form of the web app's repair view, `?view=diff`): each change the normalise stage
made, with the paragraph or point it is in, the step that made it, why, and the words around
it as repaired.

The store records a unit's repairs on the unit and on each unit above it (an article holds
its paragraphs'), once per place repaired; each is shown once, on the deepest unit that
records it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from indexer.errors import NotFoundError
from search.citations import eid_citation
from search.compare.article import article_eid
from search.corpus import Corpus

#: Characters of context on each side of a repair.
CONTEXT = 40


def _changes(node: dict) -> list[dict]:
    raw = node.get("changes")
    try:
        items = json.loads(raw) if isinstance(raw, str) and raw else []
    except ValueError:
        return []
    return [c for c in items if isinstance(c, dict) and c.get("after") is not None]


def _key(change: dict) -> tuple[str, str, str]:
    return (str(change.get("step", "")), str(change.get("before", "")),
            str(change.get("after", "")))


def _context(text: str, after: str, nth: int = 0) -> str:
    """The words around the `nth` place `after` shows in `text` (the last one there is when
    fewer), the repair in [brackets]; "" when it does not show."""
    found = list(re.finditer(rf"(?<!\w){re.escape(after)}(?!\w)", text)) if after.strip() else []
    if not found:
        return ""
    m = found[min(nth, len(found) - 1)]
    left = " ".join(text[max(0, m.start() - CONTEXT):m.start()].split())
    right = " ".join(text[m.end():m.end() + CONTEXT].split())
    return f"…{left} [{after}] {right}…"


def _own(node: dict, out: list[tuple[dict, dict, int]]) -> None:
    """(unit, change, n) for each repair of `node`'s subtree, on the deepest unit recording
    it (`n`: how many of the same change come before it in that unit). The store lists a
    change once per place it was made: a word repaired twice in a paragraph is there twice."""
    below: Counter = Counter()
    for child in node["children"]:
        _own(child, out)
        below.update(_key(c) for c in _changes(child))
    seen: Counter = Counter()
    for change in _changes(node):
        key = _key(change)
        if below[key] > 0:
            below[key] -= 1
            continue
        out.append((node, change, seen[key]))
        seen[key] += 1


def article_repairs(corpus: Corpus, treaty: str, article: str | int,
                    langs: Sequence[str] | None = None) -> dict:
    """{"treaty", "eid", "langs", "repairs": {lang: [{eid, citation, step, before, after,
    why, context}]}} for ARTICLE of TREATY in `langs` (all the treaty's by default)."""
    t = corpus.treaty(treaty)
    for lg in langs or ():
        corpus.check_lang(t, lg)
    eid = article_eid(article)
    chosen = list(langs) if langs else list(t.languages)
    out: dict[str, list[dict]] = {}
    for lg in chosen:
        tree = corpus.tree(t.id, lg, top=eid)
        if not tree:
            continue
        found: list[tuple[dict, dict, int]] = []
        _own(tree[0], found)
        out[lg] = [{"eid": unit["eid"], "citation": eid_citation(t.id, unit["eid"]),
                    "step": ch.get("step", ""), "before": ch.get("before", ""),
                    "after": ch.get("after", ""), "why": ch.get("why", ""),
                    "context": _context(unit["text"] or "", str(ch.get("after", "")), nth)}
                   for unit, ch, nth in found]
    if not out:
        raise NotFoundError(f"{t.id} has no {eid.replace('_', ' ')} in "
                            f"{', '.join(chosen)}")
    return {"treaty": t.id, "eid": eid, "langs": list(out), "repairs": out}


def repairs_text(result: dict) -> str:
    """`article_repairs` as terminal lines: per version its count, then each repair."""
    import click

    lines = []
    for lg, items in result["repairs"].items():
        n = len(items)
        lines.append(click.style(f"[{lg}] {result['treaty']} {result['eid']}: {n} OCR "
                                 f"repair{'' if n == 1 else 's'}", bold=True))
        for r in items:
            change = (click.style(r["before"], fg="red", strikethrough=True) + " → "
                      + click.style(r["after"], fg="green"))
            lines.append(f"  {r['citation']}  {r['step']}  {change}")
            if r["context"]:
                lines.append(f"      {r['context']}")
            if r["why"]:
                lines.append(click.style(f"      {r['why']}", dim=True))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
