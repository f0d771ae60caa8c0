"""Withholding rates: the most a source state may tax dividends, interest, royalties and
technical fees, as the treaty text states it, with its condition, base, unit and language
versions, and how sure the stage is of it.

`numbers` reads a percentage however printed; `cues` holds the words of limits, exemptions,
references and thresholds in en, pt, sv and zh; `extract` finds the rates of one language
version, `refs` resolves a limit stated by reference; `stage` cross-checks the versions of a
treaty and writes the store's rates table.
"""

from indexer.rates.model import Found, Rate, VersionUnit
from indexer.rates.numbers import parse_percent, percentages
from indexer.rates.stage import LOW_CONFIDENCE, treaty_rates, write_rates

__all__ = ["LOW_CONFIDENCE", "Found", "Rate", "VersionUnit", "parse_percent", "percentages",
           "treaty_rates", "write_rates"]
