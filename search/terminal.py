"""The results of the `treaty` commands as terminal text (click styles: bold citations,
underlined matches; click drops them when the output is not a terminal)."""

from __future__ import annotations

import html
import re
import unicodedata

import click


def escaped(text: str, keep: str = "") -> str:
    """`text` safe to print on a terminal: control characters (ESC, CR, a newline in a file
    name...), format characters that reorder or hide text (bidi overrides, zero widths) and
    line separators written as escapes (``\\x1b``, ``\\n``, ``\\u202e``), except those of
    `keep` (a text's own newlines). A file name or a message can then neither move the
    cursor, recolour nor rewrite what the terminal shows."""
    if text.isprintable() and not any(c in _SPECIAL for c in text):
        return text
    return "".join(c if c in keep or not _unsafe(c) else c.encode("unicode_escape").decode()
                   for c in text)


_SPECIAL = frozenset("\u2028\u2029")


def _unsafe(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")


#: What a command's standard output may carry to a terminal besides printable text, newlines
#: and tabs: SGR style codes (bold, underline, colour: click.style's), nothing else. Any
#: other control or format character (a cursor move, a title change, a carriage return, a
#: bidi override) is escaped.
_SGR = r"\x1b\[[0-9;]*m"
#: The characters a terminal acts on rather than shows: C0 and C1 controls but newline and
#: tab (ESC, CSI, BEL, CR, backspace), soft hyphen, bidi marks, embeddings, overrides and
#: isolates, zero-width and invisible operators, line and paragraph separators, BOM,
#: interlinear annotation marks. (A fixed class: made from unicodedata at import, it cost
#: every command 0.3 s.)
_CONTROL_OR_FORMAT = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f"
                      "\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb")
_UNSAFE_RUN = re.compile(f"({_SGR})|[{_CONTROL_OR_FORMAT}]")


def terminal_safe(text: str) -> str:
    """`text` with every control or format character escaped except newlines, tabs and SGR
    style codes."""
    return _UNSAFE_RUN.sub(lambda m: m[1] or m[0].encode("unicode_escape").decode(), text)


class SafeOutput:
    """A text stream that writes `terminal_safe` text to `stream` (a command's standard
    output: whatever a stored text holds, the terminal gets no sequence of it)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_safe(text) if isinstance(text, str) else text)
        return len(text)

    def __getattr__(self, name: str):  # flush, isatty, encoding, buffer...: the stream's
        return getattr(self._stream, name)


def ingest_summary(report, verbose: bool = False) -> str:
    """An ingest report: a table of the documents (with their audit findings when there are
    any), what was guessed in one line per document (each guess with `verbose`), the
    warnings (what a person must look at), the closing line."""
    found = report.findings > 0
    rows = [("document", "treaty", "versions", "articles", *(("findings",) if found else ()),
             "warnings")]
    rows.extend(_summary_row(d, found) for d in report.documents)
    n = len(rows[0]) - 1
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:n], widths)) + "  " + r[n] for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    for d in report.documents:
        lines.extend(escaped(note) for note in _notes(d, verbose))
    if not verbose and any(d.notes for d in report.documents):
        lines.append("(notes: what was guessed or kept aside; --verbose lists each guess)")
    lines.extend(escaped(f"warning: {d.file}: {w}") for d in report.documents
                 for w in d.warnings)
    if found:
        docs = sum(1 for d in report.documents if d.findings)
        lines.append(f"audit: {report.findings} finding{'' if report.findings == 1 else 's'} "
                     f"in {docs} document{'' if docs == 1 else 's'}; `treaty check` lists them")
    lines.append(_ingest_outcome(report))
    return "\n".join(lines)


def _notes(d, verbose: bool) -> list[str]:
    """What was guessed, inferred or kept aside in document `d`: one line, or (`verbose`)
    a line each."""
    notes = list(getattr(d, "notes", ()) or ())
    if not notes:
        return []
    if verbose:
        return [f"note: {d.file}: {n}" for n in notes]
    fields = [n.split(" guessed:")[0] for n in notes if " guessed: " in n]
    rest = [n.split(" (")[0] for n in notes if " guessed: " not in n]
    parts = ([f"guessed {', '.join(fields)}"] if fields else []) + rest
    return [f"note: {d.file}: {'; '.join(parts)}"]


def _summary_row(d, found: bool) -> tuple[str, ...]:
    """One document's row of the ingest table (`found`: with a findings column)."""
    if d.error:
        return (escaped(d.file), "-", "-", "-", *(("-",) if found else ()),
                escaped(f"ERROR: {d.error}"))
    arts = " ".join(f"{k}:{v}" for k, v in d.articles.items() if v) or "-"
    return (escaped(d.file) + (" (unchanged)" if d.reused else ""), d.treaty,
            ",".join(d.languages),
            arts, *((str(d.findings),) if found else ()), str(len(d.warnings)))


