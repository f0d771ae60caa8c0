"""Measure the `normalise` stage: OCR recall on the hand-made 1965 gold set, and false changes
on the clean texts.

    python scripts/measure_ocr.py [--cache DIR] [--show]

Prints repaired/total (recall), wrong changes (a gold token changed into something else),
missed tokens, the word-level changes made on every line of the clean texts, and timings.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from indexer.normalise import normalise

GOLD = ROOT / "tests" / "cases" / "ocr_gold_1965.json"
SOURCE = ROOT / "corpus" / "sweden-brazil-1965.sv-en-pt.txt"
EXTRA = ROOT.parent / "shared" / "corpus-extra"
#: clean texts: path -> language, or "auto" for a per-line language guess
CLEAN: dict[Path, str] = {
    ROOT / "corpus" / "brazil-colombia-2022.pt.txt": "pt",
    ROOT / "corpus" / "china-brazil-1991.zh.txt": "zh",
    ROOT / "corpus" / "portugal-spain-1993-art10.en-pt.txt": "auto",
}
#: Real typos in the "clean" sources: repairing them is not a false change.
GENUINE_TYPOS = {("Convetion", "Convention"), ("tilllämpas", "tillämpas")}
WORD_STEPS_EXCLUDED = {"unicode-nfc", "whitespace"}


def clean_files() -> dict[Path, str]:
    files = dict(CLEAN)
    if EXTRA.is_dir():
        for path in sorted(EXTRA.glob("*/*.txt")):
            files[path] = "auto"  # the extra files mix languages (English + Dutch, sv + en)
    return files


_LANGID = []


def line_language(line: str) -> str:
    """A per-line language guess for mixed files (py3langid, restricted set)."""
    if not _LANGID:
        import py3langid

        py3langid.set_languages(["en", "pt", "sv", "nl", "de", "es", "fr", "zh"])
        _LANGID.append(py3langid)
    return _LANGID[0].classify(line)[0]


def follow(token: str, changes) -> str:
    """What `token` became through a chain of changes."""
    cur = token
    for ch in changes:
        if ch.before == cur:
            cur = ch.after
    return cur


def measure_gold(cache: Path, show: bool) -> tuple[int, int, int, int]:
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    lines = SOURCE.read_text(encoding="utf-8").split("\n")
    repaired = wrong = missed = 0
    for case in gold:
        line = lines[case["line"] - 1]
        _, changes = normalise(line, case["lang"], cache)
        got = follow(case["before"], changes)
        if got == case["after"]:
            repaired += 1
        elif got == case["before"]:
            missed += 1
            if show:
                print(f"  missed  {case['line']:>5} {case['lang']} {case['before']!r} "
                      f"-> {case['after']!r}  ({case['note']})")
        else:
            wrong += 1
            print(f"  WRONG   {case['line']:>5} {case['lang']} {case['before']!r} -> {got!r} "
                  f"(expected {case['after']!r})")
    return repaired, wrong, missed, len(gold)


def measure_clean(cache: Path) -> tuple[int, int, int]:
    false = genuine = n_lines = 0
    for path, lang in clean_files().items():
        for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if not line.strip():
                continue
            n_lines += 1
            code = line_language(line) if lang == "auto" else lang
            _, changes = normalise(line, code, cache)
            for ch in changes:
                if ch.step in WORD_STEPS_EXCLUDED:
                    continue
                if (ch.before, ch.after) in GENUINE_TYPOS:
                    genuine += 1
                    continue
                false += 1
                print(f"  FALSE   {path.name}:{i} [{code}] {ch.step}: {ch.before!r} -> "
                      f"{ch.after!r}")
    return false, genuine, n_lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", help="lexicon cache dir (default: a fresh temporary dir)")
    ap.add_argument("--show", action="store_true", help="list missed gold tokens")
    args = ap.parse_args()
    cache = Path(args.cache) if args.cache else Path(tempfile.mkdtemp(prefix="treaty-lex-"))

    t0 = time.perf_counter()
    normalise("respecl capitai impösto", "pt", cache)
    normalise("respecl capitai taation", "en", cache)
    normalise("tilllämpning", "sv", cache)
    t_build = time.perf_counter() - t0

    t0 = time.perf_counter()
    n_changes = 0
    langs = {}
    for case in json.loads(GOLD.read_text(encoding="utf-8")):
        langs[case["line"]] = case["lang"]
    for i, line in enumerate(SOURCE.read_text(encoding="utf-8").split("\n"), 1):
        n_changes += len(normalise(line, langs.get(i, "sv"), cache)[1])
    t_file = time.perf_counter() - t0

    repaired, wrong, missed, total = measure_gold(cache, args.show)
    false, genuine, n_lines = measure_clean(cache)
    print(f"gold 1965: repaired {repaired}/{total} = {repaired / total:.1%}  "
          f"wrong changes {wrong}  missed {missed}")
    print(f"clean texts: {n_lines} lines, false changes {false}, "
          f"repairs of genuine typos {genuine}")
    print(f"timing: lexicon build (en, pt, sv + foreign, cold cache) {t_build:.1f}s; "
          f"normalise whole 1965 file ({SOURCE.name}) {t_file:.1f}s")


if __name__ == "__main__":
    main()
