"""How ``deckpress export`` exports: :class:`ExportOptions`, the value the command parses its
options into and the per-format functions of :mod:`.formats` take, and :class:`ExportRefused`,
the export asked for in a way it cannot be done (the CLI's exit 2)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The forms ``deckpress export --to`` writes (see :mod:`.formats`).
FORMATS = ("png", "pdf", "tts", "hand")


class ExportRefused(ValueError):
    """An export asked for in a way it cannot be done: an option another format's, an unknown
    set or card, more cards than a hand shows.  The message says what to change."""


@dataclass(frozen=True)
class ExportOptions:
    """What to export and how: the format (one of :data:`FORMATS`), a print service's id
    (:data:`deckpress.generator.export.SERVICES`; None: each card's own trim and bleed), the
    images' resolution (dpi; None: the service's, else 300 for png, 150 for tts and hand), the
    sets and the cards to export (None: all; for hand, the cards shown), the conversion to a
    press's CMYK (:class:`deckpress.generator.render.colour_space.CmykConversion`, pdf only), the
    web address of a Tabletop Simulator deck's images (tts only; None: ``file:///`` URLs) and the
    folder to write into (None: ``output/<game or variant>/<format>``).

    Raises:
        ExportRefused: an option that the format does not take, or a ``base_url`` that is not a
            web address (:func:`deckpress.generator.export.tts.check_base_url`).
    """

    fmt: str
    service: str | None = None
    dpi: int | None = None
    sets: tuple[str, ...] | None = None
    cards: tuple[str, ...] | None = None
    cmyk: Any = None
    base_url: str | None = None
    out: Path | None = None

    def __post_init__(self) -> None:
        if self.fmt not in FORMATS:
            raise ExportRefused(f"--to: {self.fmt!r} is not one of {', '.join(FORMATS)}")
        if self.cmyk and self.fmt != "pdf":
            raise ExportRefused(f"--cmyk is for --to pdf: {self.fmt.upper()} images are RGB")
        if self.base_url is not None:
            if self.fmt != "tts":
                raise ExportRefused("--base-url is for --to tts: the address of a Tabletop Simulator deck's images")
            from deckpress.generator.export.tts import check_base_url

            try:
                object.__setattr__(self, "base_url", check_base_url(self.base_url))  # as the saved objects will name it
            except ValueError as exc:
                raise ExportRefused(f"--base-url: {exc}") from None
        if self.cards and self.fmt == "tts":
            raise ExportRefused("--cards chooses cards for --to png, pdf and hand: a Tabletop Simulator deck is the whole deck")
        if self.service and self.fmt == "hand":
            raise ExportRefused("--service fits cards to a print service's template: it is for --to png, pdf and tts, not hand")

    def resolution(self) -> int:
        """The images' resolution, dpi: :attr:`dpi`, else the service's, else 300 for png and
        150 for tts and hand."""
        from deckpress.generator.export import SERVICES

        return self.dpi or (SERVICES[self.service].dpi if self.service else 300 if self.fmt == "png" else 150)

    def folder(self, name: str) -> Path:
        """The folder to write into: :attr:`out`, else ``output/<name>/<format>`` (``name``: the
        game's id or the variant file's stem)."""
        return self.out or Path("output") / name / self.fmt
