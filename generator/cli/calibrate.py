"""``deckpress calibrate``: the duplex calibration sheet, to find a printer's ``--back-offset``."""
from __future__ import annotations

from pathlib import Path

import click

from deckpress.generator.cli.content import PAPER_HELP, _paper


@click.command()
@click.option("--paper", default="a4", show_default=True, callback=_paper, help=PAPER_HELP)
@click.option("--duplex", type=click.Choice(("long", "short")), default="long", show_default=True,
              help="The edge your printer flips on, as you will build the kit.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("output") / "calibration.pdf", show_default=True,
              help="The PDF to write.")
def calibrate(paper: str, duplex: str, out: Path) -> None:
    """Write a two-page sheet that, printed double-sided, shows how far your printer shifts the
    back of a page: held against a light with the front towards you, the numbers where the back's
    cross meets the front's scales are the --back-offset X,Y to build with."""
    from deckpress.generator.kit.imposition import ImpositionError
    from deckpress.generator.output import write_atomic
    from deckpress.generator.render.calibration import calibration_pdf

    try:
        pdf = calibration_pdf(paper, duplex)
    except ImpositionError as exc:
        raise click.BadParameter(str(exc), param_hint="--paper") from None
    write_atomic(out, pdf)
    click.echo(f"wrote {out}: print it double-sided at 100 %, flipping on the {duplex} edge, and read the offset off its front, held against a light")
