"""The self-audit (`indexer.audit`, `treaty check`): on the bundled corpus, the findings
checked against the texts read by hand; on the bundled texts damaged in a known place (a
heading deleted, an article repeated, two articles run together, a paragraph or a line
lost), the finding at that place; the CLI's JSON contract and its one-line errors."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from indexer.audit import KINDS, Source, audit_treaty, unit_place
from indexer.clean import REASONS
from indexer.models import DocMeta, Document, Unit
from indexer.pipeline import ingest, process
from indexer.sources.read import read_file
from search.check import check
from search.cli import main
from search.corpus import Corpus

PERU = "brazil-peru-2006.en.txt"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def bundled(ingested: Path) -> dict:
    with Corpus(ingested) as corpus:
        return check(corpus)


def _of(result: dict, kind: str) -> list[dict]:
    return [f for f in result["findings"] if f["kind"] == kind]


# --- the bundled corpus, read by hand ------------------------------------------------------


def test_bundled_inferred_numbers(bundled: dict) -> None:
    """The 2022 Brazil–Colombia print keeps the headings of Art. 1-5 and 21 only ("ARTIGO 1"
    ... at lines 10, 14, 26, 46, 55, 176): the other 25 numbers are inferred. The 1965 print
    garbles the English heading of Art. XV ("Article ÅT", line 1799), which may be read or
    inferred. The excerpt's Art. 10 is declared by the manifest, not inferred."""
    got = {(f["treaty"], f["lang"], f["eid"]) for f in _of(bundled, "inferred-number")}
    colombia = {("br-co-2022", "pt", f"art_{n}") for n in [*range(6, 21), *range(22, 32)]}
    assert colombia <= got <= colombia | {("br-se-1965", "en", "art_15")}
    assert not any(t == "es-pt-1993" for t, _, _ in got)


def test_bundled_numbering_and_counts_are_clean(bundled: dict) -> None:
    """Every article of the bundled corpus comes out right: no gap, repeat or skip, and the
    three versions of 1965 agree article by article."""
    kinds = Counter(f["kind"] for f in bundled["findings"])
    for kind in ("no-articles", "numbering-gap", "numbering-duplicate", "paragraph-skip",
                 "paragraph-before-1", "versions-disagree", "heading-outside"):
        assert kinds[kind] == 0, [f for f in bundled["findings"] if f["kind"] == kind]
    assert bundled["versions"] == 8  # pe en, co pt, se sv/en/pt, cn zh, es-pt en/pt
    with_findings = {(f["treaty"], f["lang"]) for f in bundled["findings"]}
    assert bundled["clean_versions"] == 8 - len(with_findings)
    assert ("br-cn-1991", "zh") not in with_findings


def test_bundled_headings_in_body_are_the_chapter_headings(ingested: Path, corpus_dir: Path,
                                                           bundled: dict) -> None:
    """br-pe-2006 prints letter-spaced chapter headings ("C H A P T E R IV", line 187) above
    the first article of each chapter: each one inside an article's lines is reported at its
    own line, and nothing else is."""
    source = (corpus_dir / PERU).read_text(encoding="utf-8").split("\n")
    chapters = {i + 1 for i, line in enumerate(source) if line.startswith("C H A P T E R")}
    assert len(chapters) == 6
    with Corpus(ingested) as corpus:
        spans = [(r["start_line"], r["end_line"]) for r in corpus.rows("br-pe-2006", "en")
                 if r["kind"] == "article"]
    inside = {n for n in chapters if any(a <= n <= b for a, b in spans)}
    found = _of(bundled, "heading-in-body")
    assert {f["lines"][0] for f in found} == inside
    assert all(f["treaty"] == "br-pe-2006" and f["lines"][0] == f["lines"][1] for f in found)