def _ingest_outcome(report) -> str:
    ok = len(report.documents) - len(report.failed)
    if report.store is None:
        return "no document could be ingested; the previous corpus, if any, is unchanged"
    if report.unchanged:
        return escaped(f"nothing changed: the corpus in {report.store.parent} is kept as it "
                       f"was ({report.seconds:.1f} s)")
    return escaped(f"{ok} of {len(report.documents)} documents ingested into {report.store} "
                   f"in {report.seconds:.1f} s"
                   + (f"; index at {report.index}" if report.index else ""))


def _outline_unit(u: dict) -> str:
    from search.compare import pad  # only here: a cold `treaty search` does not load it

    if u["kind"] in ("chapter", "annex") and (u["label"] or u["title"]):
        name = f"{u['kind'].title()} {u['label']}" if u["label"] else u["kind"].title()
        title = u["title"] or ""  # (an annex's: its heading as printed, "Bilaga 2")
        return f"  {name:<16} {pad(title[:52], 52)}  lines {u['lines'][0]}-{u['lines'][1]}"
    if u["kind"] not in ("article", "protocol"):
        return f"  {u['kind']:<11} {u['eid']:<10} lines {u['lines'][0]}-{u['lines'][1]}"
    mark = "*" if u["number_inferred"] else " "
    num = f"{u['number']}{mark}" if u["number"] is not None else "-"
    head = "Art." if u["kind"] == "article" else "Prot."
    extra = f" -> Art. {u['refers_to']}" if u["refers_to"] else ""
    if u.get("instrument"):
        extra += f"  [by {u['instrument']}]"
    return (f"  {head:5} {num:>4} {pad(u['label'] or '', 6, right=True)}  "
            f"{pad((u['title'] or '')[:40], 40)}  {u['topic'] or '':28} "
            f"{u['paragraphs']:>2} para{extra}")


#: How a person reads each treaty fact's name.
FACT_NAMES = {"signed": "signed", "place": "place", "in_force": "entry into force",
              "effective": "effective", "termination": "termination",
              "terminated": "terminated", "replaces": "replaces", "replaced_by": "replaced by",
              "amended_by": "amended by", "authentic": "authentic languages",
              "prevails": "prevails", "statute_in_force": "statute in force"}


def facts_text(facts: list[dict]) -> list[str]:
    """A treaty's facts, one line each with its source line ("manifest" when declared)."""
    out = []
    for f in facts:
        where = "manifest" if f["source"] == "manifest" else (
            f"{f['file']} line {f['line']}" if f["line"] else f["file"] or "text")
        name = FACT_NAMES.get(f["name"], f["name"])
        out.append(f"  {name + ':':<21} {escaped(f['value'])}  [{escaped(where)}]")
    return out


def instruments_text(instruments: list[dict]) -> list[str]:
    """A treaty's instruments and what each later one's clauses did."""
    out = []
    for i in instruments:
        when = ", ".join(x for x in (i["signed"] and f"signed {i['signed']}",
                                     i["effective"] and f"in effect from {i['effective']}")
                         if x)
        out.append(f"  {i['id']}: {i['kind']}{' (' + when + ')' if when else ''}"
                   f"  [{escaped(', '.join(i['files']))}]")
        for a in i["amendments"]:
            target = a["target"] or "?"
            out.append(f"      {a['lang']} {a['action']:<13} {target:<26} {a['status']}")
    return out


def outline_text(result: dict) -> str:
    """A treaty's outline (`search.corpus.outline`): metadata, its facts and instruments,
    then each version's units (an article an instrument changed marked with it)."""
    lines = [(f"{result.get('name') or result['treaty']}  ({result['treaty']})  "
             f"{result['title'] or ''}"),
             (f"parties: {', '.join(result['parties'])}  signed: {result['signed'] or '?'}  "
              f"place: {escaped(result['place'] or '?')}  "
              f"files: {escaped(', '.join(result['files']))}")]
    if result.get("facts"):
        lines += ["", "facts:", *facts_text(result["facts"])]
    if len(result.get("instruments") or ()) > 1:
        lines += ["", "instruments:", *instruments_text(result["instruments"])]
    for lg, units in result["versions"].items():
        arts = sum(1 for u in units if u["kind"] == "article")
        lines.append(f"\n[{lg}] {arts} articles")
        lines.extend(_outline_unit(u) for u in units)
    lines.append("\n* number inferred (heading missing in the source); "
                 "[by …]: the text as an instrument amended it\n")
    return "\n".join(lines)


