"""The spelling system of a document as a fact (issue 30): estimated from the document's own
words, and the repair never changing a word consistent with it."""

from __future__ import annotations

from pathlib import Path

from indexer.models import Line
from indexer.normalise import repair_version, shared
from indexer.normalise.document import system_of
from indexer.normalise.orthography import consistent

ROOT = Path(__file__).resolve().parent.parent
#: A note of the 1920s as such a text spells it (commercio, pharmacia, sciencia, Suecia).
OLD_PT = ("Os Estados Unidos do Brazil e a Suecia, desejando facilitar o commercio e a "
          "pharmacia, e promover a sciencia, resolveram celebrar o presente Accôrdo.")


def _lines(text: str, lang: str) -> list[Line]:
    return [Line(text=x, raw=x, start=i, end=i, lang=lang)
            for i, x in enumerate(text.split("\n"), 1) if x.strip()]


def test_the_system_is_read_from_the_document_s_own_words():
    old = system_of(_lines(OLD_PT, "pt"), shared("pt"))
    assert old.older and {"commercio", "pharmacia", "sciencia"} <= set(old.evidence)
    today = (ROOT / "corpus" / "brazil-colombia-2022.pt.txt").read_text(encoding="utf-8")
    assert not system_of(_lines(today, "pt"), shared("pt")).older
    assert consistent("Suecia", "Suécia", old) and not consistent("Suecia", "Suécia",
                                                                 system_of(_lines(today, "pt"),
                                                                           shared("pt")))


def test_a_word_of_the_document_s_older_system_comes_out_unchanged():
    nz = shared("pt")
    from indexer.normalise import normalise_line

    lines = [normalise_line(x, nz) for x in _lines(OLD_PT, "pt")]
    assert any(c.before == "Suecia" for x in lines for c in x.changes)  # (the line step's)
    out = repair_version(lines, nz, [], True)
    assert out[0].text == OLD_PT and not [c for x in out for c in x.changes
                                          if c.before == "Suecia"]