def test_bundled_unaccounted_lines_are_lines_really_lost(ingested: Path, corpus_dir: Path,
                                                         bundled: dict) -> None:
    """What the audit says no unit holds is what a count of the lines says: per file, the
    source's lines with text, less the raw lines of its top-level units and the furniture
    removed, as multisets of their text (the 1965 print repeats its signatures in each
    column; one copy of "V. da Cunha" and "Octåvio Bulhöes" is in no unit)."""
    with Corpus(ingested) as corpus:
        for (file,) in corpus.db.execute("SELECT file FROM documents"):
            lines = (corpus_dir / file).read_text(encoding="utf-8").split("\n")
            held = Counter(x.strip() for (raw,) in corpus.db.execute(
                "SELECT raw FROM units WHERE file=? AND depth=0", (file,))
                for x in raw.split("\n") if x.strip())
            held.update(r["raw"].strip() for r in corpus.db.execute(
                "SELECT raw FROM removed WHERE file=?", (file,)))
            lost = Counter(x.strip() for x in lines if x.strip()) - held
            said = Counter(lines[n - 1].strip() for f in _of(bundled, "unaccounted-lines")
                           if f["file"] == file
                           for n in range(f["lines"][0], f["lines"][1] + 1) if lines[n - 1].strip())
            assert said == lost, file


def test_bundled_weak_links_are_the_stored_links_below_even_odds(ingested: Path,
                                                                 bundled: dict) -> None:
    from indexer.align.results import LOW_CONFIDENCE

    with Corpus(ingested) as corpus:
        low = corpus.db.execute("SELECT treaty, lang_a, eid, score FROM links WHERE score < ? "
                                "AND method != 'unmatched'", (LOW_CONFIDENCE,)).fetchall()
    found = _of(bundled, "low-confidence-link")
    assert {(r["treaty"], r["lang_a"], r["eid"]) for r in low} == {
        (f["treaty"], f["lang"], f["eid"]) for f in found}
    for f in found:
        score = float(re.search(r"score (\d\.\d\d)", f["message"])[1])
        assert score < LOW_CONFIDENCE


# --- damaged copies of a bundled text, in a corpus of their own ----------------------------


def _manifest_entry(corpus_dir: Path, file: str) -> str:
    text = (corpus_dir / "manifest.toml").read_text(encoding="utf-8")
    start = text.index(f'[[document]]\nfile = "{file}"')
    end = text.find("\n[[document]]", start + 1)
    return text[start:end if end > 0 else None] + "\n"


def _check_of(tmp_path: Path, corpus_dir: Path, lines: list[str], file: str = PERU) -> dict:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / file).write_text("\n".join(lines), encoding="utf-8")
    (corpus / "manifest.toml").write_text(_manifest_entry(corpus_dir, file), encoding="utf-8")
    report = ingest(corpus, tmp_path / "data")
    assert not report.failed
    with Corpus(tmp_path / "data") as c:
        result = check(c)
    assert report.findings == len(result["findings"])
    return result


def _peru_lines(corpus_dir: Path) -> tuple[list[str], dict[str, int]]:
    """The lines of br-pe-2006 and the index of each "ARTICLE N" heading line."""
    lines = (corpus_dir / PERU).read_text(encoding="utf-8").split("\n")
    heads = {m[1]: i for i, line in enumerate(lines) if (m := re.fullmatch(r"ARTICLE (\d+)",
                                                                             line))}
    assert len(heads) == 29
    return lines, heads


def test_deleted_heading_is_found_where_it_was(tmp_path: Path, corpus_dir: Path) -> None:
    """ "ARTICLE 10" deleted: Art. 10 is recovered with an inferred number where its text
    (title "Dividends", then "1. Dividends paid…") now begins, or, if it is not recovered,
    the numbering skips it there."""
    lines, heads = _peru_lines(corpus_dir)
    at = heads["10"] + 1  # the heading's source line; after the deletion, the title's
    result = _check_of(tmp_path, corpus_dir, lines[:at - 1] + lines[at:])
    here = [f for f in result["findings"] if f["lines"] and f["lines"][0] in (at, at + 1)
            and ((f["kind"] == "inferred-number" and f["eid"] == "art_10")
                 or (f["kind"] == "numbering-gap" and "no Art. 10" in f["message"]))]
    assert here, result["findings"]


