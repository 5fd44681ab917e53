"""What a table page draws: a *scene*, plain JSON-able data built for one viewer (a seat, or
None for a spectator) holding only what that viewer may see (docs/table.md gives its shape).
Every table the studio serves at a seat's link (the free-form table of any game, an engine's
table) is a :class:`SceneTable`; the page posts the opaque action ids its scene gives back to
:meth:`SceneTable.act`.
"""
from __future__ import annotations

from typing import Any, Protocol


class Refused(Exception):
    """A click the table does not take: its message says why, in words (an engine's reason for
    an illegal move), and the page shows it.  Nothing has changed."""


class SceneTable(Protocol):
    """A table served by scenes: the free-form table (:mod:`.freetable`) or an engine's."""

    #: How many seats (0, 1, ... ``seat_count - 1``).
    seat_count: int
    #: One more after every change (the pages fetch their scene again).
    version: int

    def scene(self, viewer: int | None) -> dict[str, Any]:
        """The table as ``viewer`` may see it (the scene's shape: docs/table.md)."""
        ...

    def act(self, seat: int, action: str) -> None:
        """Do what ``seat``'s click on ``action`` (an id its scene gave) asks.

        Raises:
            Refused: the table does not take it (the reason in words); nothing changes.
        """
        ...

    def log_yaml(self) -> str:
        """The table's log so far (YAML): it replays the session."""
        ...

    def log_name(self) -> str:
        """The log's file name when downloaded (``GAME-free-tN.yaml``)."""
        ...


def rebased(scene: dict[str, Any], prefix: str) -> dict[str, Any]:
    """``scene`` with every studio image URL (``/card/...``, ``/back/...``) under ``prefix``
    (a seat's link, ``/seat/TOKEN``), so that a device holding only the seat's link reaches them."""
    def move(url: Any) -> Any:
        return prefix + url if isinstance(url, str) and url.startswith(("/card/", "/back/")) else url

    zones = [{**z, "cards": [{**c, "image": move(c.get("image")), "back": move(c.get("back"))} for c in z.get("cards", [])]}
             for z in scene.get("zones", [])]
    return {**scene, "zones": zones}