def cite_text(result) -> str:
    """The units a citation names (`search.citations.CiteResult`), each under its id."""
    from search.names import treaty_name

    lines = []
    for unit in result.units:
        treaty = unit["id"].split("/")[0]
        head = f"{treaty_name(treaty)}  {unit['id']}"
        if unit["article"] is not None:
            kind = "Art." if unit["article_kind"] == "article" else "Protocol"
            head += f"  ({kind} {unit['article']}{' ' + unit['title'] if unit['title'] else ''})"
        lines.extend([click.style(escaped(head), bold=True), escaped(unit["text"], "\n\t"),
                      ""])
    return "\n".join(lines)


def align_report_text(treaty: str, rows: list[dict]) -> str:
    """The links to check (`search.compare.align_report`), with the start of both texts."""
    if not rows:
        return f"{treaty}: no alignment links (one language version only?)"
    lines = []
    for r in rows:
        a = f"{r['lang_a']}:{r['eid_a'] or '—'}"
        b = f"{r['lang_b']}:{r['eid_b'] or '—'}"
        lines.append(f"{r['score']:.2f}  {r['method']:<15} {r['level']:<9} {a}  ↔  {b}")
        for lg, text in ((r["lang_a"], r["text_a"]), (r["lang_b"], r["text_b"])):
            if text:
                lines.append(f"      {lg}: {' '.join(text.split())[:90]}")
    return "\n".join(lines)


def styled_snippet(snippet: str) -> str:
    """An HTML snippet (<b> marks the matches) for the terminal: bold and underlined."""
    parts = re.split(r"<b>(.*?)</b>", " ".join(snippet.split()))
    return "".join(click.style(escaped(html.unescape(p)), bold=True, underline=True) if i % 2
                   else escaped(html.unescape(p)) for i, p in enumerate(parts))


def _hit_lines(hit: dict) -> list[str]:
    title = f"  {hit['title']}" if hit.get("title") else ""
    from search.names import cited_as

    head = click.style(cited_as(hit["citation"]), bold=True)  # names, not codes
    more = " (partial match)" if hit.get("relaxed") else ""
    more += " (through a translation)" if hit.get("translated") else ""
    langs = "+".join(hit.get("languages") or [hit["lang"]])
    lines = [f"{head}  [{langs}]{title}  score {hit['score']:.2f}{more}"]
    lines.extend("    " + styled_snippet(snippet) for snippet in hit["snippets"][:2])
    for lg, units in (hit.get("aligned") or {}).items():
        for u in units:
            text = escaped(" ".join(u["text"].split()))
            lines.append(f"    {click.style(lg, fg='cyan')} {u['eid']}: "
                         f"{text[:200]}{'…' if len(text) > 200 else ''}")
    lines.append("")
    return lines


def search_text(result: dict) -> str:
    """A search result (`search.results`): "did you mean", each hit with its snippets (and
    aligned paragraphs), the count."""
    lines = []
    if result.get("read_as") and not result.get("showing"):
        read = ", ".join(f"{r['typed']!r} as {r['as']!r}" for r in result["read_as"])
        lines.append(click.style(f"Read {read}; --as-typed searches the words as typed.",
                                 fg="yellow"))
    if result.get("showing"):
        lines.append(click.style(f"Showing results for {result['showing']!r}; search instead "
                                 f"for {result['query']!r} with --as-typed.", fg="yellow"))
    elif result["suggestions"]:
        line = "Did you mean: " + ", ".join(result["suggestions"])
        if result.get("corrected"):
            line += f"  (try: {result['corrected']})"
        lines.append(click.style(line, fg="yellow"))
    for hit in result["hits"]:
        lines.extend(_hit_lines(hit))
    n = result["total"]
    if n == 0:
        lines.append(f"No matches for {result['query']!r}.")
    else:
        lines.append(f"{n} {'article matches' if n == 1 else 'articles match'}; "
                     f"{len(result['hits'])} shown.")
    return "\n".join(lines)
