"""The README is a first page whose every command runs as written: each `treaty` line of its
code blocks runs on the ingested bundled corpus ($TREATY_DATA, as the README says) and exits
0; `.ci/run` runs exactly its test command; it stays short and its links resolve."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from search.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip().startswith("treaty ") and line.strip() != "treaty serve"]


def test_the_readme_is_a_first_page():
    assert README.count("\n") <= 150
    assert len(_commands()) >= 10
    for target in re.findall(r"\]\(([^)#]+)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_ci_runs_the_readme_test_command():
    command = re.search(r"```sh\n(python3 -m venv \.venv && \.venv/bin/pip install -q -e "
                        r"'\.\[test\]' && \.venv/bin/python -m pytest)\n```", README).group(1)
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith(command)


@pytest.mark.parametrize("line", _commands())
def test_every_command_runs_as_written(line, ingested, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (files it writes go here)
    monkeypatch.setenv("TREATY_DATA", str(ingested))
    args = shlex.split(line, comments=True)[1:]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (line, result.output[-500:])
    assert result.output or list(tmp_path.iterdir()), line
