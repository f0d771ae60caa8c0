"""The benchmark package's command line (`python scripts/bench COMMAND`): every command parses
its --help with the flags of the script it replaced. The benchmarks themselves are not run
here (they are timings: scripts/bench, docs/benchmarks.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "scripts" / "bench"

#: Each command and the flags it kept from its script (bench.py, bench_speed.py, ...).
FLAGS = {
    "scale": ("--size-mb", "--ingest-mb", "--engines", "--workers", "--out", "--queries",
              "--whoosh-sizes", "--whoosh-budget-min", "--keep", "--also-python", "--corpus",
              "--baseline", "--render"),
    "speed": ("--corpus", "--baseline", "--engine", "--workers", "--repeats", "--out"),
    "large": ("--size-mb", "--corpus", "--engine", "--workers", "--keep", "--out"),
    "ingest": ("--corpus", "--scaled-mb", "--baseline", "--engines", "--repeats", "--workers",
               "--out"),
    "web": ("--data", "-n"),
    "load": ("--url", "--data", "--threads", "--clients", "--seconds"),
}


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                          check=False, timeout=60)


def test_the_package_lists_every_command() -> None:
    done = bench("--help")
    assert done.returncode == 0, done.stderr
    for command in FLAGS:
        assert command in done.stdout


@pytest.mark.parametrize("command", sorted(FLAGS))
def test_each_command_parses_its_help_with_its_flags(command: str) -> None:
    done = bench(command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python scripts/bench {command}")
    for flag in FLAGS[command]:
        assert f"{flag} " in done.stdout or f"{flag}\n" in done.stdout, flag


def test_an_unknown_command_is_refused_without_a_traceback() -> None:
    done = bench("nonsense")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "invalid choice" in done.stderr
