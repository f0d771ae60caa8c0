"""Model-convention topics of treaty articles (moved into a package; split follows)."""

from indexer.topics.scoring import *  # noqa: F403
from indexer.topics.scoring import (  # noqa: F401
    _MAX_HITS,
    _compiled,
    _matches_from,
)
