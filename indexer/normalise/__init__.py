"""OCR repair (the ``normalise`` stage): an ordered registry of named steps, each change
recorded (:mod:`~indexer.normalise.registry`), run with the :class:`Normaliser` of a language
(:mod:`~indexer.normalise.context`): the line steps, then the steps over a whole language
version (:mod:`~indexer.normalise.document`) and, after alignment, over the aligned versions of
a treaty (:mod:`~indexer.normalise.versions`)."""

from .candidates import FOREIGN as LEXICON_LANGS
from .candidates import RARE_CEILING
from .context import Normaliser, shared
from .document import LAYOUT_STEPS, noisy, repair_version
from .registry import DOCUMENT_STEPS, STEPS, normalise, normalise_line, repair
from .versions import cross_version

__all__ = ["DOCUMENT_STEPS", "LAYOUT_STEPS", "LEXICON_LANGS", "RARE_CEILING", "STEPS", "Normaliser",
           "cross_version", "noisy", "normalise", "normalise_line", "repair", "repair_version", "shared"]
