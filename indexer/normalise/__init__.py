"""OCR repair (the ``normalise`` stage): see :mod:`indexer.normalise.registry`."""

from .candidates import RARE_CEILING
from .registry import STEPS, normalise, normalise_line

__all__ = ["RARE_CEILING", "STEPS", "normalise", "normalise_line"]