@pytest.mark.parametrize("number", ["12", "28"])
def test_repeated_article_is_found_at_the_copy(tmp_path: Path, corpus_dir: Path,
                                               number: str) -> None:
    """Art. N copied after itself: the numbering breaks at the copy's heading, whatever the
    segmenter makes of the break (a second Art. N, articles that start at the copy, or the
    rest of the treaty set apart with it)."""
    lines, heads = _peru_lines(corpus_dir)
    a, b = heads[number], heads[str(int(number) + 1)]
    result = _check_of(tmp_path, corpus_dir, lines[:b] + lines[a:b] + lines[b:])
    copy = b + 1  # the copy's heading line
    kinds = ("numbering-duplicate", "numbering-gap", "heading-outside")
    assert any(f["kind"] in kinds and f["lines"][0] == copy for f in result["findings"]), (
        result["findings"])
    before = [f for f in result["findings"] if f["kind"] in kinds and f["lines"][1] < a + 1
              and f["kind"] != "heading-outside"]
    assert not before  # nothing wrong is said of the articles before the original


# --- the audit on real documents, one structure changed ------------------------------------


@pytest.fixture(scope="module")
def peru(corpus_dir: Path) -> tuple[Document, Source]:
    decoded = read_file(corpus_dir / PERU)
    meta = DocMeta(file=PERU, treaty="br-pe-2006", languages=("en",))
    doc, removed = process(decoded, meta, topics=False)
    return doc, Source.of(decoded.text, removed)


def _with_units(doc: Document, change) -> Document:
    v = doc.versions[0]
    return replace(doc, versions=(replace(v, units=tuple(change(list(v.units)))),))


def _article(units: list[Unit], eid: str) -> int:
    return next(k for k, u in enumerate(units) if u.eid == eid)


def _audit(doc: Document, source: Source, kind: str) -> list:
    return [f for f in audit_treaty([(doc, source)]).findings if f.kind == kind]


def test_articles_run_together_show_the_heading_inside(peru, corpus_dir: Path) -> None:
    """Art. 10 and 11 as one unit (a segmenter that missed the heading): the heading of
    Art. 11 is reported at its source line, and the numbering skips 11."""
    doc, source = peru
    _lines, heads = _peru_lines(corpus_dir)

    def merge(units: list[Unit]) -> list[Unit]:
        k = _article(units, "art_10")
        a, b = units[k], units[k + 1]
        units[k:k + 2] = [replace(a, text=a.text + "\n" + b.text, raw=a.raw + "\n" + b.raw,
                                  end=b.end, children=a.children + b.children)]
        return units

    found = _audit(_with_units(doc, merge), source, "heading-in-body")
    assert [(f.eid, f.start) for f in found if f.eid == "art_10"] == [
        ("art_10", heads["11"] + 1)]
    gaps = _audit(_with_units(doc, merge), source, "numbering-gap")
    assert [(f.eid, f.message) for f in gaps] == [
        ("art_12", "Art. 12 follows Art. 10: no Art. 11")]


def test_inserted_article_is_no_gap_but_a_repeat_is(peru) -> None:
    """An Art. 12A after Art. 12 (eId art_12A, label 12A, number 12) is in sequence; the
    same article as a second Art. 12 is a duplicate, at the copy."""
    doc, source = peru

    def insert(eid: str, label: str):
        def change(units: list[Unit]) -> list[Unit]:
            k = _article(units, "art_12")
            units.insert(k + 1, replace(units[k], eid=eid, label=label))
            return units
        return _with_units(doc, change)

    numbering = ("numbering-gap", "numbering-duplicate")
    assert not [f for f in audit_treaty([(insert("art_12A", "12A"), source)]).findings
                if f.kind in numbering]
    dup = [f for f in audit_treaty([(insert("art_12_", "12"), source)]).findings
           if f.kind in numbering]
    assert [(f.kind, f.eid) for f in dup] == [("numbering-duplicate", "art_12_")]


