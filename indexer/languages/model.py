"""py3langid through its public API: the shipped model (kept unpacked in a sidecar), identifiers
restricted to candidate languages, and a document's rankings made by their `rank`.

Only what py3langid documents or exposes as public names is used: `modelio.load_model` (the
model as a tuple), the `LanguageIdentifier` constructor (what `from_model_file` calls on that
tuple), `labels`, `set_languages` and `rank`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any


def model_path() -> Path:
    """The model file py3langid ships (where `from_model_file(MODEL_FILE)` finds it)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE

    path = Path(MODEL_FILE)
    return path if path.is_absolute() else MODEL_DIR / path


@cache
def load_model() -> tuple[Any, ...]:
    """py3langid's `load_model` of the shipped model, kept unpacked in a pickled sidecar in the
    machine-wide cache (beside the lexicons: `cache.machine_cache()`). The model ships
    LZMA-compressed, and unpacking its ~70 MB costs every process over half a second; the
    sidecar loads in a tenth of that and is remade when the model file changes."""
    import hashlib

    from py3langid.modelio import load_model as unpack

    from indexer.cache import building, machine_cache, read_sidecar, write_sidecar

    path = model_path()
    # (named after the model's own path too: the cache is shared by every installation on
    # the machine, and two of them stamping one sidecar in turn rebuilt it at each start)
    where = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    side = machine_cache() / "langid" / f"{path.name}.{where}.pickle"
    model = read_sidecar(side, path)
    if isinstance(model, tuple) and len(model) == 6:
        return model
    with building(side):  # one process unpacks it, the others wait and read its sidecar
        model = read_sidecar(side, path)
        if not (isinstance(model, tuple) and len(model) == 6):
            model = tuple(unpack(path))
            write_sidecar(side, path, model)  # (a read-only cache: no sidecar)
    return model


def identifier(candidates: Iterable[str] | None = None) -> Any:
    """A new py3langid `LanguageIdentifier` of the shipped model with normalised probabilities
    (as `from_model_file(MODEL_FILE, norm_probs=True)` makes it), restricted to those of
    `candidates` the model knows (all its languages with None)."""
    import numpy as np
    from py3langid.langid import LanguageIdentifier

    ptc, pc, classes, nextmove, row, output = load_model()
    made = LanguageIdentifier(np.asarray(ptc), np.asarray(pc), classes, nextmove, output,
                              norm_probs=True, tk_row=row)
    if candidates is not None:
        known = set(made.labels)
        made.set_languages([c for c in candidates if c in known])
    return made


@lru_cache(maxsize=16)
def _restricted(candidates: frozenset[str]) -> Any:
    return identifier(candidates)


class PublicRanks:
    """One document's rankings by py3langid's own `rank`: the best language among a set of
    candidates, with its probability, by text and candidate set (it depends on the set only:
    `set_languages` keeps the model's order of languages)."""

    def __init__(self) -> None:
        self.tops: dict[tuple[str, frozenset[str]], tuple[str, float]] = {}

    def count(self, texts: Sequence[str]) -> None:
        """Nothing to do ahead: py3langid reads each text as it ranks it."""

    def rank(self, texts: Sequence[str], candidates: Sequence[str]) -> None:
        """Rank those of `texts` not ranked yet among `candidates`."""
        for text in texts:
            self.top(text, candidates)

    def top(self, text: str, candidates: Sequence[str]) -> tuple[str, float]:
        """The first of `rank(text)` by the identifier restricted to `candidates`."""
        key = (text, frozenset(candidates))
        found = self.tops.get(key)
        if found is None:
            lang, prob = _restricted(key[1]).rank(text)[0]
            found = self.tops[key] = (lang, prob)
        return found
