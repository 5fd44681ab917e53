"""``deckpress validate`` without the CLI: what :func:`validate` finds in game folders and
variant files, under :class:`ValidateOptions` (the value the command parses its options into).

A game folder: its content checks, what its rules engine cannot play, then every card of its kit
laid out on the paper (in memory, nothing written), so ``build`` with the same paper refuses
nothing ``validate`` passed.  A variant: the stages of ``deckpress check --no-simulate`` (its
changed cards laid out, nothing written)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from deckpress.generator.content import GAME_FILE, GameContent, check_game
from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.reporters import ValidationResult


@dataclass(frozen=True)
class ValidateOptions:
    """How to validate: the paper every card must fit (``a4``, ``letter``, ``a3`` or ``WxH`` with a
    unit, as ``build --paper``) and, for variants, the game folder they extend (None: the shipped
    game each names in ``extends``)."""

    paper: str = "a4"
    content: Path | None = None
    #: Also check the edition in this language (a code such as ``fr``, ``all`` for every catalogue
    #: the game has, ``qps`` for the pseudo-translation); None: the source language only.
    lang: str | None = None
    #: With ``lang``: a missing translation is not an error (its source text is laid out instead).
    allow_missing: bool = False

DEFAULT_OPTIONS = ValidateOptions()


def validate(games: Iterable[Path], variants: Iterable[Path], other: Iterable[Path] = (),
             options: ValidateOptions = DEFAULT_OPTIONS) -> ValidationResult:
    """Every error of the game folders ``games`` (:func:`game_errors`) and the variant files
    ``variants`` (:func:`variant_errors`), after one error for each file of ``other`` (neither in
    a game folder nor a variant).  Never raises for bad content."""
    result = ValidationResult()
    for path in other:
        result.errors.append(ContentError(display_path(path), 0, 0, f"not deckpress content: no {GAME_FILE} beside it or above it, and not a variant (no 'extends')"))
    for folder in games:
        result.checked.append(display_path(folder))
        result.errors.extend(game_errors(folder, options.paper, options.lang, options.allow_missing))
    for path in variants:
        result.checked.append(display_path(path))
        result.errors.extend(variant_errors(path, options.content))
    return result


def game_errors(folder: Path, paper: str = "a4", lang: str | None = None, allow_missing: bool = False) -> list[ContentError]:
    """Every error of a game folder: content checks (its ``translate`` declarations too), what its
    rules engine cannot play, then what the kit cannot lay out on ``paper`` (rendered in memory,
    nothing written), so that ``build`` with the same paper refuses nothing ``validate`` passed.
    With ``lang`` (a language code, or ``all``: every catalogue of the folder), the same for each
    language's edition (:func:`deckpress.generator.kit.translation.edition_errors`): a text that
    overflows in one language is an error naming the card, the field and the language."""
    from deckpress.generator.kit.translation import declaration_errors, edition_errors
    from deckpress.generator.render.kit import PrintOptions, build_kit

    content, errors = check_game(folder)
    if errors or content is None:
        return errors
    errors = engine_errors(content) + declaration_errors(content)
    if errors:
        return errors
    try:
        build_kit(content, PrintOptions(paper=paper), write=False)  # laid out and checked, no PDF made
    except ContentErrors as exc:
        return exc.errors
    return edition_errors(content, lang, PrintOptions(paper=paper), allow_missing) if lang else []


def variant_errors(path: Path, content: Path | None = None) -> list[ContentError]:
    """The errors ``deckpress check --no-simulate`` finds in a variant, over the game folder
    ``content`` (None: the shipped game it extends), its changed cards laid out (nothing written)."""
    from deckpress.generator.check import CheckOptions, run_check

    report = run_check(path, CheckOptions(simulate=False, preview_path=None, content=content))
    return list(report.errors)


def engine_errors(content: GameContent) -> list[ContentError]:
    """What the game's rules engine (if it has one) cannot play in valid content, as located
    errors: a rule kind it does not implement is a validation error, never silently ignored
    (:meth:`deckpress.rules.core.game.Game.content_errors`)."""
    from deckpress.rules.core.registry import game_class
    from deckpress.rules.core.registry import known_games as games_with_rules

    if content.game_id not in games_with_rules():
        return []
    return game_class(content.game_id).content_errors(content)
