"""OCR repair (the ``normalise`` stage): an ordered registry of named steps, each change
recorded (:mod:`~indexer.normalise.registry`), run with the :class:`Normaliser` of a language
(:mod:`~indexer.normalise.context`)."""

from .candidates import RARE_CEILING
from .context import Normaliser, shared
from .registry import MAX_PASSES, STEPS, Step, normalise, normalise_line, repair

__all__ = ["MAX_PASSES", "RARE_CEILING", "STEPS", "Normaliser", "Step", "normalise",
           "normalise_line", "repair", "shared"]
