"""Domain exceptions. Each carries a one-line message that says what to do."""


class TreatyError(Exception):
    """Base of every error a user can be shown as one line."""


class SourceError(TreatyError):
    """A source file cannot be read: missing, empty, binary or undecodable."""


class ManifestError(TreatyError):
    """The corpus manifest is malformed."""


class EmptyCorpusError(TreatyError):
    """A corpus folder holds no documents (an ingest would empty the corpus)."""


class StoreError(TreatyError):
    """The corpus store is missing or unusable."""


class NotFoundError(TreatyError):
    """A treaty, unit or citation target does not exist."""


class AmbiguousError(TreatyError):
    """A reference matches more than one treaty. `candidates` lists them, each a dict with
    at least "treaty" (its id) and what the raiser knows that helps to choose ("name", the
    "citation" of the same unit in that treaty), so that a caller can offer each."""

    def __init__(self, message: str, candidates: tuple[dict, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class QueryError(TreatyError):
    """A search query or citation cannot be understood."""


class EnvironmentProblem(TreatyError):
    """The machine, not the input: a full disk, a folder that cannot be written or read."""


#: What to do about an errno, after the path and the reason.
_ADVICE = {
    "ENOSPC": "free space on that disk (or use another folder) and run it again",
    "EDQUOT": "free space within your quota (or use another folder) and run it again",
    "EFBIG": "free space (or raise the file size limit) and run it again",
    "EROFS": "that file system is read-only; use a writable folder",
    "EACCES": "make it writable (and readable) for you, or use another folder",
    "EPERM": "make it writable (and readable) for you, or use another folder",
    "ENOTDIR": "a part of that path is a file, not a folder; use another folder",
    "ENOENT": "check the path",
    "EMFILE": "too many open files; close some programs or raise the limit (ulimit -n)",
}
#: sqlite3's messages for what the operating system refused it, and the errno each means.
_SQLITE = (("disk is full", "ENOSPC"), ("readonly database", "EROFS"),
           ("unable to open database file", "EACCES"), ("disk I/O error", "EIO"))


def environment_message(exc: BaseException, where: object = None) -> str | None:
    """One line naming the path and what to do, when `exc` is an environment problem (an
    OSError, or an sqlite3 or index library error that wraps one); None for anything else.
    `where`: the path to name when the error does not carry one."""
    import errno
    import os
    import re
    import sqlite3

    code: int | None = None
    path = where
    if isinstance(exc, OSError) and exc.errno is not None:
        code, path = exc.errno, exc.filename or where
    elif isinstance(exc, sqlite3.OperationalError):
        text = str(exc)
        name = next((n for k, n in _SQLITE if k in text), None)
        code = getattr(errno, name, None) if name else None
    elif isinstance(exc, (ValueError, RuntimeError)):  # (tantivy: "... (os error 28)")
        m = re.search(r"\(os error (\d+)\)", str(exc))
        code = int(m.group(1)) if m else None
    if code is None:
        return None
    name = errno.errorcode.get(code, "")
    reason = os.strerror(code)
    advice = _ADVICE.get(name, "check that it exists and can be written")
    return f"{path}: {reason.lower() if name == 'ENOSPC' else reason}; {advice}" if path else (
        f"{reason}; {advice}")
