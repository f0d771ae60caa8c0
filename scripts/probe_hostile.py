"""Figures for issue 27, this checkout against another in the same run: time and peak memory
of each hostile input and fault, each case in a child process with a memory cap and a time
limit (a case that passes them is reported as such, not waited for).

    python scripts/probe_hostile.py                       # this checkout
    python scripts/probe_hostile.py --root /tmp/base      # the code at another commit
    python scripts/probe_hostile.py --cases docx,queries  # some cases only

Cases: signature (a signature line of N underscores; a 1 MB text on one line), cache (an
ingest whose cache cannot be written), docx (a style loop, an absurd list start, a 1 GB zip
bomb), codepages (the Chinese treaty in GB18030 and Big5), queries (1,000 Chinese
characters, a 999-character fuzzy word, 1,000 of one character; both engines), messages
(what an unknown page charset, broken Word XML, a bad manifest value say). The kill, race
and flood loops are scripts/kill_ingest.py (--orphans) and scripts/probe_add.py.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
#: Memory cap of a case's child (address space) and its time limit.
CAP = 4 << 30
LIMIT = 120

_PRELUDE = f"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, ({CAP}, {CAP}))
sys.path.insert(0, {str(HERE / "tests")!r})
def done(outcome):
    print(json.dumps({{"outcome": str(outcome)[:200],
                      "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}}))
"""

SIGNATURE = """
from indexer.sources.read import decode
from indexer.models import DocMeta
from indexer.pipeline.document import process
base = open("corpus/brazil-peru-2006.en.txt", encoding="utf-8").read()
text = {text}
meta = DocMeta(file="x.txt", treaty="br-pe-2006", parties=("BR", "PE"), signed="2006-02-17",
               languages=("en",))
process(decode(base.encode(), "w.txt"), meta, topics=False)  # (warm: lexicons, models)
t = time.perf_counter()
doc, _ = process(decode(text.encode(), "x.txt"), meta, topics=False)
done(f"{{time.perf_counter() - t:.2f}} s, {{sum(u.kind == 'article' for u in doc.versions[0].units)}} articles")
"""

DOCX = """
import hostile_files as hostile
from indexer.errors import SourceError
from indexer.sources.read import decode
data = {make}
t = time.perf_counter()
try:
    text = decode(data, "w.docx").text
    out = f"read, {{len(text):,}} characters"
except SourceError as exc:
    out = f"refused: {{exc}}"
except MemoryError:
    out = "MemoryError (over the memory cap)"
done(f"{{time.perf_counter() - t:.2f}} s, {{out}}")
"""

CODEPAGE = """
from opencc import OpenCC
from indexer.sources.read import decode
from indexer.models import DocMeta
from indexer.pipeline.document import process
text = open("corpus/china-brazil-1991.zh.txt", encoding="utf-8").read()
if {big5}:
    text = OpenCC("s2tw").convert(text)
data = text.encode({codec!r}, errors="replace")
try:
    d = decode(data, "zh.txt")
    doc, _ = process(d, DocMeta(file="zh.txt", treaty="br-cn-1991"))
    done(f"read as {{d.encoding}}, languages {{[v.lang for v in doc.versions]}}, "
         f"{{sum(u.kind == 'article' for v in doc.versions for u in v.units)}} articles")
except Exception as exc:
    done(f"{{type(exc).__name__}}: {{exc}}")
"""

QUERY = """
from search.results import search
search({data!r}, "tax")
search({data!r}, "税")
t = time.perf_counter()
try:
    r = search({data!r}, {query!r})
    out = f"{{r['total']}} hits"
except Exception as exc:
    out = f"{{type(exc).__name__}}: {{exc}}"
done(f"{{time.perf_counter() - t:.2f}} s, {{out}}")
"""

MESSAGE = """
from indexer.errors import TreatyError
from indexer.sources.read import decode
import hostile_files as hostile
try:
    d = decode({data}, {name!r})
    done(f"read as {{d.encoding}}")
except TreatyError as exc:
    done(f"one line: {{exc}}")
except Exception as exc:
    done(f"internal error: {{type(exc).__name__}}: {{exc}}")
"""


def run(root: Path, code: str, limit: float = LIMIT, env: dict | None = None) -> dict:
    """`code` in a child (cwd and import path `root`): its outcome, seconds, peak MB."""
    full = dict(os.environ, PYTHONPATH=str(root), **(env or {}))
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", _PRELUDE + code], cwd=root, env=full,
                              capture_output=True, text=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        return {"outcome": f"no end within {limit:.0f} s (killed)", "seconds": limit}
    seconds = time.perf_counter() - t0
    lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
    if not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"outcome": f"died (exit {done.returncode}): {tail[:160]}", "seconds": seconds}
    out = json.loads(lines[-1])
    out["seconds"] = seconds
    return out


