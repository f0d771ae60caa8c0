"""The self-audit as stored at ingest (`indexer.audit`): the findings of every treaty, or of
one, per language version, for `treaty check`, the web treaty page and /api/."""

from __future__ import annotations

from collections import Counter

from indexer.audit import place
from indexer.errors import StoreError
from search.corpus import Corpus


def _has_audit(corpus: Corpus) -> bool:
    return corpus.db.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='findings'").fetchone() is not None


def check(corpus: Corpus, treaty: str | None = None) -> dict:
    """The findings (of `treaty`, else of every treaty), per treaty and language version in
    the treaty's order, each version's by source line; with how many language versions were
    audited and how many have no finding: {"findings": [...], "versions": N,
    "clean_versions": M}. An unknown treaty is a NotFoundError."""
    treaties = [corpus.treaty(treaty)] if treaty else corpus.treaties()
    if not _has_audit(corpus):
        raise StoreError(f"the store in {corpus.data_dir} has no audit (made before `treaty "
                         "check` existed): run `treaty ingest --force` once")
    ids = [t.id for t in treaties]
    marks = ",".join("?" * len(ids))
    versions = [(r["treaty"], r["lang"]) for r in corpus.db.execute(
        f"SELECT treaty, lang FROM audited WHERE treaty IN ({marks})", ids)]
    rows = corpus.db.execute(
        f"SELECT * FROM findings WHERE treaty IN ({marks}) ORDER BY rowid", ids).fetchall()
    order = {(t.id, lang): (i, j) for i, t in enumerate(treaties)
             for j, lang in enumerate(t.languages)}
    rows = sorted(rows, key=lambda r: (order.get((r["treaty"], r["lang"]), (len(order), 0)),
                                       r["start_line"] or 0))
    findings = [_finding(dict(r)) for r in rows]
    with_findings = {(f["treaty"], f["lang"]) for f in findings}
    return {"findings": findings, "versions": len(versions),
            "clean_versions": sum(1 for v in versions if v not in with_findings),
            "rates": doubtful_rates(corpus, treaty), "removed": removed_lines(corpus, ids),
            "amendments": amendments_to_check(corpus, ids)}


def amendments_to_check(corpus: Corpus, treaties: list[str]) -> list[dict]:
    """What later instruments say that was not applied to the text: free-text
    understandings (shown beside their article) and amending clauses no one could read or
    apply, each with its place; none for a store made before instruments were read."""
    if corpus.db.execute("SELECT 1 FROM sqlite_master WHERE name='amendments'").fetchone() is None:
        return []
    marks = ",".join("?" * len(treaties))
    return [{"treaty": r["treaty"], "lang": r["lang"], "instrument": r["instrument"],
             "action": r["action"], "target": r["target"], "status": r["status"],
             "clause": " ".join((r["clause"] or "").split())[:300]}
            for r in corpus.db.execute(
                f"SELECT * FROM amendments WHERE treaty IN ({marks}) AND status != 'applied' "
                "ORDER BY treaty, lang, seq", treaties)]


def removed_lines(corpus: Corpus, treaties: list[str]) -> list[dict]:
    """The source lines the ingest removed as page furniture from the files of `treaties`,
    each with why, in file and line order: with the units' lines, they are the source."""
    marks = ",".join("?" * len(treaties))
    rows = corpus.db.execute(
        "SELECT d.treaty, r.file, r.start_line, r.end_line, r.raw, r.reason FROM removed r"
        f" JOIN documents d ON d.file = r.file WHERE d.treaty IN ({marks})"
        " ORDER BY d.treaty, r.file, r.start_line", treaties).fetchall()
    return [{"treaty": r[0], "file": r[1], "lines": [r[2], r[3]], "text": r[4], "reason": r[5]}
            for r in rows]


def doubtful_rates(corpus: Corpus, treaty: str | None) -> list[dict]:
    """The rates (`search.rates`) of low confidence or that versions disagree on; none for a
    store made before the rates stage."""
    from search.rates import doubtful, rates

    try:
        return doubtful(rates(corpus, treaty, flags=True))
    except StoreError:
        return []


