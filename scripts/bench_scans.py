"""The scan benchmark: treaty texts typeset as period prints, scanned at two qualities (fair:
200 dpi, slight skew; poor: 150 dpi photocopy with specks, uneven ink and JPEG), made into
image-only PDFs (scripts/scan_print.py) and read three ways, each measured against the text
the pages print:

- tesseract: the tesseract command run by hand on each page image (`tesseract page.png -`);
- ocr: the project's OCR of the PDF (`indexer.sources.formats.ocr.ocr_pdf`, what
  `treaty add --ocr` runs);
- repaired: that text through the pipeline (`pipeline.document.process`: clean, languages,
  OCR repair, structure).

Cost per scanned page (`s/pg`): tesseract by hand, the project's OCR (rendering and
tesseract), and the repair (clean stage and OCR repair, the lexicons warm after the first text).

CER and WER are Levenshtein distances over characters and words (white space collapsed)
divided by the truth's length. The repair is measured on lines: the OCR text's lines as the
clean stage leaves them, before the OCR repair and after it (the line steps, then the steps
over the version, as `process` runs them), against the truth's text without its running heads and
page numbers (which the clean stage removes). `changes` are
the repairs recorded on the OCR text (with the words tesseract doubted: the wider search of
indexer/normalise/evidence.py); `clean changes` those recorded on the truth text itself
(each one false). Articles are measured by their structure, not their words
(scripts/scan_structure.py): an article is right when the typed text the pages print has one
of the same number and paragraph count starting and ending on the lines it does, once the
OCR text is aligned to it character by character.

Texts are `tune` (the rules may be tuned on them) or `held-out` (only measured). Seeded:
the same command gives the same scans.

    python scripts/bench_scans.py [--pages 2] [--only NAME] [--levels fair,poor] [--json OUT]
                                  [--psm N] [--stray CONF] [--min-dpi N]  # other OCR choices
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for where in (ROOT, ROOT / "scripts"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

import scan_print as sp
import scan_structure as structure

SHARED = ROOT.parent / "shared"
#: name: (path, language, set). Each is printed from its first article heading; the pages
#: scanned are `--pages`, or more where that few hold no meaningful gold of its articles
#: (scan_structure.pages_for).
TEXTS = {
    "br-pe-en": (ROOT / "corpus" / "brazil-peru-2006.en.txt", "en", "tune"),
    "br-co-pt": (ROOT / "corpus" / "brazil-colombia-2022.pt.txt", "pt", "tune"),
    "se-tt-sv": (SHARED / "corpus-extra" / "sv" / "se-tt-1984.txt", "sv", "tune"),
    "gr-nl-en": (SHARED / "corpus-wild" / "en" / "gr-nl-1981.txt", "en", "held-out"),
    "nl-zm-en": (SHARED / "corpus-wild" / "en" / "nl-zm-1977.txt", "en", "held-out"),
    "at-se-sv": (SHARED / "corpus-wild" / "sv" / "at-se-1959.txt", "sv", "held-out"),
}
LEVELS = {"fair": sp.FAIR, "poor": sp.POOR}
TESSERACT = {"en": "eng", "pt": "por", "sv": "swe"}


def collapse(text: str) -> str:
    return " ".join(text.split())


def cer(truth: str, got: str) -> float:
    from rapidfuzz.distance import Levenshtein

    truth, got = collapse(truth), collapse(got)
    return Levenshtein.distance(truth, got) / max(1, len(truth))


def wer(truth: str, got: str) -> float:
    from rapidfuzz.distance import Levenshtein

    words = truth.split()
    return Levenshtein.distance(words, got.split()) / max(1, len(words))


def plain_tesseract(images: list, lang: str) -> list[str]:
    """Each page image read by the tesseract command with its defaults."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, image in enumerate(images):
            path = Path(tmp) / f"page{n}.png"
            image.save(path, dpi=image.info["dpi"])
            done = subprocess.run(["tesseract", str(path), "stdout", "-l", TESSERACT[lang]],
                                  capture_output=True, check=True)
            out.append(done.stdout.decode("utf-8", "replace"))
    return out


def process(text: str, lang: str):
    from indexer.models import DocMeta
    from indexer.pipeline.document import process as run
    from indexer.sources.read import decode

    doc, _removed = run(decode(text.encode(), "scan.txt"),
                        DocMeta(file="scan.txt", treaty="xx-yy-1950", languages=(lang,)),
                        topics=False)
    return doc


