"""The corpus of amending protocols written for issue 29 (tests/cases/instruments/): the
bundled treaties with protocols that amend them, in the styles real ones use (en, pt, sv),
either in the same file as the treaty or in a file of their own for the same treaty id.

    python scripts/instrument_corpus.py OUT_DIR [--separate]

`build(out, separate)` is what the tests and scripts/measure_instruments.py call.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases" / "instruments"
CORPUS = ROOT / "corpus"

#: (bundled file, its manifest lines, the protocol file, its languages, its own manifest
#: lines when it is a file of its own)
PAIRS = (
    ("brazil-peru-2006.en.txt",
     ('treaty = "br-pe-2006"\nparties = ["BR", "PE"]\nsigned = "2006-02-17"\nplace = "Lima"\n'
     'languages = ["en"]\nin_force = "2008-07-01"\nauthentic = ["es", "pt", "en"]'),
     "br-pe-2006.protocol-2019.en.txt", '["en"]',
     'signed = "2019-03-12"\nplace = "Brasília"'),
    ("brazil-colombia-2022.pt.txt",
     ('treaty = "br-co-2022"\nparties = ["BR", "CO"]\nsigned = "2022-08-05"\n'
     'place = "Brasília"\nlanguages = ["pt"]'),
     "br-co-2022.protocolo-2023.pt.txt", '["pt"]',
     'signed = "2023-03-14"\nplace = "Bogotá"'),
)
#: A protocol that is always a file of its own (a treaty whose print is a bill).
SEPARATE = (
    ("sweden-brazil-1965.sv-en-pt.txt",
     ('treaty = "br-se-1965"\nparties = ["BR", "SE"]\nsigned = "1965-09-17"\n'
     'place = "Rio de Janeiro"\nlanguages = ["sv", "en", "pt"]'),
     "br-se-1965.protokoll-1975.sv-en.txt", '["sv", "en"]',
     'signed = "1975-04-25"\nplace = "Brasília"'),
)


def _entry(file: str, lines: str) -> str:
    return f'[[document]]\nfile = "{file}"\n{lines}\n'


def build(out: Path, separate: bool = False) -> Path:
    """Write the corpus into `out` (made if missing): each pair's protocol in the treaty's
    file, or (`separate`) in a file of its own; the 1965 protocol always on its own."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for treaty_file, lines, protocol, langs, own in PAIRS + SEPARATE:
        text = (CORPUS / treaty_file).read_text("utf-8").rstrip("\n")
        extra = (CASES / protocol).read_text("utf-8")
        if separate or (treaty_file, lines, protocol, langs, own) in SEPARATE:
            (out / treaty_file).write_text(text + "\n", "utf-8")
            (out / protocol).write_text(extra, "utf-8")
            treaty = lines.split("\n")[0]
            manifest.append(_entry(treaty_file, lines))
            manifest.append(_entry(protocol, f'{treaty}\ninstrument = "protocol"\n{own}\n'
                                   f'languages = {langs}'))
        else:
            (out / treaty_file).write_text(text + "\n\n" + extra, "utf-8")
            manifest.append(_entry(treaty_file, lines))
    (out / "manifest.toml").write_text("\n".join(manifest), "utf-8")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--separate", action="store_true",
                   help="every protocol in a file of its own")
    args = p.parse_args()
    print(build(args.out, args.separate))


if __name__ == "__main__":
    sys.exit(main())
