"""Icon tokens in a game's own syntax: ``[credit]``, ``{Gain 3 Trade}``, as published card data writes them.

A game declares its tokens under ``icon_tokens`` in game.yaml (``schemas/game.schema.json``), each a
``token`` pattern and the ``icon`` it draws::

    icon_tokens:
      - token: "[{icon}]"                 # [credit], [click]: the icon of that name
      - token: "{Gain {number} Trade}"     # the trade icon with the number on it
        icon: trade
      - token: "[mu]"
        icon: memory                      # a name of the data's that the icon set spells otherwise

In a pattern, ``{icon}`` stands for an icon's name (letters, digits, ``-`` and ``_``, up to 40
characters; read lower-cased, ``_`` as ``-``) and ``{number}`` for a whole number of up to four digits
(a sign allowed), drawn on the icon; everything else is matched as written, case and all.  The
tokens apply in text elements that draw icons (``inline_icons`` or ``inline_images`` in
layout.yaml), the first declared pattern that matches winning.  An icon a token names that neither
the element's ``inline_images`` nor the icon set has fails the card, at its line.

Patterns are built from escaped literals and bounded character classes only, so no card text can
make matching slow (no regular expression of a user's is ever compiled).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: The placeholders a token pattern may hold, and what each matches.
PLACEHOLDERS = {"icon": r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}", "number": r"[+-]?[0-9]{1,4}"}
_PLACEHOLDER = re.compile(r"\{(icon|number)\}")


@dataclass(frozen=True)
class Token:
    """An icon token found in a text: the icon's name and the number drawn on it ('' for none)."""

    icon: str
    label: str = ""


@dataclass(frozen=True)
class IconTokens:
    """A game's icon tokens compiled into one pattern (None: the game declares none) and, per
    declared token in order, the fixed icon it draws (None: its ``{icon}`` says)."""

    pattern: re.Pattern | None = None
    icons: tuple[str | None, ...] = ()

    def __bool__(self) -> bool:
        return self.pattern is not None

    def split(self, text: str) -> list[str | Token]:
        """``text`` as its words (str) and the tokens in it (:class:`Token`), in order; empty
        words left out."""
        if self.pattern is None:
            return [text] if text else []
        out: list[str | Token] = []
        at = 0
        for m in self.pattern.finditer(text):
            if m.start() > at:
                out.append(text[at:m.start()])
            i = int(m.lastgroup[1:])  # type: ignore[index]  # the declared token that matched: group 't<i>'
            name = self.icons[i] or m.group(f"i{i}").lower().replace("_", "-")
            number = m.group(f"n{i}") if f"n{i}" in self.pattern.groupindex else None
            out.append(Token(name, number or ""))
            at = m.end()
        if at < len(text):
            out.append(text[at:])
        return out


NO_TOKENS = IconTokens()


def compile_tokens(declared: list[tuple[str, str | None]]) -> IconTokens:
    """``(pattern, icon or None)`` pairs as :class:`IconTokens`.

    Raises:
        ValueError: a pattern that is only placeholders, holds one twice, or has neither
            ``{icon}`` nor an icon to draw (the message says which, for the entry at the index given
            by ``args[1]``).
    """
    if not declared:
        return NO_TOKENS
    alternatives = []
    for i, (pattern, icon) in enumerate(declared):
        alternatives.append(f"(?P<t{i}>{_regex(pattern, icon, i)})")
    return IconTokens(re.compile("|".join(alternatives)), tuple(icon for _, icon in declared))


def _regex(pattern: str, icon: str | None, i: int) -> str:
    """One token pattern as a regular expression with groups ``i<i>`` ({icon}) and ``n<i>``
    ({number})."""
    parts = _PLACEHOLDER.split(pattern)  # even: literal text, odd: a placeholder's name
    names = parts[1::2]
    if not "".join(parts[0::2]).strip():
        raise ValueError("has no text of its own to recognise, only placeholders: write the token as the data does, "
                         "for example '[{icon}]'", i)
    if len(set(names)) != len(names):
        raise ValueError("holds a placeholder twice: give {icon} and {number} at most once each", i)
    if icon is None and "icon" not in names:
        raise ValueError("says no icon: give 'icon: NAME', or write {icon} where the data names it", i)
    if icon is not None and "icon" in names:
        raise ValueError("both gives an icon and reads one from the data ({icon}): keep one", i)
    group = {"icon": f"i{i}", "number": f"n{i}"}
    return "".join(re.escape(part) if j % 2 == 0 else f"(?P<{group[part]}>{PLACEHOLDERS[part]})" for j, part in enumerate(parts))


def game_tokens(game_doc) -> tuple[IconTokens, list]:
    """The icon tokens ``game.yaml`` (a schema-valid :class:`~deckpress.generator.content.yamlsafe.Document`)
    declares under ``icon_tokens``, and the errors of those that cannot be used, each at its line."""
    declared = game_doc.data.get("icon_tokens") or []
    pairs = [(entry["token"], entry.get("icon")) for entry in declared]
    errors = []
    for i, pair in enumerate(pairs):
        try:
            compile_tokens([pair])
        except ValueError as exc:
            errors.append(game_doc.error(("icon_tokens", i, "token"), f"icon_tokens[{i}]: token '{pair[0]}' {exc.args[0]}"))
    if errors:
        return NO_TOKENS, errors
    return compile_tokens(pairs), []
