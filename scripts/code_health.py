"""The shape of the code, for a before/after of a restructuring: module sizes, functions over
80 lines, radon complexity grades, uses of private names of other modules, module-level caches.

    python scripts/code_health.py                 # this checkout's indexer/ and search/
    python scripts/code_health.py --root ../old   # another checkout, to compare

Private names: an attribute or import `x._name` where `x` is a module that is not ours
(`re._parser`, `collections._count_elements`), and `object.__new__` / `__dict__` writes.
Module-level caches: `functools.cache`/`lru_cache` decorators on module functions, and
module-level dicts that some function empties with `.clear()`.
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ("indexer", "search")
LONG = 80


def modules(root: Path) -> list[Path]:
    return sorted(p for top in OURS for p in (root / top).rglob("*.py"))


def long_functions(tree: ast.AST) -> list[tuple[str, int]]:
    return [(n.name, n.end_lineno - n.lineno + 1) for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.end_lineno - n.lineno + 1 > LONG]


def _foreign_modules(tree: ast.AST) -> set[str]:
    """Names bound to modules that are not ours (`import re`, `import numpy as np`)."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name.split(".")[0] not in OURS:
                    names.add(a.asname or a.name.split(".")[0])
    return names


def private_uses(tree: ast.AST) -> list[str]:
    found = []
    foreign = _foreign_modules(tree)
    for n in ast.walk(tree):
        if (isinstance(n, ast.ImportFrom) and n.module and n.module != "__future__"
                and n.module.split(".")[0] not in OURS):
            parts = n.module.split(".") + [a.name for a in n.names]
            found += [f"from {n.module} import {a.name}" for a in n.names
                      if a.name.startswith("_") or any(p.startswith("_") for p in parts[:-1])]
        elif isinstance(n, ast.Import):
            found += [a.name for a in n.names
                      if any(p.startswith("_") for p in a.name.split("."))]
        elif isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.endswith("__"):
            if isinstance(n.value, ast.Name) and n.value.id in foreign:
                found.append(f"{n.value.id}.{n.attr}")
        elif isinstance(n, ast.Attribute) and n.attr in ("__new__", "__dict__"):
            found.append(ast.unparse(n))
    return found


def id_keys(tree: ast.AST) -> list[str]:
    """Calls of `id(...)`: an identity used as a key outlives the object it stood for."""
    return [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id == "id"]


def cached_functions(tree: ast.Module) -> list[str]:
    found = []
    for n in tree.body:
        if isinstance(n, ast.FunctionDef):
            for d in n.decorator_list:
                name = ast.unparse(d.func if isinstance(d, ast.Call) else d)
                if name.split(".")[-1] in ("cache", "lru_cache"):
                    found.append(f"@{name} {n.name}")
    return found


def emptied_globals(tree: ast.Module) -> list[str]:
    """Module-level containers that some function empties (`X.clear()`): a cache with a rule."""
    found = []
    top_dicts = {t.id for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
                 for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                 if isinstance(t, ast.Name)}
    for n in ast.walk(tree):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr == "clear" and isinstance(n.func.value, ast.Name)
                and n.func.value.id in top_dicts):
            found.append(f"{n.func.value.id}.clear()")
    return found


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--root", type=Path, default=ROOT)
    p.add_argument("--all", action="store_true", help="List every module, not only the big.")
    args = p.parse_args()
    from radon.complexity import cc_rank, cc_visit

    total = Counter()
    sizes = []
    for path in modules(args.root):
        text = path.read_text("utf-8")
        tree = ast.parse(text)
        rel = path.relative_to(args.root)
        n = text.count("\n")
        sizes.append(n)
        blocks = [b for b in cc_visit(text) if cc_rank(b.complexity) in "CDEF"]
        worst = [f"{b.name} {cc_rank(b.complexity)} ({b.complexity})" for b in blocks
                 if cc_rank(b.complexity) in "DEF"]
        total.update(cc_rank(b.complexity) for b in blocks)
        found = {"functions > 80 lines": long_functions(tree), "D/E/F": worst,
                 "private-name uses": private_uses(tree), "id() keys": id_keys(tree),
                 "module-level containers emptied by .clear()": emptied_globals(tree),
                 "cached module functions": cached_functions(tree)}
        for key, items in found.items():
            total[key] += len(items)
        if args.all or n > 600 or any(v for k, v in found.items() if k != "cached module functions"):
            print(f"{rel}: {n} lines")
            for label, items in found.items():
                if items:
                    print(f"    {label}: {', '.join(map(str, items))}")
    print(f"\n{len(sizes)} modules, {sum(sizes)} lines; largest {max(sizes)}; "
          f"over 600 lines: {sum(s > 600 for s in sizes)}")
    print("radon grades C or worse: " + ", ".join(f"{g} {total[g]}" for g in "CDEF"))
    for key in ("functions > 80 lines", "private-name uses", "id() keys",
                "module-level containers emptied by .clear()", "cached module functions"):
        print(f"{key}: {total[key]}")


if __name__ == "__main__":
    main()