def test_lost_paragraph_is_a_skip(peru) -> None:
    doc, source = peru

    def drop(units: list[Unit]) -> list[Unit]:
        k = _article(units, "art_10")
        kids = units[k].children
        units[k] = replace(units[k], children=tuple(c for c in kids if c.num != "3"))
        return units

    found = _audit(_with_units(doc, drop), source, "paragraph-skip")
    assert [(f.eid, f.message) for f in found] == [
        ("art_10__para_4", "paragraph 4 follows paragraph 2")]
    assert found[0].start == source.lines.index(next(
        x for x in source.lines if x.startswith("4. The provisions of paragraphs 1 and 2 of "
                                                "this Article shall not apply if the "
                                                "beneficial owner of the dividends"))) + 1


def test_title_read_as_a_paragraph(peru, corpus_dir: Path) -> None:
    """The title line of Art. 10 ("Dividends") as an unnumbered first paragraph, as the
    segmenter makes of a Markdown "####Dividends" today: reported before paragraph 1."""
    doc, source = peru
    _lines, heads = _peru_lines(corpus_dir)
    at = heads["10"] + 2

    def add(units: list[Unit]) -> list[Unit]:
        k = _article(units, "art_10")
        title = Unit(eid="art_10__para_1_", kind="paragraph", text="Dividends",
                     raw="Dividends", start=at, end=at)
        units[k] = replace(units[k], children=(title, *units[k].children))
        return units

    assert not _audit(doc, source, "paragraph-before-1")
    found = _audit(_with_units(doc, add), source, "paragraph-before-1")
    assert [(f.eid, f.start, f.message) for f in found] == [
        ("art_10__para_1_", at, "an unnumbered paragraph before paragraph 1: “Dividends”")]


def test_line_no_unit_holds_is_unaccounted(peru, corpus_dir: Path) -> None:
    """The title line of Art. 10 ("Dividends") dropped from the article's raw text."""
    doc, source = peru
    _lines, heads = _peru_lines(corpus_dir)

    def drop(units: list[Unit]) -> list[Unit]:
        k = _article(units, "art_10")
        raw = [x for x in units[k].raw.split("\n") if x.strip() != "Dividends"]
        units[k] = replace(units[k], raw="\n".join(raw))
        return units

    assert not _audit(doc, source, "unaccounted-lines")
    found = _audit(_with_units(doc, drop), source, "unaccounted-lines")
    assert [(f.start, f.end, f.lang, f.eid) for f in found] == [
        (heads["10"] + 2, heads["10"] + 2, "en", None)]


def test_versions_that_disagree(corpus_dir: Path) -> None:
    """The 1965 agreement with one paragraph of the Swedish Art. 7 lost: sv has one
    paragraph fewer than en and pt, and each of them one more than sv."""
    decoded = read_file(corpus_dir / "sweden-brazil-1965.sv-en-pt.txt")
    meta = DocMeta(file="x.txt", treaty="br-se-1965", languages=("sv", "en", "pt"))
    doc, removed = process(decoded, meta, topics=False)
    source = Source.of(decoded.text, removed)
    assert not [f for f in audit_treaty([(doc, source)]).findings
                if f.kind == "versions-disagree"]
    sv = next(v for v in doc.versions if v.lang == "sv")
    k = next(i for i, u in enumerate(sv.units) if u.eid == "art_7")
    n = sum(1 for c in sv.units[k].children if c.kind == "paragraph")
    units = list(sv.units)
    units[k] = replace(units[k], children=units[k].children[:-1])
    doc = replace(doc, versions=tuple(replace(v, units=tuple(units)) if v.lang == "sv" else v
                                      for v in doc.versions))
    found = [(f.lang, f.eid, f.message) for f in audit_treaty([(doc, source)]).findings
             if f.kind == "versions-disagree"]
    fewer = f"{n - 1} paragraph{'' if n == 2 else 's'}"
    assert found == [("sv", "art_7", f"{fewer}; en has {n}, pt has {n}"),
                     ("en", "art_7", f"{n} paragraphs; sv has {n - 1}"),
                     ("pt", "art_7", f"{n} paragraphs; sv has {n - 1}")]


