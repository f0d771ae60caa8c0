"""Measure language identifiers on the hand-labelled noisy blocks of the 1965 OCR text.

Prints accuracy and time per call for py3langid (a private LanguageIdentifier restricted
with `set_languages`), langdetect (seeded, best of the candidate languages) and the
project's own `indexer.languages.detect` (detector plus lexical cues).

    /work/venv/bin/python scripts/measure_langid.py
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = ROOT / "tests" / "cases" / "language_blocks.json"
CANDIDATES = ("en", "pt", "sv")


def _py3langid() -> Callable[[str], str]:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(CANDIDATES))
    return lambda text: identifier.classify(text)[0]


def _langdetect() -> Callable[[str], str]:
    from langdetect import DetectorFactory, detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0

    def run(text: str) -> str:
        try:
            ranked = detect_langs(text)
        except LangDetectException:
            return ""
        for guess in ranked:
            if guess.lang in CANDIDATES:
                return guess.lang
        return ranked[0].lang if ranked else ""

    return run


def _ours() -> Callable[[str], str]:
    from indexer.languages import detect

    return lambda text: detect(text, CANDIDATES)


def measure(name: str, make: Callable[[], Callable[[str], str]], cases: list[dict]) -> tuple:
    start = time.perf_counter()
    classify = make()
    classify("warm up the model with a sentence long enough for every identifier")
    load = time.perf_counter() - start
    right = 0
    start = time.perf_counter()
    for case in cases:
        right += classify(case["text"]) == case["lang"]
    per_call = (time.perf_counter() - start) / len(cases) * 1000
    return name, right / len(cases), per_call, load, right


def main() -> None:
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    rows = [
        measure("py3langid (en/pt/sv)", _py3langid, cases),
        measure("langdetect (seed 0)", _langdetect, cases),
        measure("indexer.languages.detect", _ours, cases),
    ]
    print(f"{len(cases)} hand-labelled blocks from {CASES.name}")
    print(f"{'identifier':<26} {'accuracy':>9} {'right':>6} {'ms/call':>8} {'load s':>7}")
    for name, accuracy, per_call, load, right in rows:
        print(f"{name:<26} {accuracy:>9.3f} {right:>6} {per_call:>8.2f} {load:>7.2f}")


if __name__ == "__main__":
    main()
