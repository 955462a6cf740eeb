"""The one error of the paper layer: a bad print option, named with its allowed values."""

from __future__ import annotations

from ..core import OptionError


class PaperError(OptionError):
    """A print request that cannot be printed (bad option, unknown game); nothing is written."""
