"""Hostile source files, made here (tests/hostile_files.py): Word files that loop, allocate
or inflate without bound, a signature line of underscores, Chinese in legacy code pages,
HTML pages that declare a codec that is no text encoding. Each is read within bounds or
refused in one line. scripts/probe_hostile.py measures the same at full size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import hostile_files as hostile
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.errors import SourceError
from indexer.sources.read import decode

ROOT = Path(__file__).resolve().parent.parent
ZH = ROOT / "corpus" / "china-brazil-1991.zh.txt"

_CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
sys.path.insert(0, "tests")
import hostile_files as hostile
from indexer.errors import SourceError
from indexer.sources.read import decode
cases = {
    "style loop": lambda: hostile.style_loop(),
    "start 999999999": lambda: hostile.absurd_list(),
    "start of 5000 digits": lambda: hostile.absurd_list(start="9" * 5000),
    "level 99999999": lambda: hostile.absurd_list(ilvl="99999999"),
    "broken XML": lambda: hostile.broken_xml(),
    "bomb": lambda: hostile.bomb(100),
}
out = {}
for name, make in cases.items():
    data = make()
    try:
        out[name] = ["text", decode(data, "w.docx").text]
    except SourceError as exc:
        out[name] = ["error", str(exc)]
out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def word_files() -> dict:
    """What reading each hostile Word file gives, in a child process with bounded memory and
    time (a loop or an allocation fails the test instead of stalling the suite)."""
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("reading the hostile Word files did not end")
    assert done.returncode == 0, done.stderr[-500:]
    return json.loads(done.stdout)


def test_a_style_based_on_itself_ends(word_files: dict) -> None:
    kind, text = word_files["style loop"]
    assert kind == "text" and "Convention" in text and "Article 3" in text


@pytest.mark.parametrize("case", ["start 999999999", "start of 5000 digits",
                                  "level 99999999"])
def test_absurd_list_numbers_allocate_nothing(word_files: dict, case: str) -> None:
    kind, text = word_files[case]
    assert kind == "text" and "item 2" in text and "Article 3" in text
    assert len(text) < 1000


def test_broken_xml_is_one_line(word_files: dict) -> None:
    kind, message = word_files["broken XML"]
    assert kind == "error"
    assert message.startswith("w.docx: not a readable Word file (broken XML: ")
    assert message.endswith("); save it again from Word") and "\n" not in message


def test_a_compressed_bomb_is_refused_before_it_inflates(word_files: dict) -> None:
    kind, message = word_files["bomb"]
    assert kind == "error"
    assert message == ("w.docx: its parts expand to over 64 MB (a compressed bomb?); not "
                       "read (--max-file-mb raises the limit)")
    assert word_files["maxrss_mb"] < 1000  # (a ceiling: unbounded, 100 MB of XML takes GBs)


def test_the_limit_follows_the_file_limit() -> None:
    data = hostile.bomb(3)
    assert "Article 3" in decode(data, "w.docx", limit=16 << 20).text
    with pytest.raises(SourceError, match=r"expand to over 2 MB"):
        decode(data, "w.docx", limit=2 << 20)


_IDS = st.sampled_from(["A", "B", "C", "D"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(_IDS, st.one_of(st.none(), _IDS)), min_size=1, max_size=6),
       st.lists(st.one_of(st.none(), _IDS), min_size=1, max_size=5))
def test_any_graph_of_base_styles_reads(graph, used) -> None:
    """Whatever styles are based on (loops, chains, missing ones), the file reads."""
    defined = {sid: base for sid, base in graph}
    sty = hostile.styles("".join(hostile.style(sid, base) for sid, base in defined.items()))
    body = "".join(hostile.para(f"p{k}", style=sid) for k, sid in enumerate(used))
    text = decode(hostile.docx(hostile.document(body + hostile.articles(1)), sty),
                  "w.docx").text
    assert all(f"p{k}" in text for k in range(len(used)))


def test_gb18030_and_big5_read_as_chinese() -> None:
    from opencc import OpenCC

    text = ZH.read_text(encoding="utf-8")
    simplified = decode(text.encode("gb18030"), "zh.txt")
    assert (simplified.encoding, simplified.text) == ("gb18030", text.replace("\r\n", "\n"))
    traditional = OpenCC("s2tw").convert(text)
    big5 = decode(traditional.encode("cp950", errors="replace"), "zh-tw.txt")
    assert big5.encoding == "cp950"
    assert big5.text.startswith(traditional[:40])


def test_a_big5_treaty_gives_its_articles() -> None:
    from opencc import OpenCC

    from indexer.models import DocMeta
    from indexer.pipeline.document import count_kind, process

    text = OpenCC("s2tw").convert(ZH.read_text(encoding="utf-8"))
    meta = DocMeta(file="zh.txt", treaty="br-cn-1991", parties=("BR", "CN"),
                   signed="1991-08-05")
    doc, _ = process(decode(text.encode("cp950", errors="replace"), "zh.txt"), meta)
    utf8, _ = process(decode(text.encode("utf-8"), "zh.txt"), meta)
    assert [v.lang for v in doc.versions] == ["zh"]
    assert count_kind(doc.versions[0].units, "article") == count_kind(
        utf8.versions[0].units, "article") > 20


@pytest.mark.parametrize(("text", "codec", "language"), [
    ("日本国政府とブラジル連邦共和国政府との間の租税条約第一条この条約は" * 20, "shift_jis",
     "Japanese"),
    ("대한민국 정부와 브라질 연방공화국 정부 간의 소득에 대한 조세의 이중과세 회피 " * 20,
     "euc_kr", "Korean"),
])
def test_japanese_and_korean_code_pages_are_refused_in_one_line(text, codec, language):
    with pytest.raises(SourceError) as caught:
        decode(text.encode(codec), "t.txt")
    assert str(caught.value) == (
        f"t.txt: text in {language} ({codec}), a language this corpus does not read; "
        "give a text in English, Portuguese, Swedish or Chinese as UTF-8")


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=1, max_size=300))
def test_legacy_code_pages_never_crash(junk: bytes) -> None:
    data = ZH.read_text(encoding="utf-8")[:400].encode("gb18030") + junk
    try:
        decoded = decode(data, "zh.txt")
    except SourceError as exc:
        assert "\n" not in str(exc)
    else:
        assert decoded.text


@pytest.mark.parametrize("charset", ["base64", "zlib", "rot13", "bz2", "hex", "uu",
                                     "x-no-such-charset", "unicode_escape", "idna"])
def test_a_page_declaring_a_codec_that_is_no_text_encoding_reads(charset: str) -> None:
    page = (f'<!doctype html><html><head><meta charset="{charset}"></head><body>'
            "<p>Article 1</p><p>Café and ação.</p></body></html>").encode()
    decoded = decode(page, "p.html")
    assert decoded.encoding == "utf-8"
    assert "Café and ação." in decoded.text


def test_a_signature_line_of_underscores_is_cleaned_at_once() -> None:
    """The line that made cleaning exponential (an alternation of rule runs under a repeat:
    40 underscores took 30 s, each two more tripled it): long runs are cleaned at once."""
    from indexer.clean.drawing import strip_drawing

    for n in (40, 400, 100_000):
        assert strip_drawing(f"| {'_' * n} Brazil {'_' * n} |") == "Brazil"
        assert strip_drawing(f"Signed {'_' * n} for Brazil") == f"Signed {'_' * n} for Brazil"
        assert strip_drawing(f"{'_' * n}x") == "x"


# The pattern strip_drawing replaced (exponential on long lines, exact on short ones).
_OLD_EDGE = __import__("re").compile(r"^(?:[\s|¦│]|_{2,})+|(?:[\s|¦│]|_{2,})+$")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="_ |¦│a\t─x", max_size=14))
def test_strip_drawing_removes_what_the_pattern_did(line: str) -> None:
    from indexer.clean.drawing import has_edge_rule, strip_drawing

    old = _OLD_EDGE.sub("", line).strip() if has_edge_rule(line) else line.strip()
    assert strip_drawing(line) == old


def test_a_gb18030_text_with_a_few_bad_bytes_stays_gb18030_and_says_so() -> None:
    data = ZH.read_text(encoding="utf-8").encode("gb18030")
    half = len(data) // 2
    damaged = data[:half] + b"\xff" + data[half:]
    decoded = decode(damaged, "zh.txt")
    assert decoded.encoding == "gb18030"
    [warning] = decoded.warnings
    assert warning.startswith("not valid gb18030: ") and "replaced by U+FFFD" in warning


_LONG_LINES = """
import sys
from indexer.sources.read import decode
from indexer.models import DocMeta
from indexer.pipeline.document import count_kind, process
base = open("corpus/brazil-peru-2006.en.txt", encoding="utf-8").read()
half = len(base) // 2
hostile = "\\n".join(u * (500_000 // len(u)) for u in ("a", "_ ", ". ", "\\t", "Article ", "第"))
doc, _ = process(decode((base[:half] + "\\n" + hostile + "\\n" + base[half:]).encode(), "x.txt"),
                 DocMeta(file="x.txt", treaty="br-pe-2006", languages=("en",)), topics=False)
print(count_kind(doc.versions[0].units, "article"))
"""


def test_lines_of_half_a_million_characters_are_read_in_bounded_time() -> None:
    """Each line a run of one unit (a 500,000-letter word, underscores, leaders, tabs, a
    repeated heading word, Han): quadratic steps took minutes (8 s for 80,000 letters);
    a ceiling, not a measure (scripts/probe_hostile.py measures)."""
    try:
        done = subprocess.run([sys.executable, "-c", _LONG_LINES], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("processing the long lines did not end within 120 s")
    assert done.returncode == 0, done.stderr[-500:]
    assert int(done.stdout.strip()) >= 29


def test_a_pdf_whose_content_inflates_past_the_limit_is_refused() -> None:
    small = hostile.pdf_bomb(1)
    assert decode(small, "b.pdf").text.startswith("Article 1 of this treaty")
    with pytest.raises(SourceError) as caught:
        decode(hostile.pdf_bomb(80), "b.pdf")
    assert str(caught.value) == ("b.pdf: its compressed streams expand to over 64 MB (a "
                                 "compressed bomb?); not read (--max-file-mb raises the limit)")


def test_a_long_line_ending_with_a_hyphen_is_joined_at_once() -> None:
    """The word before a line-end hyphen was searched from every position of the line:
    quadratic (a 64,000-letter word took over a minute)."""
    from indexer.clean.hyphens import _split_at_hyphen

    head = "x " + "a" * 200_000 + " tribu-\n"
    _stem, left, first, spaced = _split_at_hyphen(head, "tação do")
    assert (left, first, spaced) == ("tribu", "tação", False)


@pytest.mark.parametrize(("value", "says"), [
    ("title = 5", "title must be text in quotes, not int"),
    ("place = [1]", "place must be text in quotes, not list"),
    ("note = {a = 1}", "note must be text in quotes, not dict"),
    ('title = "' + "T" * 3000 + '"', "title must be one line of at most 2000 characters"),
    ('place = "a\\u001b[31mb"', "place must be one line of at most 200 characters"),
    ("article = true", "article must be a positive whole number (at most 9999)"),
    ("article = 99999999999999999", "article must be a positive whole number (at most 9999)"),
    ('signed = "2006-13-45"', "signed must be a date like 2006-02-17"),
    ("parties = [" + ", ".join(['"BR"'] * 50) + "]", "parties must be ISO 3166-1 alpha-2"),
])
def test_manifest_values_of_the_wrong_type_or_size_are_one_line(tmp_path, value, says):
    from indexer.errors import ManifestError
    from indexer.sources import manifest

    (tmp_path / "manifest.toml").write_text(f'[[document]]\nfile = "a.txt"\n{value}\n',
                                            "utf-8")
    with pytest.raises(ManifestError) as caught:
        manifest.load(tmp_path)
    assert str(caught.value).startswith(f"manifest.toml document 1: {says}")
    assert "\n" not in str(caught.value)
