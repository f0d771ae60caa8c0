"""A data directory: its generations, the pointer to the live one, and its write lock.

One ingest writes one generation, the store and the index together, and makes it live with
one atomic rename of the pointer, so a reader that resolves the pointer once sees the old
store with the old index or the new with the new, never a mix::

    data/GENERATION        "<live generation>\\n<the one before>\\n" (replaced with os.replace)
    data/gen-<time>-<pid>/ one generation: corpus.sqlite and index/ (`indexer.index`)
    data/.lock             held (fcntl) by the ingest writing into data/; readers never take it

A data directory of the earlier layout (``data/corpus.sqlite`` and ``data/index/``, no
pointer) is read as it is; the next ingest writes a generation beside it, and the ingest after
that removes it (until then it is "the one before", which open readers may still use).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from indexer.errors import TreatyError

#: The file naming the live generation (first line) and the one before it (second line).
POINTER = "GENERATION"
LOCK = ".lock"
PREFIX = "gen-"
#: The files of the earlier layout, kept at the top of the data directory.
LEGACY = ("corpus.sqlite", "index")


class BusyError(TreatyError):
    """Another ingest holds the data directory's write lock."""


def _pointer(data_dir: Path) -> list[str]:
    try:
        return (Path(data_dir) / POINTER).read_text("utf-8").split()
    except (FileNotFoundError, NotADirectoryError):
        return []


def live(data_dir: str | os.PathLike) -> Path:
    """The directory holding the live store and index of `data_dir`: its live generation, or
    `data_dir` itself when there is no pointer (the earlier layout, or no corpus yet)."""
    data_dir = Path(data_dir)
    names = _pointer(data_dir)
    return data_dir / names[0] if names else data_dir


def new_generation(data_dir: Path) -> Path:
    """The path of a new generation of `data_dir` (not made: its writer makes it, inside the
    block that removes it if the ingest does not finish)."""
    stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**9:09d}"
    return Path(data_dir) / f"{PREFIX}{stamp}-{os.getpid()}"


def switch(data_dir: Path, gen: Path) -> None:
    """Make `gen` the live generation of `data_dir` (the live one becomes the one before):
    the pointer is written aside, synced, and renamed over the old one (the switch)."""
    data_dir = Path(data_dir)
    names = _pointer(data_dir)
    before = names[0] if names else "."  # ".": the earlier layout, or nothing
    tmp = data_dir / f".{POINTER}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(f"{gen.name}\n{before}\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, data_dir / POINTER)
    sync_folder(data_dir)  # the rename itself survives a power cut once the folder is synced


def sync_folder(folder: Path) -> None:
    """Make the renames in `folder` durable (where folders can be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def clean(data_dir: Path) -> list[str]:
    """Remove what neither the live generation nor the one before uses: generations left
    unfinished by a killed ingest, older generations, the earlier layout's files once two
    generations followed it, and stray pointer files. Call with the write lock held (no other
    writer runs, so nothing unlisted is in progress). The names removed."""
    data_dir = Path(data_dir)
    names = _pointer(data_dir)
    keep = set(names[:2])
    removed = []
    for path in data_dir.glob(f"{PREFIX}*"):
        if path.name not in keep:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path.name)
    for path in data_dir.glob(f".{POINTER}.*.tmp"):
        path.unlink(missing_ok=True)
        removed.append(path.name)
    if names and "." not in keep:
        for name in LEGACY:
            path = data_dir / name
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            elif path.exists():
                path.unlink(missing_ok=True)
            else:
                continue
            removed.append(name)
    return removed


def _holder(lock_file: Path) -> str:
    try:
        pid = lock_file.read_text("ascii").strip()
    except OSError:
        return ""
    return pid if pid.isdigit() else ""


@contextmanager
def writing(data_dir: str | os.PathLike, *, wait: bool = True,
            notify: Callable[[str], None] | None = None) -> Iterator[Path]:
    """Hold the exclusive write lock of `data_dir` (made if missing) for the block. When
    another process holds it: with `wait`, call `notify` with a message and wait for it; else
    raise BusyError. Where file locks do not exist the block runs unlocked."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    with locked(data_dir, "another ingest into", wait=wait, notify=notify):
        yield data_dir


@contextmanager
def locked(folder: Path, holder: str, *, wait: bool = True,
           notify: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the exclusive lock of `folder` (its `.lock` file, holding the owner's pid) for the
    block: the data directory's (one ingest at a time) or the corpus folder's (one `treaty
    add` at a time writes into it and its manifest). `holder` starts the message about
    another holder ("another ingest into")."""
    try:
        import fcntl
    except ImportError:  # no file locks on this platform
        yield
        return
    path = Path(folder) / LOCK
    with open(path, "a+", encoding="ascii") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _holder(path)
            running = f"{holder} {folder} is running" + (f" (pid {pid})" if pid else "")
            if not wait:
                raise BusyError(f"{running}; try again when it has finished") from None
            if notify is not None:
                notify(f"{running}; waiting…")
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            fh.seek(0)
            fh.truncate()
            fh.write(f"{os.getpid()}\n")
            fh.flush()
            yield
        finally:
            fh.seek(0)
            fh.truncate()
            fh.flush()
            fcntl.flock(fh, fcntl.LOCK_UN)