def repaired(text: str, lang: str, words: tuple = ()) -> tuple[str, str, list]:
    """`text` through the pipeline's clean stage and its OCR repair (as `process` runs them,
    with the words tesseract doubted among `words`): the cleaned lines before repair, after
    it, and the changes (those of words)."""
    from indexer.clean import clean
    from indexer.normalise import LAYOUT_STEPS, noisy, normalise_line, repair_version, shared
    from indexer.normalise.evidence import doubted

    lines = [replace(x, lang=lang) for x in clean(text).lines]
    nz = shared(lang)
    after = [normalise_line(x, nz) for x in lines]
    after = repair_version(after, nz, [], noisy(after), doubted(words))
    changes = [ch for x in after for ch in x.changes if ch.step not in LAYOUT_STEPS]
    return "\n".join(x.text for x in lines), "\n".join(x.text for x in after), changes


def judged(changes: list, truth: str, words: tuple) -> dict[str, int]:
    """The repairs of an OCR text judged by the truth's words (a change is right when its
    result is a word of the truth and what it changed is not, false when what it changed is a
    word of the truth), each by how sure tesseract was of the word it changed (sure: every
    reading of that word at confidence 90 or more)."""
    printed = set(re.findall(r"\w+", truth))
    conf: dict[str, float] = {}
    for w in words:
        for piece in re.findall(r"\w+", w.text):
            conf[piece] = min(conf.get(piece, 100.0), w.conf)
    out = {"right_sure": 0, "right_unsure": 0, "false_sure": 0, "false_unsure": 0,
           "other": 0}
    for ch in changes:
        before, after = set(re.findall(r"\w+", ch.before)), set(re.findall(r"\w+", ch.after))
        sure = "sure" if before and all(conf.get(x, 0) >= 90 for x in before) else "unsure"
        if before and before <= printed:
            out[f"false_{sure}"] += 1
        elif after and after <= printed:
            out[f"right_{sure}"] += 1
        else:
            out["other"] += 1
    return out


def _units(doc, lang: str) -> list:
    return [u for v in doc.versions if v.lang == lang for u in v.units]


def measure(name: str, level: sp.Level, pages: int, seed: int) -> dict:
    from indexer.sources.formats.ocr import read_pdf

    path, lang, which = TEXTS[name]
    head = f"Convention {name.split('-')[0].upper()}"
    typed = sp.excerpt(path.read_text(encoding="utf-8"), 2600 * (pages + 4))
    printed = sp.print_pdf(typed, head)
    every = sp.page_texts(printed)
    bodies = [_body(x, head, n) for n, x in enumerate(every, 1)]
    pages = structure.pages_for(typed, bodies, pages, lambda x: _units(process(x, lang), lang))
    truth_pages = every[:pages]
    body = "\n".join(bodies[:pages])
    gold = structure.printed_part(typed, body)
    images = sp.scan_pages(printed, level, seed, pages)
    pdf = sp.image_pdf(images, level)
    started = time.perf_counter()
    plain = plain_tesseract(images, lang)
    plain_seconds = time.perf_counter() - started
    started = time.perf_counter()
    reading = read_pdf(pdf, f"{name}.pdf", [lang])
    ocr_text = reading.text
    ocr_seconds = time.perf_counter() - started
    ocr_pages = ocr_text.split("\f")
    truth = "\n\n\f".join(truth_pages) + "\n"
    gold_doc, got_doc = process(gold, lang), process(ocr_text, lang)
    _lines, _after, clean_changes = repaired(truth, lang)
    started = time.perf_counter()
    before, after, changes = repaired(ocr_text, lang, reading.words)
    repair_seconds = time.perf_counter() - started
    articles = structure.compare(gold, _units(gold_doc, lang), ocr_text, _units(got_doc, lang))
    return {
        "text": name, "set": which, "lang": lang, "level": level.name, "pages": len(images),
        "cer_tesseract": _mean(cer, truth_pages, plain),
        "cer_ocr": _mean(cer, truth_pages, ocr_pages),
        "wer_tesseract": _mean(wer, truth_pages, plain),
        "wer_ocr": _mean(wer, truth_pages, ocr_pages),
        "cer_units_before": cer(body, before), "cer_units_after": cer(body, after),
        "wer_units_before": wer(body, before), "wer_units_after": wer(body, after),
        "changes": len(changes), "clean_changes": len(clean_changes),
        **judged(changes, truth, reading.words),
        "articles_right": articles["right"], "articles": articles["gold"],
        "articles_found": articles["found"], "article_numbers": articles["numbers"],
        "s_page_tesseract": plain_seconds / len(images), "s_page_ocr": ocr_seconds / len(images),
        "s_page_repair": repair_seconds / len(images),
    }