@given(st.integers(1, 300), st.sampled_from(["", "A", "B", "bis"]), st.integers(1, 12),
       st.sampled_from(["a", "b", "ii"]))
def test_unit_place(n: int, suffix: str, para: int, point: str) -> None:
    assert unit_place(f"art_{n}{suffix}") == f"Art. {n}{suffix}"
    assert unit_place(f"art_{n}__para_{para}__point_{point}") == f"Art. {n}({para})({point})"
    assert unit_place(f"prot_{n}") == f"Protocol {n}"
    assert unit_place(f"other_{n}") == f"other_{n}"


# --- the command line ----------------------------------------------------------------------


def test_check_json_contract(ingested: Path) -> None:
    res = run("check", "--json", "--data", str(ingested))
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert set(out) == {"findings", "versions", "clean_versions", "rates", "removed",
                        "amendments"}
    assert out["versions"] == 8 and 0 < out["clean_versions"] < 8
    # the 1965 print's running headers and the signature blocks' rules, each with its line
    # and why; the typed Chinese text has none
    removed = out["removed"]
    assert "br-cn-1991" not in {r["treaty"] for r in removed}
    assert sum(r["treaty"] == "br-se-1965" and r["reason"] == REASONS["running"]
               for r in removed) >= 50
    assert {r["reason"] for r in removed if r["treaty"] == "br-pe-2006"} == {REASONS["drawing"]}
    assert {r["reason"] for r in removed} <= set(REASONS.values())
    assert all(r["text"].strip() and r["lines"][0] <= r["lines"][1] for r in removed)
    for f in out["findings"]:
        assert set(f) == {"treaty", "lang", "file", "eid", "kind", "message", "place", "lines"}
        assert f["kind"] in KINDS and f["place"].startswith(f"{f['treaty']} {f['lang']}")
        assert f["lines"] is None or (len(f["lines"]) == 2 and f["lines"][0] <= f["lines"][1])
    one = json.loads(run("check", "br-co-2022", "--json", "--data", str(ingested)).output)
    assert one["versions"] == 1 and {f["treaty"] for f in one["findings"]} == {"br-co-2022"}


def test_check_lists_what_was_removed_with_why(ingested: Path, corpus_dir: Path) -> None:
    """`treaty check --removed`: each source line removed as page furniture, its file, line,
    why and text, as the source has them; without the flag, a count per reason."""
    res = run("check", "br-se-1965", "--removed", "--data", str(ingested))
    assert res.exit_code == 0, res.output
    source = (corpus_dir / "sweden-brazil-1965.sv-en-pt.txt").read_text(encoding="utf-8").split("\n")
    listed = [ln for ln in res.output.splitlines() if ln.startswith("  sweden-brazil-1965")]
    assert len(listed) >= 50
    for ln in listed:
        m = re.match(r"  (\S+):line (\d+)\s+(.+?): “(.*)”$", ln)
        assert m and m[3] in REASONS.values(), ln
        assert source[int(m[2]) - 1].strip() == m[4]
    summary = run("check", "br-se-1965", "--data", str(ingested)).output
    assert re.search(r"\d+ source lines removed as page furniture \(\d+ running header", summary)
    clean_one = run("check", "br-cn-1991", "--data", str(ingested)).output
    assert "no source line removed as page furniture" in clean_one


