"""Reading the log form of an event: the checks every game's ``event_to_action`` shares.

Events in a log are untrusted (a person may write them by hand), so each check raises
:class:`~deckpress.rules.core.errors.IllegalAction` with ``log.malformed-event`` (or the range's own reason)
and a message that says what was expected.
"""
from __future__ import annotations

import difflib
import re
from typing import Any, Mapping, Sequence

from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.errors import IllegalAction, Reason


def check_keys(event: dict[str, Any], required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    """Raise ``log.malformed-event`` unless ``event`` has all ``required`` keys and no others
    besides ``optional``."""
    missing = [k for k in required if k not in event]
    unknown = [k for k in event if k not in required and k not in optional]
    if missing or unknown:
        expected = ", ".join(required + optional)
        what = f"missing {', '.join(missing)}" if missing else f"unknown key {', '.join(map(str, unknown))}"
        raise IllegalAction(Reason.MALFORMED_EVENT, f"{what} (this event takes: {expected})")


def index_of(event: dict[str, Any], key: str, count: int, noun: str, out_of_range: Reason) -> int:
    """``event[key]`` as a whole number ``0..count-1`` (a seat, a slot on the table).

    ``noun`` names the number for the message ("seat number", "slot number (0 is the leftmost
    face-up card)"); its first word names one of them.

    Raises:
        IllegalAction: ``log.malformed-event`` when it is missing or not a whole number,
            ``out_of_range`` when it is outside ``0..count-1``.
    """
    value = event.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(Reason.MALFORMED_EVENT, f"'{key}' must be a {noun} 0..{count - 1}, got {quoted(value)}")
    if not 0 <= value < count:
        one = noun.split()[0]
        raise IllegalAction(out_of_range, f"there is no {one} {value}: {one}s are 0 to {count - 1}")
    return value


def seat_of(event: dict[str, Any], players: int, key: str = "seat") -> int:
    """The event's ``seat`` (or another seat-valued ``key``, such as ``to``) as a number 0..players-1
    (``turn.no-such-seat`` when out of range; see :func:`index_of`)."""
    return index_of(event, key, players, "seat number", Reason.NO_SUCH_SEAT)


def closest(name: Any, names: list[str]) -> str:
    """`` (did you mean X?)`` for the closest of ``names``, or ``""``."""
    match = difflib.get_close_matches(str(name), names, n=1, cutoff=0.6)
    return f" (did you mean {match[0]}?)" if match else ""


def by_name(name: Any, table: Mapping[str, int], what: str, names: Sequence[str], list_all: bool = False) -> int:
    """The number ``table`` gives ``name``, compared case-folded and with runs of spaces as one;
    ``table``'s keys are the case-folded names (and ids) of the things called ``what`` ("card",
    "mission", "door").

    Raises:
        IllegalAction: ``log.unknown-name``: ``no card is called 'Gao' (did you mean Goa?)``, or
            with ``list_all`` every one of ``names`` (for short lists such as the missions).
    """
    found = table.get(folded(name)) if isinstance(name, str) else None
    if found is None:
        hint = f" ({what}s: {', '.join(names)})" if list_all else closest(name, list(names))
        raise IllegalAction(Reason.UNKNOWN_NAME, f"no {what} is called {quoted(name)}{hint}")
    return found


def _unpadded(name: str) -> str:
    """``master-8`` for ``master-08``: numbers in ids are written without their leading zeros too."""
    return re.sub(r"(?<![0-9])0+([0-9])", r"\1", name)


def folded(text: str) -> str:
    """A name as logs compare names: case-folded, runs of spaces as one, no final full stop."""
    return " ".join(text.casefold().split()).rstrip(".")


class PrintedNames:
    """Every name a thing is called by in a log (its id, and whatever its card prints: a number, a
    title, a rule's text, a gadget), folded (:func:`folded`).  A name two things share is kept
    apart: it cannot say which is meant (where two cards print the same text, the
    error says so and asks for the number).

    Args:
        what: the thing's noun in messages ("mission", "card").
        names: for each thing, by number, its names, the one to ask for first (its id or number).
    """

    def __init__(self, what: str, names: Sequence[Sequence[str]]):
        self.what = what
        self.first = [n[0] for n in names]
        owners: dict[str, set[int]] = {}
        for index, own in enumerate(names):
            for name in own:
                for form in {folded(name), _unpadded(folded(name))}:
                    owners.setdefault(form, set()).add(index)
        self.table = {name: next(iter(who)) for name, who in owners.items() if len(who) == 1}
        self.shared = {name: sorted(who) for name, who in owners.items() if len(who) > 1}
        self.suggestions = list(dict.fromkeys(name for own in names for name in own))

    def __call__(self, name: Any) -> int:
        """The thing called ``name``.

        Raises:
            IllegalAction: ``log.unknown-name``, with the closest name; or, for a name several
                things share, naming them by their first names.
        """
        if isinstance(name, str) and folded(name) in self.shared:
            who = self.shared[folded(name)]
            raise IllegalAction(Reason.UNKNOWN_NAME, f"{len(who)} {self.what}s print {quoted(name)}: write which one is meant "
                                                     f"({' or '.join(self.first[i] for i in who)})")
        if isinstance(name, str) and folded(name) not in self.table and _unpadded(folded(name)) in self.table:
            return self.table[_unpadded(folded(name))]
        shown = name.strip().rstrip(".") if isinstance(name, str) else name
        return by_name(shown, self.table, self.what, self.suggestions)
