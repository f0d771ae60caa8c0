"""OCR repair (the ``normalise`` stage): an ordered registry of named steps, each change
recorded (:mod:`~indexer.normalise.registry`), run with the :class:`Normaliser` of a language
(:mod:`~indexer.normalise.context`)."""

from .candidates import RARE_CEILING
from .context import Normaliser, shared
from .registry import STEPS, normalise, normalise_line, repair

__all__ = ["RARE_CEILING", "STEPS", "Normaliser", "normalise", "normalise_line", "repair",
           "shared"]
