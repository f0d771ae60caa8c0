"""How right the treaties as amended are, on the protocols written for issue 29
(tests/cases/instruments/, gold.json): for each amended article, its instrument, how its
consolidated text starts and ends, its number of paragraphs, the words it must and must not
hold, and its original; the understandings kept beside their articles; the rates after the
amendment and at an earlier date. Both layouts: each protocol in its treaty's file, and in a
file of its own.

    python scripts/measure_instruments.py
    python scripts/measure_instruments.py --json

And on real texts that amend nothing mechanically (../shared/corpus-wild and corpus-extra,
consolidated statutes, signature protocols, exchanges of letters): every amendment applied
there is a false one (`--real`).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

GOLD = ROOT / "tests" / "cases" / "instruments" / "gold.json"
HELDOUT = ROOT / "tests" / "cases" / "instruments" / "heldout"
SHARED = ROOT.parent / "shared"


def _paragraphs(tree: dict) -> int:
    return sum(1 for c in tree["children"] if c["kind"] == "paragraph")


def check_article(corpus, treaty: str, want: dict, instrument: str) -> list[str]:
    """What is wrong with one amended article (its checks in `want`); [] when nothing."""
    from search.instruments import provenance, tree_as

    lang, eid = want["lang"], want["eid"]
    where = f"{treaty} {lang} {eid}"
    wrong = []
    tree = tree_as(corpus, treaty, lang, eid, None)
    if not tree:
        return [f"{where}: missing"]
    unit = tree[0]
    made = provenance(corpus, treaty, lang).get((lang, eid))
    if made is None or made["instrument"] != instrument:
        wrong.append(f"{where}: instrument {made and made['instrument']}, not {instrument}")
    text = unit["text"]
    if want.get("starts") and not text.startswith(want["starts"]):
        wrong.append(f"{where}: starts {text[:50]!r}")
    if want.get("ends") and not text.rstrip().endswith(want["ends"]):
        wrong.append(f"{where}: ends {text[-50:]!r}")
    if want.get("paragraphs") is not None and _paragraphs(unit) != want["paragraphs"]:
        wrong.append(f"{where}: {_paragraphs(unit)} paragraphs, not {want['paragraphs']}")
    for words in want.get("contains", ()):
        if words not in " ".join(text.split()):
            wrong.append(f"{where}: lacks {words[:40]!r}")
    for words in want.get("absent", ()):
        if words in " ".join(text.split()):
            wrong.append(f"{where}: still holds {words[:40]!r}")
    original = tree_as(corpus, treaty, lang, eid, "original")
    if "original" in want:
        if want["original"] is None and original:
            wrong.append(f"{where}: an original where the protocol inserted it")
        elif want["original"] is not None:
            if not original:
                wrong.append(f"{where}: no original")
            else:
                o = want["original"]
                if o.get("starts") and not original[0]["text"].startswith(o["starts"]):
                    wrong.append(f"{where}: original starts {original[0]['text'][:40]!r}")
                if o.get("paragraphs") is not None and _paragraphs(original[0]) != o["paragraphs"]:
                    wrong.append(f"{where}: original has {_paragraphs(original[0])} paragraphs")
    return wrong


def check_treaty(data: Path, treaty: str, want: dict) -> dict:
    from search.corpus import Corpus
    from search.instruments import understandings
    from search.rates import rates

    out = {"articles": 0, "articles_right": 0, "rates": 0, "rates_right": 0, "wrong": []}
    with Corpus(data) as corpus:
        for article in want["articles"]:
            wrong = check_article(corpus, treaty, article, want["instrument"])
            out["articles"] += 1
            out["articles_right"] += not wrong
            out["wrong"] += wrong
        for u in want["understandings"]:
            if not any(x["lang"] == u["lang"] and x["status"] == "understanding"
                       for x in understandings(corpus, treaty, u["target"])):
                out["wrong"].append(f"{treaty} {u['lang']} {u['target']}: no understanding")
        langs = set(want.get("rate_langs") or corpus.treaty(treaty).languages)
        for when, expected in want["rates"].items():
            got = {(r["unit"].split("/")[2], r["topic"], r["kind"], r["rate"])
                   for r in rates(corpus, treaty=treaty, as_of=None if when == "now" else when
                                  )["rates"] if langs & set(r["langs"])}
            exp = {(e, t, k, float(v)) for e, t, k, v in expected}
            out["rates"] += len(exp)
            out["rates_right"] += len(exp & got)
            for x in sorted(map(str, exp - got)):
                out["wrong"].append(f"{treaty} rates {when}: missed {x}")
            for x in sorted(map(str, got - exp)):
                out["wrong"].append(f"{treaty} rates {when}: extra {x}")
    return out


def measure(tmp: Path) -> dict:
    from instrument_corpus import build

    from indexer.pipeline import ingest

    gold = json.loads(GOLD.read_text("utf-8"))
    result = {}
    for layout, separate in (("same file", False), ("own file", True)):
        corpus = build(tmp / f"corpus-{separate}", separate)
        data = tmp / f"data-{separate}"
        ingest(corpus, data, workers=1)
        per = {t: check_treaty(data, t, w) for t, w in gold["treaties"].items()}
        result[layout] = {k: sum(p[k] for p in per.values()) for k in
                          ("articles", "articles_right", "rates", "rates_right")}
        result[layout]["wrong"] = [w for p in per.values() for w in p["wrong"]]
    return result


def heldout_corpus(out: Path, separate: bool) -> tuple[Path, dict]:
    """The held-out instruments (HELDOUT, gold.json) with their bundled treaties, each in
    its treaty's file or in a file of its own; and their gold."""
    from instrument_corpus import CORPUS, PAIRS, SEPARATE, _entry

    gold = json.loads((HELDOUT / "gold.json").read_text("utf-8"))
    lines = {p[0]: p[1] for p in PAIRS + SEPARATE}
    apart = {p[0] for p in SEPARATE}  # (a trilingual bill: its instruments in files apart)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for treaty, (treaty_file, notes, own) in gold["files"].items():
        text = (CORPUS / treaty_file).read_text("utf-8").rstrip("\n")
        extra = (HELDOUT / notes).read_text("utf-8")
        manifest.append(_entry(treaty_file, lines[treaty_file]))
        if separate or treaty_file in apart:
            (out / treaty_file).write_text(text + "\n", "utf-8")
            (out / notes).write_text(extra, "utf-8")
            langs = json.dumps(sorted({a["lang"] for a in gold["treaties"][treaty]["articles"]}))
            manifest.append(_entry(notes, f'treaty = "{treaty}"\n{own}\nlanguages = {langs}'))
        else:
            (out / treaty_file).write_text(text + "\n\n" + extra, "utf-8")
    (out / "manifest.toml").write_text("\n".join(manifest), "utf-8")
    return out, gold


