"""Which files a corpus may read, and reading one without blocking or running out of memory.

A document of a corpus must resolve, after following symlinks, to a regular file inside the
corpus folder (itself resolved): a manifest entry `/etc/passwd` or `../../etc/passwd`, or a
symlink in the folder that points outside it, is refused. Only regular files are opened
(a FIFO would block, a device never ends), and no more than the size limit + 1 byte is read,
whatever the file's size does meanwhile.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from indexer.errors import SourceError

#: Size limit of one source file, in MB (MiB), unless --max-file-mb or $TREATY_MAX_FILE_MB.
DEFAULT_MAX_FILE_MB = 64.0
MAX_FILE_ENV = "TREATY_MAX_FILE_MB"
_MB = 1024 * 1024
_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _fail(path: str, what: str) -> SourceError:
    return SourceError(f"{path}: {what}")


def size_limit(max_file_mb: float | None = None) -> int:
    """The size limit in bytes: `max_file_mb`, else $TREATY_MAX_FILE_MB, else the default."""
    if max_file_mb is None:
        raw = os.environ.get(MAX_FILE_ENV, "").strip()
        try:
            max_file_mb = float(raw) if raw else DEFAULT_MAX_FILE_MB
        except ValueError:
            raise SourceError(f"${MAX_FILE_ENV}={raw!r} is not a number of megabytes") from None
    if not max_file_mb > 0 or max_file_mb == float("inf"):
        raise SourceError(f"the file size limit must be a positive number of MB, "
                          f"not {max_file_mb}")
    return int(max_file_mb * _MB)


def _mb(size: int) -> str:
    mb = size / _MB
    shown = f"{mb:.0f}" if mb >= 10 else f"{mb:.1f}" if mb >= 0.1 else f"{mb:.2g}"
    return shown.removesuffix(".0") + " MB"


def inside(corpus_dir: str | os.PathLike[str], file: str) -> Path:
    """The real path of the corpus document `file` (relative to `corpus_dir`), refused unless
    it resolves inside the resolved corpus folder."""
    shown = os.fspath(Path(corpus_dir) / file)
    try:
        root = Path(corpus_dir).resolve(strict=True)
        real = (Path(corpus_dir) / file).resolve(strict=True)
    except FileNotFoundError:
        raise _fail(shown, "file not found; check the path or the corpus manifest") from None
    except (OSError, RuntimeError) as exc:  # (RuntimeError: a symlink loop, Python < 3.13)
        raise _fail(shown, f"cannot resolve the path ({_reason(exc)})") from None
    if not real.is_relative_to(root):
        raise _fail(shown, f"resolves to {real}, outside the corpus folder {root}; "
                           "only files inside the corpus folder are read")
    return real


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return text.splitlines()[0]


def _kind(mode: int) -> str | None:
    """What a file of `mode` is when it is no regular file (None when it is one)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _checked_stat(name: str, st: os.stat_result, limit: int) -> None:
    kind = _kind(st.st_mode)
    if kind == "a directory":
        raise _fail(name, "is a directory, not a text file")
    if kind is not None:
        raise _fail(name, f"is {kind}, not a regular file; give a plain text file")
    if st.st_size > limit:
        raise _fail(name, f"{_mb(st.st_size)} is over the {_mb(limit)} limit for one file "
                          "(--max-file-mb or $TREATY_MAX_FILE_MB)")


def _opened_inside(fd: int, root: Path | None) -> bool:
    """Whether the open file `fd` is inside `root` (where the system can say which file an
    open descriptor is; a directory swapped for a symlink after the check is caught here)."""
    if root is None:
        return True
    try:
        where = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return True
    return where.is_relative_to(root)


def _read_at_most(fd: int, name: str, limit: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:
            raise _fail(name, f"grew over the {_mb(limit)} limit for one file while it was "
                              "read (--max-file-mb or $TREATY_MAX_FILE_MB)")
        chunks.append(chunk)


def read_bytes(path: str | os.PathLike[str], limit: int, *, name: str | None = None,
               root: Path | None = None) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; anything else (missing,
    FIFO, device, socket, directory, too large, outside `root` once opened) is refused with
    a one-line SourceError naming `name` (default: the path). Never blocks on a special
    file: its type is checked before it is opened, and it is opened non-blocking."""
    name = name or os.fspath(path)
    try:
        before = os.stat(path)
        _checked_stat(name, before, limit)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise _fail(name, "file not found; check the path or the corpus manifest") from None
    except OSError as exc:
        raise _fail(name, f"cannot read ({_reason(exc)}); check permissions") from None
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino) or not _opened_inside(
                fd, root):
            raise _fail(name, "was replaced while it was opened; run the ingest again")
        _checked_stat(name, now, limit)
        return _read_at_most(fd, name, limit)
    except OSError as exc:
        raise _fail(name, f"cannot read ({_reason(exc)})") from None
    finally:
        os.close(fd)
