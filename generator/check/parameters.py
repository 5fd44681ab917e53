"""The parameters of a checked variant (part of stage 2 of :mod:`deckpress.generator.check`): the
game's engine, and the effective parameters of base and variant as the engine reads them, each
error located at the variant's line."""
from __future__ import annotations

import re
from typing import Any

from deckpress.generator.content import GameContent
from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.variant import Variant


def engine_for(game_id: str) -> Any:
    """The rules engine class of ``game_id``; None for a game with no engine yet."""
    from deckpress.rules.core.registry import game_class, known_games

    return game_class(game_id) if game_id in known_games() else None


def effective_parameters(engine: Any, variant: Variant, base: GameContent,
                         merged: GameContent) -> tuple[list[ContentError], dict[str, Any], dict[str, Any]]:
    """Effective parameters of base (the variant's ruleset only) and variant (ruleset and
    overrides); errors located at the variant's ``parameters`` or ``ruleset`` lines."""
    from deckpress.rules.core.errors import ParameterError

    doc = variant.doc
    errors: list[ContentError] = []
    try:
        base_game = engine.create(base, variant.ruleset, {})
    except ParameterError as exc:
        return [doc.error(("ruleset",), f"ruleset: {exc}")], {}, {}
    overrides = variant.parameters
    try:
        variant_game = engine.create(merged, variant.ruleset, overrides)
    except ParameterError as exc:
        for name, value in overrides.items():  # every parameter that is wrong on its own, each at its line
            try:
                engine.create(merged, variant.ruleset, {name: value})
            except ParameterError as alone:
                errors.append(doc.error(("parameters", name), f"parameters.{name}: {alone}"))
        if not errors:  # right one by one, wrong together
            named = re.search(r"parameter '([a-z0-9_]+)'", str(exc))
            where = ("parameters", named.group(1)) if named and named.group(1) in overrides else ("parameters",)
            errors.append(doc.error(where, f"parameters: {exc}"))
        return errors, {}, {}
    content_errors = getattr(engine, "content_errors", None)
    if content_errors is not None:
        errors += content_errors(merged)
    return errors, dict(base_game.params), dict(variant_game.params)
