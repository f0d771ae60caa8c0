"""An index directory and its generations, replaced atomically so that readers never see half
an index::

    index_dir/CURRENT           name of the live generation (replaced with os.replace)
    index_dir/g-<time>-<pid>/   one generation: index.json (meta), vocab.json, groups.json,
                                engine/ (the engine's own files)

and the article groups of a generation (`GroupTable`).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path

#: The version of the layout of a generation.
FORMAT = 1
#: Files of a generation: its description (engine, documents, languages...), and the
#: vocabulary of "did you mean".
META = "index.json"
VOCAB = "vocab.json"
#: File of an index directory that names its live generation.
POINTER = "CURRENT"
#: Age (seconds) past which an unfinished generation is no build in progress.
_STALE = 86400


def new_generation(index_dir: Path) -> Path:
    """The path of a new generation of `index_dir` (not made)."""
    stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**9:09d}"
    return index_dir / f"g-{stamp}-{os.getpid()}"


def live_generation(index_dir: Path) -> Path | None:
    """The generation `index_dir`'s pointer names (None: no pointer)."""
    try:
        name = (index_dir / POINTER).read_text("utf-8").strip()
    except FileNotFoundError:
        return None
    return index_dir / name if name else None


def live_engine(index_dir: Path) -> str | None:
    """The engine of the live generation of `index_dir`, when it is whole (None: no index)."""
    gen = live_generation(index_dir)
    try:
        return json.loads((gen / META).read_text("utf-8"))["engine"] if gen else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def make_live(index_dir: Path, gen: Path) -> None:
    """Point `index_dir` at `gen`: the pointer is written aside, then atomically replaced."""
    tmp = index_dir / f"{POINTER}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(gen.name + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, index_dir / POINTER)  # the switch: atomic


def prune(index_dir: Path, keep: set[str]) -> None:
    """Remove complete generations other than `keep` (the live one and the one before, which
    open readers may still use); unfinished ones only when over a day old (a build in
    progress)."""
    for path in index_dir.glob("g-*"):
        if path.name in keep or not path.is_dir():
            continue
        if (path / META).exists() or time.time() - path.stat().st_mtime > _STALE:
            shutil.rmtree(path, ignore_errors=True)


#: File of an index generation that names its groups: ``{"keys": ["treaty\x1flang\x1farticle
#: eId", ...], "sizes": [documents, ...], "rank": [rank, ...]}``, by group number (written
#: before the rank, ``"keys"`` held lists: still read).
GROUPS_FILE = "groups.json"
_SEP = "\x1f"


class _Keys(Sequence):
    """The groups' keys as the file holds them, each split into (treaty, lang, article eId)
    when asked for: a search reads a few of hundreds of thousands."""

    def __init__(self, joined: list[str]) -> None:
        self._joined = joined

    def __len__(self) -> int:
        return len(self._joined)

    def __iter__(self):
        return (tuple(k.split(_SEP)) for k in self._joined)

    def __getitem__(self, g: int) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self._joined[g].split(_SEP))


class GroupTable:
    """The article groups of an index: (treaty, lang, article eId) per group number, each
    group's number of documents, and its rank in (treaty, lang, article eId) order."""

    def __init__(self, keys: Sequence[tuple[str, str, str]], sizes: list[int],
                 rank: list[int] | None = None) -> None:
        self.keys = keys
        self.sizes = sizes
        self.rank = _ranks(keys) if rank is None else rank

    def treaties(self) -> set[str]:
        """The treaties with documents in the index (a group whose documents an extended
        index took out keeps its number, with no document: `indexer.index.update`)."""
        return {key[0] for key, size in zip(self.keys, self.sizes, strict=True) if size}

    @classmethod
    def load(cls, path: Path) -> GroupTable:
        data = json.loads(path.read_text("utf-8"))
        keys = data["keys"]
        if keys and not isinstance(keys[0], str):  # (the earlier form: no rank written)
            return cls([tuple(k) for k in keys], list(data["sizes"]))
        return cls(_Keys(keys), data["sizes"], data.get("rank"))

    @staticmethod
    def dump(path: Path, numbers: dict[tuple[str, ...], int], sizes: list[int]) -> None:
        keys = sorted(numbers, key=numbers.__getitem__)
        path.write_text(json.dumps({"keys": [_SEP.join(k) for k in keys], "sizes": sizes,
                                    "rank": _ranks(keys)}, ensure_ascii=False), "utf-8")


def _ranks(keys: Sequence[tuple[str, ...]]) -> list[int]:
    """Each group's place in key order."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    rank = [0] * len(keys)
    for r, g in enumerate(order):
        rank[g] = r
    return rank
