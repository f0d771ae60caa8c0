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