def _finding(row: dict) -> dict:
    lines = None if row["start_line"] is None else [row["start_line"], row["end_line"]]
    return {"treaty": row["treaty"], "lang": row["lang"], "file": row["file"],
            "eid": row["eid"], "kind": row["kind"], "message": row["message"],
            "place": place(row["treaty"], row["lang"], row["eid"]), "lines": lines}


def per_version(result: dict) -> dict[tuple[str, str], list[dict]]:
    """The findings of a `check` result grouped by (treaty, lang), in its order."""
    out: dict[tuple[str, str], list[dict]] = {}
    for f in result["findings"]:
        out.setdefault((f["treaty"], f["lang"]), []).append(f)
    return out


def lines_text(lines: list[int] | None) -> str:
    """[12, 15] -> "lines 12-15", [12, 12] -> "line 12", None -> ""."""
    if not lines:
        return ""
    a, b = lines
    return f"line {a}" if a == b else f"lines {a}-{b}"


def check_text(result: dict, *, removed: bool = False) -> str:
    """A `check` result for the terminal: a block per language version with findings (one
    line each: place, source lines, kind, message), then the counts, and what was removed
    as page furniture (each line when `removed`, else how many of each kind)."""
    out: list[str] = []
    for (treaty, lang), found in per_version(result).items():
        files = sorted({f["file"] for f in found})
        out.append(f"{treaty} {lang} ({', '.join(files)}): {_count(len(found))}")
        width = max(len(f["place"]) for f in found)
        lwidth = max(len(lines_text(f["lines"])) for f in found)
        for f in found:
            out.append(f"  {f['place']:<{width}}  {lines_text(f['lines']):<{lwidth}}  "
                       f"{f['kind']}: {f['message']}")
        out.append("")
    n, clean = result["versions"], result["clean_versions"]
    out.append(f"{n} language version{'' if n == 1 else 's'} audited, {clean} without findings"
               + (f"; {_count(len(result['findings']))}" if result["findings"] else ""))
    kinds = Counter(f["kind"] for f in result["findings"])
    if kinds:
        out.append("by kind: " + ", ".join(f"{k} {c}" for k, c in kinds.most_common()))
    out.extend(_removed_text(result.get("removed") or [], removed))
    if result.get("amendments"):
        out.extend(["", ("what later instruments say that is not applied to the text "
                    "(understandings, clauses not applied):")])
        for a in result["amendments"]:
            target = place(a["treaty"], a["lang"], a["target"]) if a["target"] else a["treaty"]
            out.append(f"  {target}  {a['instrument']}  {a['status']}: {a['clause'][:160]}")
    if result.get("rates"):
        from search.rates import rates_text

        out.extend(["", "rates to check (low confidence or versions disagree):",
                    rates_text({"rates": result["rates"]})])
    return "\n".join(out)


def _removed_text(rows: list[dict], each: bool) -> list[str]:
    """The page furniture removed: one line each (`each`), else a count per reason."""
    if not rows:
        return ["no source line removed as page furniture"]
    if each:
        out = [f"{len(rows)} source line{'' if len(rows) == 1 else 's'} removed as page furniture:"]
        width = max(len(f"{r['file']}:{lines_text(r['lines'])}") for r in rows)
        out += [f"  {r['file'] + ':' + lines_text(r['lines']):<{width}}  {r['reason']}: "
                f"“{r['text'].strip()}”" for r in rows]
        return out
    reasons = Counter(r["reason"] for r in rows)
    return [f"{len(rows)} source line{'' if len(rows) == 1 else 's'} removed as page furniture ("
            + ", ".join(f"{n} {why}" for why, n in reasons.most_common())
            + "); `treaty check --removed` lists them"]


def _count(n: int) -> str:
    return f"{n} finding{'' if n == 1 else 's'}"
