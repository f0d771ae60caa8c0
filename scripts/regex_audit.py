"""Every regular expression of the code base run against adversarial text of growing length:
which ones take more than linear time (catastrophic backtracking on a signature line of
underscores, quadratic rescans of a long line).

    python scripts/regex_audit.py                    # this checkout
    python scripts/regex_audit.py --root ../old      # another checkout (its code imported)
    python scripts/regex_audit.py --quick            # module-level patterns only (no ingest)

A pattern whose every use is a ``match`` or ``fullmatch`` (the functions, or the methods
called on the name it is assigned to) is timed as it is used, at the start of the text;
any other (``search``, ``finditer``, ``sub``, ``split``, or a use not found) over the whole
text. The patterns are found three ways: every ``re.compile``/``re.search``/... call made while the
code is imported and while it ingests the bundled corpus, answers searches and citations
and renders pages (so patterns built at run time from word lists are there too, each with
the line that made it), and every string literal given to an ``re`` function in the source
(for code the run does not reach). Each is then run (``finditer`` over the whole text, and
``match`` at its start) on texts made of one repeated unit: a character (``_``, space,
letter, digit, ``|``, ``.``, ...), a unit with a space, the pattern's own literal words,
with and without a character at the end that fails the match. A pattern is reported when
a text of 64 characters or less costs over 10 ms (exponential), or when going from 1,000 to
8,000 characters multiplies its time by more than 24 (linear is 8; quadratic 64), on the
six texts it is slowest on at 1,000; each figure is the least of a few runs, as the machine
may be shared.

Prints one line per offender (its sites, the worst text, times) and the count; exit 1 when
there is one.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import os
import pkgutil
import re
import sys
import tempfile
import time
from pathlib import Path

_NAMES = ("compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn",
          "split")
_ORIG = {name: getattr(re, name) for name in _NAMES}
_SIGS = {name: inspect.signature(fn) for name, fn in _ORIG.items()}

#: Units a hostile text repeats.
UNITS = ("_", " ", "a", "A", "1", "|", ".", "-", "\n", "\t", "(", ")", "I", "§", "第", "一",
         ",", ":", "/", "'", "*", "x", "=", "0", "\f", "é", "\u3000", "。")


class Recorder:
    """Wraps the `re` functions to note each (pattern, flags) and where our code used it."""

    def __init__(self, root: Path) -> None:
        self.root = str(root.resolve())
        self.seen: dict[tuple, set[str]] = {}

    def _site(self) -> str | None:
        frame = inspect.currentframe()
        frame = frame.f_back.f_back if frame and frame.f_back else None
        if frame is None:
            return None
        path = os.path.abspath(frame.f_code.co_filename)
        rel = os.path.relpath(path, self.root)
        if rel.startswith(("indexer" + os.sep, "search" + os.sep)):
            return f"{rel}:{frame.f_lineno}"
        return None

    def note(self, pattern, flags: int, site: str | None) -> None:
        if site is None:
            return
        if isinstance(pattern, re.Pattern):
            pattern, flags = pattern.pattern, pattern.flags
        self.seen.setdefault((pattern, int(flags)), set()).add(site)

    def install(self) -> None:
        for name in _NAMES:
            setattr(re, name, self._wrapped(name))

    def _wrapped(self, name: str):
        orig, sig = _ORIG[name], _SIGS[name]

        def wrapper(*args, **kwargs):
            try:
                bound = sig.bind(*args, **kwargs).arguments
                site = self._site()
                self.note(bound["pattern"], bound.get("flags", 0),
                          f"{site}:{name}" if site else None)
            except (TypeError, KeyError):
                pass
            return orig(*args, **kwargs)

        return wrapper


def static_patterns(root: Path) -> dict[tuple, set[str]]:
    """String literals passed as the pattern of an `re` function in the source."""
    found: dict[tuple, set[str]] = {}
    for top in ("indexer", "search"):
        for path in sorted((root / top).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                        and node.func.attr in _NAMES and node.args):
                    continue
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, (str, bytes)):
                    flags = 0
                    for kw in node.keywords:
                        if kw.arg == "flags":
                            try:
                                flags = eval(compile(ast.Expression(kw.value), "<flags>", "eval"),
                                             {"re": re})
                            except Exception:  # noqa: BLE001 - flags from a name we lack
                                flags = 0
                    site = f"{path.relative_to(root)}:{node.lineno}:{node.func.attr}"
                    found.setdefault((first.value, int(flags)), set()).add(site)
    return found


#: Patterns whose every use is bounded by the code around them (file, start of the
#: pattern): reported as such, not counted. Each reason was read in the code.
BOUNDED = {
    ("indexer/segment/lines.py", "(?P<word>.*?"):
        "fullmatch on a line of at most 24 characters (_garbled_heading checks first)",
    ("indexer/sources/stateforms.py", "(?<![\\w'’])(?:(?:(?:"):
        "searched in a window of at most 120 characters before a name",
    ("indexer/sources/countries.py", "\\s*\\(([^()]*)\\)\\s*"):
        "country names of pycountry's tables, never source text",
}


def bounded(pattern, sites: set[str]) -> str | None:
    """Why `pattern` is bounded where it is used (`BOUNDED`), or None."""
    text = pattern if isinstance(pattern, str) else ""
    for (file, start), why in BOUNDED.items():
        if text.startswith(start) and all(site.startswith(file + ":") for site in sites):
            return why
    return None


#: The uses of a pattern that try it at one place only (linear when the pattern is).
ANCHORED = frozenset({"match", "fullmatch"})


def compiled_uses(root: Path) -> dict[str, set[str]]:
    """'file:line' of each line of an assignment of a compiled pattern to a name -> the
    methods the module calls on that name (``_X.match(...)``: {"match"})."""
    out: dict[str, set[str]] = {}
    for top in ("indexer", "search"):
        for path in sorted((root / top).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            calls: dict[str, set[str]] = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    owner = node.func.value
                    name = owner.id if isinstance(owner, ast.Name) else (
                        owner.attr if isinstance(owner, ast.Attribute) else None)
                    if name:
                        calls.setdefault(name, set()).add(node.func.attr)
            for node in ast.walk(tree):
                if not isinstance(node, (ast.Assign, ast.AnnAssign)):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [t.id if isinstance(t, ast.Name) else t.attr for t in targets
                         if isinstance(t, (ast.Name, ast.Attribute))]
                if not names or not isinstance(node.value, ast.Call):
                    continue
                uses = set().union(*(calls.get(n, {"?"}) for n in names))
                rel = path.relative_to(root)
                for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                    out[f"{rel}:{line}"] = uses
    return out


def anchored(sites: set[str], uses: dict[str, set[str]]) -> bool:
    """Is every use of the pattern at its sites a match or fullmatch (never a search)?"""
    for site in sites:
        where, _, method = site.rpartition(":")
        methods = uses.get(where, {"?"}) if method == "compile" else {method}
        if not methods <= ANCHORED:
            return False
    return True


def exercise(root: Path, quick: bool) -> None:
    """Import every module; unless `quick`, ingest the bundled corpus (one process, so the
    recorder sees the workers' patterns), search, cite and render pages."""
    for top in ("indexer", "search"):
        package = importlib.import_module(top)
        for info in pkgutil.walk_packages(package.__path__, top + "."):
            try:
                importlib.import_module(info.name)
            except Exception as exc:  # noqa: BLE001 - an optional dependency missing
                print(f"(could not import {info.name}: {exc})", file=sys.stderr)
    if quick:
        return
    from indexer.pipeline import ingest

    data = Path(tempfile.mkdtemp(prefix="regex-audit-"))
    ingest(root / "corpus", data, workers=1)
    from search.results import search

    for query in ("dividends", "beneficial owner", "股息", "tributação", "divdends",
                  '"permanent establishment" NOT agent', "royalt*", "interest~"):
        search(data, query)
    from search.citations import cite
    from search.corpus import Corpus

    with Corpus(data) as corpus:
        for citation in ("Brazil–Peru Art. 10(2)(a)", "中国巴西协定第十条第二款",
                         "artikel VII § 2 avtalet Sverige–Brasilien"):
            try:
                cite(corpus, citation)
            except Exception as exc:  # noqa: BLE001 - only the patterns matter here
                print(f"(citation {citation!r}: {exc})", file=sys.stderr)
    from search.web import create_app

    client = create_app(data).test_client()
    for url in ("/", "/search?q=dividends", "/t/br-pe-2006", "/t/br-pe-2006/art_10",
                "/topic/dividends", "/rates", "/t/br-se-1965/art_2?view=diff"):
        client.get(url)


def literal_units(pattern: str | bytes) -> list[str]:
    """Words the pattern spells out (``Article``, ``ARTIGO``): hostile units too."""
    text = pattern if isinstance(pattern, str) else pattern.decode("latin-1")
    return sorted(set(re.findall(r"[^\W\d_]{2,}", text)))[:12]


def texts(pattern, n: int) -> list[tuple[str, str]]:
    """(name, text) of about `n` characters for each hostile shape."""
    out = []
    for unit in (*UNITS, *literal_units(pattern)):
        for shape, piece in (("", unit), ("+sp", unit + " "), ("+a", unit + "a"),
                             ("+1", unit + "1")):
            body = piece * max(1, n // len(piece))
            out.append((f"{unit!r}{shape}", body))
            out.append((f"{unit!r}{shape}+!", body + "!"))
            out.append((f"a {unit!r}{shape} a", "a " + body + " a"))
    return out


def _cost(compiled, text, deadline: float, anchored: bool = False) -> float:
    t0 = time.perf_counter()
    if anchored:
        compiled.match(text)
        compiled.fullmatch(text)
        return time.perf_counter() - t0
    for _ in compiled.finditer(text):
        if time.perf_counter() > deadline:
            break
    compiled.match(text)
    return time.perf_counter() - t0


def _encoded(compiled, text: str):
    return text.encode("utf-8") if isinstance(compiled.pattern, bytes) else text


#: The least time (s) at 8 times BASE characters that a super-linear verdict needs.
MIN_FLAGGED = 0.030
#: The length of the texts a rescan is looked for on (and 8 times it).
BASE = 1000
#: How many of a pattern's slowest texts at BASE characters are timed at 8 times that.
SLOWEST = 6


def _least(compiled, text, runs: int = 3, budget: float = 2.0, anchored: bool = False
           ) -> float:
    """The least cost of `runs` runs (the machine is shared: one run may be slowed)."""
    return min(_cost(compiled, text, time.perf_counter() + budget, anchored)
               for _ in range(runs))


def audit_one(pattern, flags: int, anchored: bool = False) -> str | None:
    """Why `pattern` is super-linear (None when it is linear on every hostile text); with
    `anchored`, as it is used: matched at the start of a text only."""
    try:
        compiled = _ORIG["compile"](pattern, flags)
    except (re.error, TypeError, ValueError):
        return None
    for n in range(8, 65, 8):  # exponential: cost explodes on short texts
        for name, text in texts(pattern, n):
            encoded = _encoded(compiled, text)
            if _cost(compiled, encoded, time.perf_counter() + 1, anchored) > 0.010:
                cost = _least(compiled, encoded, budget=1, anchored=anchored)
                if cost > 0.010:
                    return f"exponential: {cost * 1000:.0f} ms on {name} × {n}"
    worst = None
    timed = sorted(((_cost(compiled, _encoded(compiled, text), time.perf_counter() + 1,
                           anchored), name, text) for name, text in texts(pattern, BASE)),
                   reverse=True)
    # the slowest texts at 2,000 characters are those a rescan would show on
    for cost, name, text in timed[:SLOWEST]:
        if cost < 2e-4:
            continue  # (too fast to measure a ratio on)
        encoded = _encoded(compiled, text)
        big = _encoded(compiled, text * 8)
        if _cost(compiled, big, time.perf_counter() + 5, anchored) < 24 * 2e-4:
            continue
        small = _least(compiled, encoded, anchored=anchored)
        large = _least(compiled, big, runs=2, budget=5, anchored=anchored)
        ratio = large / small
        # (a ratio between sub-millisecond timings is noise on a shared machine: a rescan
        # shows as tens of milliseconds at 8,000 characters)
        if ratio > 24 and large > MIN_FLAGGED and (worst is None or ratio > worst[0]):
            worst = (ratio, name, small, large)
    if worst:
        ratio, name, small, large = worst
        return (f"super-linear: ×{ratio:.0f} from {BASE:,} to {8 * BASE:,} characters on {name} "
                f"({small * 1000:.1f} -> {large * 1000:.0f} ms; linear is ×8)")
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--quick", action="store_true", help="module-level patterns only")
    ap.add_argument("--progress", action="store_true", help="a line every 50 patterns")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds one pattern's audit may take (then: exponential)")
    args = ap.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    recorder = Recorder(root)
    recorder.install()
    t0 = time.perf_counter()
    exercise(root, args.quick)
    for name, fn in _ORIG.items():
        setattr(re, name, fn)
    patterns = recorder.seen
    for key, sites in static_patterns(root).items():
        patterns.setdefault(key, set()).update(sites)
    print(f"{len(patterns)} patterns ({time.perf_counter() - t0:.0f} s to collect)", flush=True)
    items = sorted(patterns.items(), key=lambda kv: min(kv[1]))
    bad = 0
    t1 = time.perf_counter()
    uses = compiled_uses(root)
    keys = [(*key, anchored(sites, uses)) for key, sites in items]
    print(f"{sum(k[2] for k in keys)} of them used anchored only (match, fullmatch)",
          flush=True)
    for k, why in audited(keys, args.timeout, args.progress):
        (pattern, _flags), sites = items[k]
        if why and (reason := bounded(pattern, sites)):
            print(f"{', '.join(sorted(sites)[:3])}: {why}; bounded where used: {reason}",
                  flush=True)
            continue
        if why:
            bad += 1
            shown = pattern if len(pattern) < 160 else pattern[:160] + "…"
            how = " (anchored)" if keys[k][2] else ""
            print(f"{', '.join(sorted(sites)[:3])}: {why}{how}\n    {shown!r}", flush=True)
    print(f"{bad} of {len(patterns)} patterns super-linear ({time.perf_counter() - t1:.0f} s)")
    return 1 if bad else 0


def _worker(keys: list[tuple], start: int, out) -> None:
    for k in range(start, len(keys)):
        out.put((k, audit_one(*keys[k])))


def audited(keys: list[tuple], timeout: float, progress: bool):
    """(index, why or None) of each pattern, audited in a child process: a pattern that
    takes over `timeout` seconds (a backtracking that never ends) is reported as such and
    the child replaced."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")  # (the child has the patterns already)
    k = 0
    while k < len(keys):
        out = ctx.Queue()
        child = ctx.Process(target=_worker, args=(keys, k, out), daemon=True)
        child.start()
        while k < len(keys):
            try:
                k_done, why = out.get(timeout=timeout)
            except Exception:  # noqa: BLE001 - queue.Empty: the pattern did not end
                child.kill()
                child.join()
                yield k, f"exponential: no end within {timeout:.0f} s on a hostile text"
                k += 1
                break
            yield k_done, why
            k = k_done + 1
            if progress and k % 50 == 0:
                print(f"({k} done)", file=sys.stderr, flush=True)
        else:
            child.join()


if __name__ == "__main__":
    sys.exit(main())
