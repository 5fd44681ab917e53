"""``deckpress build`` without the CLI: one game folder's print-and-play kit checked, drawn with
:class:`~deckpress.generator.render.kit.PrintOptions` (the value the command parses its options
into) and written atomically (:func:`build_game`), with what happened in a :class:`Built`."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from deckpress.generator.content import check_game, game_id_of
from deckpress.generator.content.errors import ContentError, ContentErrors
from deckpress.generator.kit.translation import PSEUDO, in_language
from deckpress.generator.output import write_atomic
from deckpress.generator.render import kit
from deckpress.generator.render.kit import PrintOptions


@dataclass(frozen=True)
class Built:
    """One game folder's build: the game's id (None when not even that could be read), the PDF
    written (None when it failed), its size in bytes, and every error that kept it from being
    built (the PDF of an earlier build then left as it was)."""

    name: str | None
    target: Path | None
    size: int = 0
    errors: list[ContentError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the kit was written."""
        return self.target is not None


def kit_path(out: Path, name: str, options: PrintOptions, lang: str | None = None) -> Path:
    """Where a game's kit goes: ``out/<name>.pdf``; ``out/<name>-<lang>.pdf`` for an edition in
    another language; ``-reprint`` added for chosen cards (``options.cards``: a few cards never
    replace the whole kit)."""
    return out / f"{name}{f'-{lang}' if lang else ''}{'-reprint' if options.cards else ''}.pdf"


@kit.collector_paused()  # the loading too: a deck's cards are many small objects, all kept
def build_game(folder: Path, options: PrintOptions, out: Path, lang: str | None = None, allow_missing: bool = False,
               warn: Callable[[str], None] = lambda line: None) -> Built:
    """Check the game in ``folder``, draw its kit (:func:`~deckpress.generator.render.kit.build_kit`)
    and write it to :func:`kit_path`.  Content errors are returned in :attr:`Built.errors`, never raised.
    With ``lang``, the kit is the edition in that language (its catalogue ``locales/<lang>.po``;
    :func:`~deckpress.generator.kit.translation.in_language`): a missing translation is an error
    unless ``allow_missing``; ``warn`` is told of fuzzy entries and of texts that fell back.

    Raises:
        ImpositionError: a board's tiles cannot fit the paper.
        OutputError: the PDF cannot be written.
    """
    content, errors = check_game(folder)
    name = content.game_id if content else game_id_of(folder)
    try:
        if errors or content is None:
            raise ContentErrors(errors)
        if lang == PSEUDO:  # a proof of which texts a longer language overflows: drawn past their boxes, framed in red
            options = replace(options, show_overflow=True)
            warn(f"{content.game_id}: a pseudo-localised proof: a text that a longer language would overflow is drawn past its box, "
                 f"framed in red ('deckpress validate {content.game_id} --lang qps' lists them)")
        with in_language(content, lang, allow_missing, warn) as edition:
            pdf = kit.build_kit(edition, options)  # looked up at each call, as a test may replace it
    except ContentErrors as exc:
        return Built(name, None, errors=list(exc.errors))
    target = kit_path(out, content.game_id, options, lang)
    write_atomic(target, pdf)
    return Built(content.game_id, target, len(pdf))