def signature_cases(root: Path) -> list[tuple[str, dict]]:
    out = []
    for n in (20, 26, 30, 34, 40):
        text = f'base + "\\n\\nSigned at Lima {"_" * n} for Brazil\\n"'
        out.append((f"signature line of {n} underscores", run(root, SIGNATURE.format(
            text=text), limit=60)))
    one_line = 'base.replace("\\n", " ")[:1_000_000] * (1_000_000 // len(base) + 1)'
    out.append(("1 MB text on one line", run(root, SIGNATURE.format(
        text=f"({one_line})[:1_000_000]"), limit=300)))
    out.append(("a word of 80,000 letters", run(root, SIGNATURE.format(
        text='base + "\\n" + "a" * 80_000 + "\\n"'), limit=300)))
    return out


def docx_cases(root: Path) -> list[tuple[str, dict]]:
    return [(name, run(root, DOCX.format(make=make), limit=120)) for name, make in (
        ("style based on itself through another", "hostile.style_loop()"),
        ("list start 999999999 (letters)", "hostile.absurd_list()"),
        ("list level 99999999", 'hostile.absurd_list(ilvl="99999999")'),
        ("zip bomb: 1 GB of XML", "hostile.bomb(1024)"),
        ("PDF: a page of 300 MB of content", "hostile.pdf_bomb(300)"),
    )]


def codepage_cases(root: Path) -> list[tuple[str, dict]]:
    return [(f"Chinese treaty in {codec}", run(root, CODEPAGE.format(codec=codec, big5=big5)))
            for codec, big5 in (("gb18030", False), ("cp950", True), ("big5", True))]


def query_cases(root: Path, work: Path) -> list[tuple[str, dict]]:
    han = "".join(c for c in (root / "corpus" / "china-brazil-1991.zh.txt").read_text("utf-8")
                  if "\u4e00" <= c <= "\u9fff")[:1000]
    queries = {"1,000 Chinese characters": han, "999-character fuzzy word": "abcdefghij" * 99
               + "abcdefgh~", "1,000 of one character": "的" * 1000,
               "1,000 of one letter": "a" * 1000}
    out = []
    for engine in ("whoosh", "tantivy"):
        data = work / f"data-{engine}"
        if not data.exists():
            subprocess.run([sys.executable, "-m", "search.cli", "ingest", "--data", str(data),
                            "--engine", engine], cwd=root, env=dict(os.environ,
                                                                    PYTHONPATH=str(root)),
                           capture_output=True, check=True)
        for name, query in queries.items():
            out.append((f"{engine}: {name}", run(root, QUERY.format(data=str(data),
                                                                    query=query))))
    return out


def cache_cases(root: Path, work: Path) -> list[tuple[str, dict]]:
    blocker = work / "file"
    blocker.write_text("x")
    tmp = Path(tempfile.mkdtemp(prefix="cache-tmp-", dir=work))
    code = f"""
from indexer.pipeline import ingest
t = time.perf_counter()
r = ingest("corpus", {str(work / 'cache-data')!r}, workers=1, force=True)
failed = [d.file for d in r.failed]
done(f"{{time.perf_counter() - t:.1f}} s, {{len(r.documents) - len(failed)}} of "
     f"{{len(r.documents)}} ingested; {{failed[0] + ': ' + r.failed[0].error[-90:] if failed else ''}}")
"""
    return [("ingest with an unwritable cache (bundled corpus)",
             run(root, code, limit=600, env={"TREATY_CACHE": str(blocker / "cache"),
                                              "TMPDIR": str(tmp)}))]


def message_cases(root: Path) -> list[tuple[str, dict]]:
    page = (b'<!doctype html><html><head><meta charset="base64"></head><body><p>Article 1'
            b'</p></body></html>')
    return [(name, run(root, MESSAGE.format(data=data, name=fname))) for name, data, fname in (
        ("page declaring charset base64", repr(page), "p.html"),
        ("Word file with broken XML", "hostile.broken_xml()", "w.docx"),
    )]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=HERE)
    ap.add_argument("--cases", default="signature,docx,codepages,queries,cache,messages")
    ap.add_argument("--work", type=Path, default=None)
    args = ap.parse_args()
    root = args.root.resolve()
    work = args.work or Path(tempfile.mkdtemp(prefix="probe-hostile-"))
    work.mkdir(parents=True, exist_ok=True)
    makers = {"signature": lambda: signature_cases(root), "docx": lambda: docx_cases(root),
              "codepages": lambda: codepage_cases(root),
              "queries": lambda: query_cases(root, work),
              "cache": lambda: cache_cases(root, work), "messages": lambda: message_cases(root)}
    print(f"code at {root}")
    for case in args.cases.split(","):
        for name, out in makers[case]():
            mem = f"{out['maxrss_mb']:>5} MB" if "maxrss_mb" in out else "    ? MB"
            print(f"{case:9} {name:42} {out['seconds']:7.2f} s {mem}  {out['outcome']}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
