"""An ingest under faults and races: killed at spread moments, two at once into one data
directory, an empty corpus folder, interrupts; the store and the index a reader opens always
belong together (`indexer.datadir`). The long kill loop is `scripts/kill_ingest.py`."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer import datadir, store
from indexer.errors import EmptyCorpusError
from indexer.pipeline import ingest
from search.cli import main
from search.corpus import Corpus
from search.results import SearchSession

ROOT = Path(__file__).resolve().parent.parent
DROPPED = "portugal-spain-1993-art10.en-pt.txt"  # (treaty es-pt-1993) not in the smaller one


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "search.cli", "ingest", *args]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TREATY_DATA", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def _smaller_corpus(corpus_dir: Path, into: Path) -> Path:
    """The bundled corpus without DROPPED (its file and its manifest entry)."""
    shutil.copytree(corpus_dir, into)
    (into / DROPPED).unlink()
    blocks = (into / "manifest.toml").read_text("utf-8").split("[[document]]")
    kept = [b for b in blocks if f'"{DROPPED}"' not in b]
    (into / "manifest.toml").write_text("[[document]]".join(kept), "utf-8")
    return into


def _pair(data: Path) -> tuple[set[str], set[str]]:
    """(treaties of the store, treaties the index holds) as a reader opens them."""
    with SearchSession(data) as s:
        table = s.searcher.groups()
        assert table is not None
        return set(s.treaties()), table.treaties()


def _assert_agree(data: Path, corpora: list[set[str]]) -> None:
    stored, indexed = _pair(data)
    assert stored == indexed, (sorted(stored ^ indexed), "store and index disagree")
    assert stored in corpora, sorted(stored)


def _assert_no_leftovers(data: Path) -> None:
    """Only the live generation and the one before stay; every index generation left is
    complete; no temporary file."""
    assert len(list(data.glob("gen-*"))) <= 2
    assert [p for p in data.rglob("*.tmp")] == []
    for gen in data.rglob("g-*"):
        assert (gen / "index.json").exists(), f"unfinished index generation {gen} left"


def _wait_for(proc: subprocess.Popen, started: float, offset: float) -> None:
    while proc.poll() is None and time.monotonic() - started < offset:
        time.sleep(0.02)


def test_killed_reingests_leave_store_and_index_together(tmp_path: Path,
                                                          corpus_dir: Path) -> None:
    """SIGKILL at spread moments of a re-ingest (alternating engines and corpora): after
    each, the store and the index a reader opens hold the same treaties, of one corpus; the
    next ingest removes what the kills left."""
    smaller = _smaller_corpus(corpus_dir, tmp_path / "smaller")
    data = tmp_path / "data"
    t0 = time.monotonic()
    subprocess.run(_cli("--corpus", str(corpus_dir), "--data", str(data), "--force"),
                   env=_env(), check=True, capture_output=True)
    full = time.monotonic() - t0
    full_set = _pair(data)[0]
    corpora = [full_set, full_set - {"es-pt-1993"}]
    for k, (engine, fraction) in enumerate([("whoosh", 0.6), ("tantivy", 0.85),
                                            ("whoosh", 0.95), ("tantivy", 0.75)]):
        corpus = smaller if k % 2 == 0 else corpus_dir
        proc = subprocess.Popen(_cli("--corpus", str(corpus), "--data", str(data), "--force",
                                     "--engine", engine),
                                env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for(proc, time.monotonic(), fraction * full)
        proc.kill()
        proc.wait()
        _assert_agree(data, corpora)
    subprocess.run(_cli("--corpus", str(smaller), "--data", str(data), "--engine", "tantivy"),
                   env=_env(), check=True, capture_output=True)
    _assert_agree(data, corpora[1:])
    _assert_no_leftovers(data)


def _one_doc_corpus(corpus_dir: Path, into: Path, name: str) -> Path:
    """A corpus folder of the bundled file `name`, declared with its treaty id."""
    into.mkdir()
    shutil.copy(corpus_dir / name, into / name)
    treaty = {DROPPED: "es-pt-1993", "brazil-peru-2006.en.txt": "br-pe-2006"}[name]
    (into / "manifest.toml").write_text(f'[[document]]\nfile = "{name}"\ntreaty = "{treaty}"\n',
                                        "utf-8")
    return into


def test_two_ingests_at_once_give_one_corpus(tmp_path: Path, corpus_dir: Path) -> None:
    """Two ingest processes into one data directory: both succeed, one after the other, and
    the corpus is one of the two, never a mix."""
    a = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    b = _one_doc_corpus(corpus_dir, tmp_path / "b", "brazil-peru-2006.en.txt")
    for trial in range(2):
        data = tmp_path / f"data{trial}"
        procs = [subprocess.Popen(_cli("--corpus", str(c), "--data", str(data)), env=_env(),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for c in (a, b)]
        outs = [p.communicate() for p in procs]
        assert [p.returncode for p in procs] == [0, 0], outs
        _assert_agree(data, [{"es-pt-1993"}, {"br-pe-2006"}])
        _assert_no_leftovers(data)


def test_a_second_ingest_waits_or_exits_at_once(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    with datadir.writing(data):  # an ingest in progress (this process)
        busy = subprocess.run(_cli("--corpus", str(corpus), "--data", str(data), "--no-wait"),
                              env=_env(), capture_output=True, text=True, check=False)
        assert busy.returncode == 1
        assert busy.stderr.strip() == (f"Error: another ingest into {data} is running "
                                       f"(pid {os.getpid()}); try again when it has finished")
        waiting = subprocess.Popen(_cli("--corpus", str(corpus), "--data", str(data)),
                                   env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        line = waiting.stderr.readline()
        assert line.strip() == (f"another ingest into {data} is running (pid {os.getpid()}); "
                                "waiting…")
        assert waiting.poll() is None
    _out, err = waiting.communicate()
    assert waiting.returncode == 0, err
    assert _pair(data) == ({"es-pt-1993"}, {"es-pt-1993"})


def test_readers_do_not_take_the_lock(ingested: Path) -> None:
    with datadir.writing(ingested):
        with Corpus(ingested) as c:
            assert c.treaties()
        with SearchSession(ingested) as s:
            assert s.search("dividends")["hits"]


def test_an_empty_corpus_folder_is_refused(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    ingest(corpus, data)
    before = store.store_path(data).read_bytes()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(EmptyCorpusError):
        ingest(empty, data)
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(empty), "--data", str(data)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        (f"Error: {empty}: no documents to ingest; the corpus in {data} is unchanged "
         "(pass --allow-empty to replace it with an empty one)")]
    assert store.store_path(data).read_bytes() == before
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(empty), "--data", str(data),
                                       "--allow-empty"])
    assert result.exit_code == 0, result.output
    assert _pair(data) == (set(), set())


def test_failure_lines_say_what_happened(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    (corpus / "broken.txt").write_bytes(b"")
    data = tmp_path / "data"
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data", str(data)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "Error: 1 of 2 documents failed; the other one was ingested")
    before = store.store_path(data).read_bytes()
    (corpus / DROPPED).write_bytes(b"")
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data", str(data)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "Error: all 2 documents failed; nothing was ingested and the previous corpus, if any, "
        "is unchanged")
    assert store.store_path(data).read_bytes() == before


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_says_the_corpus_is_unchanged(tmp_path: Path, corpus_dir: Path,
                                                   sig: int, code: int) -> None:
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    ingest(corpus, data)
    before = store.store_path(data).read_bytes()
    proc = subprocess.Popen(_cli("--corpus", str(corpus_dir), "--data", str(data), "--force"),
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    started = time.monotonic()  # (a bound, not a measure: until the new generation exists)
    while (proc.poll() is None and len(list(data.glob("gen-*"))) < 2
           and not list(data.glob(".*.tmp")) and time.monotonic() - started < 60):
        time.sleep(0.01)
    proc.send_signal(sig)
    _out, err = proc.communicate()
    assert proc.returncode == code, err
    assert err.strip() == "interrupted: the previous corpus is unchanged"
    assert store.store_path(data).read_bytes() == before
    assert len(list(data.glob("gen-*"))) == 1


def test_an_interrupt_once_the_report_is_out_says_so(tmp_path: Path,
                                                     corpus_dir: Path) -> None:
    """SIGINT right after the report is printed (the corpus is live, the process exiting):
    one line that says so and exit 130, never a silent death by the signal."""
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    proc = subprocess.Popen(_cli("--corpus", str(corpus), "--data", str(tmp_path / "data")),
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if "documents ingested" in line:
            proc.send_signal(signal.SIGINT)
            break
    _out, err = proc.communicate()
    assert (proc.returncode, err.strip()) in (
        (130, "interrupted: the new corpus had already been made live"), (0, ""))
    assert _pair(tmp_path / "data") == ({"es-pt-1993"}, {"es-pt-1993"})


def test_an_interrupt_after_the_switch_says_so(tmp_path: Path, corpus_dir: Path,
                                               monkeypatch) -> None:
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    real_switch = datadir.switch

    def switch_then_interrupt(*args):
        real_switch(*args)
        raise KeyboardInterrupt

    monkeypatch.setattr(datadir, "switch", switch_then_interrupt)
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data", str(data)])
    assert result.exit_code == 130
    assert result.output.strip() == "interrupted: the new corpus had already been made live"
    assert _pair(data) == ({"es-pt-1993"}, {"es-pt-1993"})


def test_the_earlier_layout_is_read_then_replaced(tmp_path: Path, corpus_dir: Path) -> None:
    """A data directory of the earlier layout (store and index at its top) is read as it is;
    the next ingest writes a generation beside it, the one after removes it."""
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    ingest(corpus, data)
    gen = datadir.live(data)
    for name in datadir.LEGACY:
        (gen / name).rename(data / name)
    shutil.rmtree(gen)
    (data / datadir.POINTER).unlink()
    assert _pair(data) == ({"es-pt-1993"}, {"es-pt-1993"})
    report = ingest(corpus, data)
    assert [d.reused for d in report.documents] == [True]  # its files are its previous ones
    assert (data / "corpus.sqlite").exists() and _pair(data) == ({"es-pt-1993"},) * 2
    ingest(corpus, data)
    assert not (data / "corpus.sqlite").exists() and not (data / "index").exists()
    assert _pair(data) == ({"es-pt-1993"}, {"es-pt-1993"})
