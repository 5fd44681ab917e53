"""Reading the log form of an event: the checks every game's ``event_to_action`` shares.

Events in a log are untrusted (a person may write them by hand), so each check raises
:class:`~deckpress.rules.core.errors.IllegalAction` with ``log.malformed-event`` (or the range's own reason)
and a message that says what was expected.
"""
from __future__ import annotations

import difflib
from typing import Any, Mapping, Sequence

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
        raise IllegalAction(Reason.MALFORMED_EVENT, f"'{key}' must be a {noun} 0..{count - 1}, got {value!r}")
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
    found = table.get(" ".join(name.casefold().split())) if isinstance(name, str) else None
    if found is None:
        hint = f" ({what}s: {', '.join(names)})" if list_all else closest(name, list(names))
        raise IllegalAction(Reason.UNKNOWN_NAME, f"no {what} is called {name!r}{hint}")
    return found