def heldout(tmp: Path) -> dict:
    """The held-out instruments measured as `measure` measures the others."""
    from indexer.pipeline import ingest

    result = {}
    for layout, separate in (("held out, same file", False), ("held out, own file", True)):
        corpus, gold = heldout_corpus(tmp / f"heldout-{separate}", separate)
        data = tmp / f"heldout-data-{separate}"
        ingest(corpus, data, workers=1)
        per = {t: check_treaty(data, t, w) for t, w in gold["treaties"].items()}
        result[layout] = {k: sum(p[k] for p in per.values()) for k in
                          ("articles", "articles_right", "rates", "rates_right")}
        result[layout]["wrong"] = [w for p in per.values() for w in p["wrong"]]
    return result


def real(tmp: Path) -> dict:
    """Amendments applied on the real texts (none should be), understandings and clauses no
    one could read (reported by `treaty check`)."""
    from indexer import store
    from indexer.pipeline import ingest

    out = {}
    for name in ("corpus-wild", "corpus-extra"):
        corpus = SHARED / name
        if not corpus.is_dir():
            continue
        data = tmp / name
        ingest(corpus, data, workers=2)
        with closing(store.connect(data)) as db:
            rows = db.execute("SELECT status, COUNT(*) FROM amendments GROUP BY status")
            counts = {r[0]: r[1] for r in rows}
            later = db.execute("SELECT COUNT(*) FROM instruments WHERE base=0").fetchone()[0]
        out[name] = {"instruments after the base": later, "amendments": counts}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true")
    p.add_argument("--real", action="store_true", help="also ingest ../shared's real texts")
    p.add_argument("--heldout", action="store_true",
                   help="only the held-out instruments (tests/cases/instruments/heldout/)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = heldout(Path(tmp)) if args.heldout else measure(Path(tmp))
        if args.real:
            result["real"] = real(Path(tmp))
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    for layout, r in result.items():
        if layout == "real":
            for name, x in r.items():
                print(f"{name}: {x}")
            continue
        print(f"{layout}: articles {r['articles_right']}/{r['articles']} right, rates "
              f"{r['rates_right']}/{r['rates']} right")
        for w in r["wrong"]:
            print(f"    {w}")


if __name__ == "__main__":
    main()