#: Typed texts of before 1980 (no scan: what the repair changes in period spellings).
TYPED = {
    "at-se-1959": (SHARED / "corpus-wild" / "sv" / "at-se-1959.txt", "sv"),
    "ch-se-1965": (SHARED / "corpus-wild" / "sv" / "ch-se-1965.txt", "sv"),
    "se-tz-1976": (SHARED / "corpus-wild" / "sv" / "se-tz-1976.txt", "sv"),
    "road-vehicles-1956": (SHARED / "corpus-wild" / "en" / "road-vehicles-goods-1956.txt", "en"),
    "cs-nl-1974": (SHARED / "corpus-wild" / "en" / "cs-nl-1974.txt", "en"),
}


def typed(path: Path, lang: str) -> tuple[int, int, list]:
    """(words, words changed, the changes) of the `lang` version of the typed text `path`."""
    from indexer.normalise import LAYOUT_STEPS
    from indexer.normalise.distance import WORD

    doc = process(path.read_text(encoding="utf-8"), lang)
    top = [u for v in doc.versions if v.lang == lang for u in v.units]
    changes = [ch for u in top for ch in _changes(u) if ch.step not in LAYOUT_STEPS]
    return sum(len(WORD.findall(u.text)) for u in top), len(changes), changes


def _changes(unit) -> tuple:
    """The changes of a unit: its own, or those of its parts when it has none of its own."""
    return unit.changes or tuple(ch for u in unit.children for ch in _changes(u))


def _body(page: str, head: str, number: int) -> str:
    """The text of a printed page without its running head and page number."""
    return "\n".join(x for x in page.splitlines() if x.strip() not in (head.upper(), str(number)))


def _mean(metric, truths: list[str], gots: list[str]) -> float:
    """`metric` over the pages joined (a page OCR lost counts whole)."""
    gots = gots + [""] * (len(truths) - len(gots))
    return metric(" ".join(truths), " ".join(gots[:len(truths)]))


def _count_changes(doc) -> int:
    def walk(units):
        return sum(len(u.changes) + walk(u.children) for u in units)
    return sum(walk(v.units) for v in doc.versions)


def report(rows: list[dict]) -> str:
    head = (f"{'text':10} {'set':8} {'level':5} {'CER tess':>8} {'CER ocr':>8} "
            f"{'units bef':>9} {'after':>7} {'gain':>6} {'WER tess':>8} {'WER ocr':>8} "
            f"{'chg':>4} {'right':>5} {'false':>5} {'clean':>5} {'articles':>8} {'s/pg t':>6} "
            f"{'s/pg o':>6} {'s/pg r':>6}")
    lines = [head]
    for r in rows:
        gain = 1 - r["cer_units_after"] / r["cer_units_before"] if r["cer_units_before"] else 0
        lines.append(
            f"{r['text']:10} {r['set']:8} {r['level']:5} {r['cer_tesseract']:8.2%} "
            f"{r['cer_ocr']:8.2%} {r['cer_units_before']:9.2%} {r['cer_units_after']:7.2%} "
            f"{gain:6.1%} {r['wer_tesseract']:8.2%} {r['wer_ocr']:8.2%} {r['changes']:4} "
            f"{r['right_sure'] + r['right_unsure']:5} {r['false_sure'] + r['false_unsure']:5} "
            f"{r['clean_changes']:5} {r['articles_right']:>3}/{r['articles']:<4} "
            f"{r['s_page_tesseract']:6.1f} {r['s_page_ocr']:6.1f} {r['s_page_repair']:6.2f}")
    for which in ("tune", "held-out"):
        for level in LEVELS:
            mine = [r for r in rows if r["set"] == which and r["level"] == level]
            if mine:
                lines.append(_summary(which, level, mine))
    return "\n".join(lines)


def _summary(which: str, level: str, rows: list[dict]) -> str:
    def mean(key: str) -> float:
        return sum(r[key] for r in rows) / len(rows)
    def total(*keys: str) -> int:
        return sum(r[k] for r in rows for k in keys)
    return (f"{which:8} {level:5}: CER tesseract {mean('cer_tesseract'):.2%}, ocr "
            f"{mean('cer_ocr'):.2%}; before repair {mean('cer_units_before'):.2%}, after "
            f"{mean('cer_units_after'):.2%}; changes {total('changes')} (right: "
            f"{total('right_sure')} of sure words, {total('right_unsure')} of unsure; false: "
            f"{total('false_sure')} sure, {total('false_unsure')} unsure); articles right "
            f"{total('articles_right')}/{total('articles')}; s/page tesseract "
            f"{mean('s_page_tesseract'):.1f}, ocr {mean('s_page_ocr'):.1f}, repair "
            f"{mean('s_page_repair'):.2f}")


