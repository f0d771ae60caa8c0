"""The machine-wide cache: word tables, lexicons and model sidecars that any ingest can rebuild
from the installed packages, so they belong to the user's cache directory, not to a data
directory (``platformdirs.user_cache_dir("treaty")``, or ``$TREATY_CACHE``).

Every data directory shares them, so they are built once per machine. Several processes may
build the same file at once (the ingest's workers on a fresh machine, two ingests): a builder
holds an exclusive lock on ``<file>.lock`` while it checks for the file and builds it, and
writes it under a temporary name of its own that is renamed into place only when whole, so a
reader never sees a partial file and no builder removes another's temporary file.

The cache is only a speed-up: where it cannot be written (a read-only home, a full disk, a
path that is a file) the files go to a private folder of this user's in the temporary
directory instead, and where that cannot be written either, what would have been cached is
built in memory by each process that needs it. A document never fails for the cache.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The environment variable that moves the cache (tests, read-only homes, shared machines).
ENV = "TREATY_CACHE"
#: Version of the pickled sidecar layout; bump to invalidate old sidecars.
SIDECAR_VERSION = 1


def configured_cache() -> Path:
    """``$TREATY_CACHE`` if set, else the user's cache directory for treaty."""
    explicit = os.environ.get(ENV)
    if explicit:
        return Path(explicit)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("treaty", appauthor=False))


def machine_cache() -> Path:
    """The cache folder to use: the configured one (`configured_cache`) when a file can be
    written there, else this user's private folder in the temporary directory when that
    can, else the configured one all the same (what is there is read; nothing is written)."""
    configured = configured_cache()
    if _writable(configured):
        return configured
    fallback = _private_temp()
    return fallback if fallback is not None else configured


def _writable(folder: Path) -> bool:
    """Can a file be made in `folder` (made if missing)? Tried, not guessed from modes."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=folder, prefix=".probe.", suffix=".tmp")
    except OSError:
        return False
    os.close(fd)
    try:
        os.unlink(name)
    except OSError:
        pass
    return True


def _private_temp() -> Path | None:
    """``<tmp>/treaty-cache-<uid>``, made with mode 0700, when it is a real folder of this
    user's that no one else can write (pickles are loaded from it) and it is writable."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    folder = Path(tempfile.gettempdir()) / f"treaty-cache-{uid}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(folder)
    except OSError:
        return None
    import stat

    if (not stat.S_ISDIR(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != uid)
            or st.st_mode & 0o022):
        return None
    return folder if _writable(folder) else None


@contextmanager
def building(target: Path) -> Iterator[None]:
    """Hold the exclusive build lock of `target` (waits while another process holds it).
    Where file locks are not available (or the cache cannot be written) the block runs unlocked: the atomic rename of
    `write_atomic` still keeps every reader safe, and only the work may be done twice."""
    try:
        import fcntl

        target.parent.mkdir(parents=True, exist_ok=True)
        lock = open(target.with_name(target.name + ".lock"), "a+b")  # noqa: SIM115
    except (ImportError, OSError):  # no file locks here, or a read-only cache
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def write_atomic(target: Path, write: Callable[[Path], None]) -> bool:
    """Call `write(tmp)` with a fresh temporary path beside `target`, then rename it onto
    `target`. False (and nothing left behind) when the cache cannot be written: a read-only
    cache is used as it is, never an error."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError:
        return False
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        tmp.replace(target)
        return True
    except OSError:
        return False
    finally:
        tmp.unlink(missing_ok=True)


def _stamp(source: Path) -> tuple[int, int, int]:
    st = source.stat()
    return SIDECAR_VERSION, st.st_size, st.st_mtime_ns


def read_pickle(path: Path) -> Any:
    """What our own cache file `path` holds, or None when it is missing or unreadable."""
    try:
        with path.open("rb") as f:
            return pickle.load(f)  # our own cache file
    except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError, AttributeError,
            ImportError, IndexError):
        return None


def write_pickle(path: Path, payload: object) -> None:
    """Pickle `payload` to `path` (atomically; see `write_atomic`)."""
    def dump(tmp: Path) -> None:
        with tmp.open("wb") as f:
            pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)

    write_atomic(path, dump)


def read_sidecar(side: Path, source: Path) -> Any:
    """The payload pickled in `side` if it was made from `source` as it is now, else None."""
    stored = read_pickle(side)
    if not (isinstance(stored, tuple) and len(stored) == 2):
        return None
    stamp, payload = stored
    try:
        return payload if tuple(stamp) == _stamp(source) else None
    except (OSError, TypeError):
        return None


def write_sidecar(side: Path, source: Path, payload: object) -> None:
    """Pickle `payload`, stamped with `source`'s size and time, to `side` (atomically);
    nothing when `source` is not there to stamp (it could not be cached either)."""
    try:
        stamp = _stamp(source)
    except OSError:
        return
    write_pickle(side, (stamp, payload))
