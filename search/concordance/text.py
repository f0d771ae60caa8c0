"""A concordance (`search.concordance.concordance`) as terminal lines: per target language its
renderings, best first, each with the treaties that use it and its keywords in context on
both sides (the match bold)."""

from __future__ import annotations

import click

#: Examples shown per rendering in the terminal (the JSON has all it holds).
SHOWN = 2


def _kwic(side: dict) -> str:
    return (f"{side['lang']} {side['citation']}  …{side['left']}"
            + click.style(side["match"], bold=True, underline=True) + f"{side['right']}…")


def concordance_text(result: dict, examples: int = SHOWN) -> str:
    """The renderings of each target language, with `examples` keyword-in-context pairs."""
    n, k = result["occurrences"], result["treaties"]
    lines = [click.style(f"{result['term']!r} [{result['lang']}]", bold=True)
             + f": {n} place{'' if n == 1 else 's'} in {k} treat{'y' if k == 1 else 'ies'}"]
    for lang, part in result["targets"].items():
        lines.append("")
        head = f"{lang}:"
        if part.get("comparable"):
            head += (f" (no treaty has both {result['lang']} and {lang}: what other treaties "
                     "say in the same place of their article on the topic)")
        lines.append(click.style(head, fg="cyan"))
        if not part["renderings"]:
            lines.append(f"  no rendering: no treaty with a {lang} version has the term"
                         if not part["pairs"] else "  no rendering stands out")
            continue
        for r in part["renderings"]:
            places = f"{r['pairs']} place{'' if r['pairs'] == 1 else 's'}"
            if r["treaties"]:
                k = len(r["treaties"])
                used = f"{k} treat{'y' if k == 1 else 'ies'} ({', '.join(r['treaties'])}), {places}"
            else:  # a stray pair: no treaty's usual rendering
                used = f"{places} in {', '.join(r['seen_in'])}, not its usual rendering"
            lines.append(f"  {click.style(r['text'], bold=True)}  {used}")
            for ex in r["examples"][:examples]:
                lines.append("      " + _kwic(ex["source"]))
                lines.append("      " + _kwic(ex["target"]))
        if part["unmatched"]:
            lines.append(f"  ({part['unmatched']} place{'' if part['unmatched'] == 1 else 's'} "
                         "with no clear rendering)")
    return "\n".join(lines)
