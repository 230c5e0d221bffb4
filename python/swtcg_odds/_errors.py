"""The package's exceptions, each also the built-in exception it is a kind
of, so that ``except ValueError`` and ``except OSError`` catch them as a
Python user expects. The native module raises these classes."""

from __future__ import annotations

from typing import Any


class Error(Exception):
    """An error of swtcg_odds: ``.kind`` says what went wrong, ``.origin``
    where (a parameter, a file's row and column, a unit, a card's text)."""

    kind: str
    origin: Any


class ParameterError(Error, ValueError):
    """A bad parameter: an unknown name, a value out of range, a conflict.
    ``.origin['param']`` names it."""


class CardFileError(Error, ValueError):
    """A card file, or a card's text, that can't be read: ``.origin`` names
    the file, row and column, or the card."""


class CardFileReadError(CardFileError, OSError):
    """A card, scenario or plan file that can't be opened or read at all
    (missing, a folder, not a regular file, too big): also an ``OSError``."""


class RefusedError(Error):
    """Work refused before it starts (beyond the bounds), rules not
    modelled, or a solve stopped at its deadline."""


# Shown as the package's own (`swtcg_odds.ParameterError`).
for _cls in (Error, ParameterError, CardFileError, CardFileReadError, RefusedError):
    _cls.__module__ = "swtcg_odds"