#: Swedish before the 1906 reform, made from today's spelling: "af" for "av", "hv" for the v
#: of the question words and their compounds (hvad, hvem, hvilken, hvarje, hvarandra ...),
#: "fv" for a v between a vowel and a verb's or comparative's ending (öfver, gifva, hafva),
#: "qv" for "kv".
SV_BEFORE_1906 = (
    (r"\b([Aa])v\b", r"\1f"),
    ((r"\b([Vv])(?=(?:ad|em|ilken|ilket|ilka|ilkas|arje|arken|arför|arandra|ardera|armed"
      r"|arigenom|arifrån|arvid|arav|aröver)\b)"), lambda m: "hv" if m.group(1) == "v" else "Hv"),
    (r"(?<=[aeiouyäöå])v(?=(?:er|a|as|ade|at)\b)", "fv"),
    (r"\b([Kk])v", lambda m: "qv" if m.group(1) == "k" else "Qv"),
)
#: The period variants made of today's texts where no typed text of the time is at hand:
#: name: (path, language, how).
PERIOD = {
    "se-tt-1984 as 1900": (SHARED / "corpus-extra" / "sv" / "se-tt-1984.txt", "sv", "sv-1906"),
    "br-co-2022 as 1945": (ROOT / "corpus" / "brazil-colombia-2022.pt.txt", "pt", "pt-1945"),
}


def period_variant(text: str, how: str) -> str:
    """`text` spelled as before a reform: Swedish before 1906 (SV_BEFORE_1906), or Portuguese
    by the 1943/1945 rules: the differential circumflex on the stressed e or o of every
    paroxytone and monosyllable of four letters or more (more words than the rules marked,
    which marked the closed vowels only: a harder test of leaving them alone)."""
    if how == "sv-1906":
        for pattern, older in SV_BEFORE_1906:
            text = re.sub(pattern, older, text)
        return text
    return re.sub(r"[^\W\d_]{4,}", lambda m: _circumflexed(m.group()), text)


def _circumflexed(word: str) -> str:
    """`word` with a 1945 differential circumflex where one could stand (its stressed e or o
    alone, not in a diphthong; `pt_uncircumflex` says where), else as it is."""
    from indexer.lexicon import pt_uncircumflex

    if not word.isascii():
        return word
    for i, c in enumerate(word):
        if c in "eo" and not set(word[max(0, i - 1):i + 2:2]) & set("aeiou"):  # (no diphthong)
            marked = word[:i] + {"e": "ê", "o": "ô"}[c] + word[i + 1:]
            if pt_uncircumflex(marked) == word:
                return marked
    return word


def _typed_report() -> int:
    rows = [(name, path, lang, None) for name, (path, lang) in TYPED.items()]
    rows += [(name, path, lang, how) for name, (path, lang, how) in PERIOD.items()]
    for name, path, lang, how in rows:
        if not path.exists():
            continue
        if how is None:
            words, changed, changes = typed(path, lang)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                variant = Path(tmp) / "variant.txt"
                variant.write_text(period_variant(path.read_text(encoding="utf-8"), how),
                                   encoding="utf-8")
                words, changed, changes = typed(variant, lang)
        shown = ", ".join(f"{c.before}->{c.after}" for c in changes[:12])
        print(f"{name:20} {lang} {words:6} words, {changed:3} changed ({changed / words:.2%}): "
              f"{shown}")
    return 0


def _choose(psm: int | None, stray: float | None, min_dpi: int | None) -> None:
    """Set the OCR's choices to compare others with the ones it makes."""
    from indexer.sources.formats import ocr, ocr_words

    if psm is not None:
        ocr.PSM = psm
    if stray is not None:
        ocr_words.STRAY_CONFIDENCE = stray
    if min_dpi is not None:
        ocr.MIN_DPI = min_dpi


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--only", action="append", choices=sorted(TEXTS))
    parser.add_argument("--levels", default="fair,poor")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--typed", action="store_true",
                        help="the changes made on typed period texts instead (no scan)")
    parser.add_argument("--psm", type=int, help="the OCR's page segmentation mode, to compare")
    parser.add_argument("--stray", type=float, help="the OCR's stray-mark confidence, to compare")
    parser.add_argument("--min-dpi", type=int, help="the OCR's least resolution, to compare")
    args = parser.parse_args(argv)
    _choose(args.psm, args.stray, args.min_dpi)
    if shutil.which("tesseract") is None:
        print("tesseract is not installed", file=sys.stderr)
        return 1
    if args.typed:
        return _typed_report()
    rows = []
    for name in args.only or TEXTS:
        if not TEXTS[name][0].exists():
            print(f"(skipped {name}: {TEXTS[name][0]} absent)", file=sys.stderr)
            continue
        for level in args.levels.split(","):
            rows.append(measure(name, LEVELS[level], args.pages, args.seed))
            print(report(rows[-1:]).splitlines()[1], file=sys.stderr, flush=True)
    print(report(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
