"""Option types and callbacks that several commands share: lists of names, a press's ICC
profile, and numbers that must be finite.
"""
from __future__ import annotations

import math
from pathlib import Path

import click

CMYK_HELP = ("Write the PDF in CMYK for a print shop's press, converted by the shop's ICC profile (ask it for the file), "
             "which is embedded as the output intent; black and greys print in black ink alone.")


class FiniteRange(click.FloatRange):
    """``click.FloatRange`` that also refuses ``nan`` and ``inf``: Python's ``float()`` reads both,
    and NaN passes every range comparison (``--gap nan`` reached the sheet's grid as a NaN)."""

    def convert(self, value, param, ctx):
        """The number, or a usage error for one that is not finite or not in the range."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{number}: expected a finite number", param, ctx)
        return number


def name_list(ctx, param, value: str | None) -> tuple[str, ...] | None:
    """A comma-separated option (``--cards goa,goa,forest-top``, ``--sets base,identities``) as its
    names in order, repeats kept and blanks dropped; None when the option is not given.

    Raises:
        click.BadParameter: the option is given but names nothing (``--cards ""``), which would
            otherwise mean every card or set: a reprint of nothing is not a whole kit.
    """
    if value is None:
        return None
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    if not names:
        raise click.BadParameter(f"'{value}' names nothing: give one name or more, separated by commas")
    return names


def cmyk_profile(ctx, param, value: Path | None):
    """``--cmyk PROFILE`` as the conversion to that press
    (:class:`deckpress.generator.render.colour_space.CmykConversion`), or None."""
    if value is None:
        return None
    from deckpress.generator.render.colour_space import CmykConversion, ProfileRefused

    try:
        return CmykConversion.read(value)
    except ProfileRefused as exc:
        raise click.BadParameter(f"'{value}' {exc}") from None