def test_check_text_groups_per_version(ingested: Path) -> None:
    res = run("check", "br-co-2022", "--data", str(ingested))
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert lines[0] == "br-co-2022 pt (brazil-colombia-2022.pt.txt): 25 findings"
    assert re.match(r"  br-co-2022 pt Art\. 6 +lines \d+-\d+ +inferred-number: ", lines[1])
    clean = run("check", "br-cn-1991", "--data", str(ingested))
    assert clean.exit_code == 0  # a report: no finding is no error either
    assert clean.output.strip().splitlines() == ["1 language version audited, 1 without findings",
                                                 "no source line removed as page furniture"]


def test_check_errors_are_one_line(ingested: Path, tmp_path: Path) -> None:
    res = run("check", "xx-yy-2000", "--data", str(ingested))
    assert res.exit_code == 1 and res.output.count("\n") == 1
    assert res.output.startswith("Error: no treaty 'xx-yy-2000'")
    res = run("check", "--data", str(tmp_path))
    assert res.exit_code == 1 and res.output.count("\n") == 1
    assert "run `treaty ingest` first" in res.output


def test_check_help_names_every_kind() -> None:
    res = run("check", "--help")
    assert res.exit_code == 0 and "Examples:" in res.output and "treaty check" in res.output
    assert all(kind in res.output for kind in KINDS)


def test_ingest_summary_counts_findings(tmp_path: Path, corpus_dir: Path) -> None:
    """Per document and in total when there are findings; no column and no line when there
    are none; the same counts for unchanged files, whose audit is kept with them."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    copy = corpus_dir / "china-brazil-1991.zh.txt"
    (corpus / copy.name).write_bytes(copy.read_bytes())
    manifest = corpus / "manifest.toml"
    manifest.write_text(_manifest_entry(corpus_dir, "china-brazil-1991.zh.txt"),
                        encoding="utf-8")
    res = run("ingest", "--corpus", str(corpus), "--data", str(tmp_path / "d"))
    assert res.exit_code == 0, res.output
    assert "findings" not in res.output.splitlines()[0] and "audit:" not in res.output
    copy = corpus_dir / "brazil-colombia-2022.pt.txt"
    (corpus / copy.name).write_bytes(copy.read_bytes())
    manifest.write_text(manifest.read_text(encoding="utf-8")
                        + _manifest_entry(corpus_dir, "brazil-colombia-2022.pt.txt"),
                        encoding="utf-8")
    for _ in range(2):  # the second time, both files are unchanged
        res = run("ingest", "--corpus", str(corpus), "--data", str(tmp_path / "d"))
        assert res.exit_code == 0, res.output
        rows = {line.split()[0]: line.split() for line in res.output.splitlines()[2:4]}
        assert res.output.splitlines()[0].split()[4] == "findings"
        assert rows["brazil-colombia-2022.pt.txt"][-2:] == ["25", "0"]  # a note, no warning
        assert ("note: brazil-colombia-2022.pt.txt: pt: 25 of 31 article numbers inferred"
                in res.output.splitlines())
        assert rows["china-brazil-1991.zh.txt"][-2:] == ["0", "0"]
        assert "audit: 25 findings in 1 document; `treaty check` lists them" in res.output
    assert "(unchanged)" in res.output


def test_one_version_per_language_over_two_files(tmp_path: Path, corpus_dir: Path) -> None:
    """Two copies of the excerpt under one treaty id: one en and one pt version audited, and
    the second copy (kept as other) is no finding."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("a.txt", "b.txt"):
        (corpus / name).write_bytes((corpus_dir / "portugal-spain-1993-art10.en-pt.txt")
                                    .read_bytes())
    (corpus / "manifest.toml").write_text(
        "".join(f'[[document]]\nfile = "{f}"\ntreaty = "es-pt-1993"\nlanguages = ["en", "pt"]\n'
                'article = 10\n' for f in ("a.txt", "b.txt")), encoding="utf-8")
    assert not ingest(corpus, tmp_path / "data").failed
    with Corpus(tmp_path / "data") as c:
        result = check(c)
    assert result == {"findings": [], "versions": 2, "clean_versions": 2, "rates": [], "removed": [],
                      "amendments": []}
