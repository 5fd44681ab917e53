"""An engine table as its pages see it: the table, the action ids of its scenes, each seat's
selection and the log in words, kept together for the life of the table (no web code here)."""
from __future__ import annotations

import threading
from typing import Any

from deckpress.generator.studio.scenes.engine import (
    BackOf,
    Clicks,
    FaceOf,
    Target,
    click,
    engine_scene,
    layout_of,
)
from deckpress.generator.studio.scenes.narrator import Narrator


class UnknownClick(Exception):
    """An action id that no scene of this table has sent (a stale or made-up page)."""


class EngineSession:
    """The scenes and clicks of one :class:`~deckpress.rules.core.table.Table`.

    Attributes:
        table: the table.
        clicks: its action ids (:class:`Clicks`).
        narrator: its log in words (:class:`Narrator`).
        selected: each seat's selection, the first click of a two-click move.
    """

    def __init__(self, table: Any):
        lay = layout_of(table.game.info.id)
        self.table = table
        self.clicks = Clicks()
        self.narrator = Narrator(table, private_scores=lay is not None and lay.my_score is not None)
        self.selected: dict[int, Target] = {}
        self._lock = threading.Lock()

    def scene(self, viewer: int | None, face: FaceOf, back: BackOf, title: str = "", log_lines: int = 40) -> dict[str, Any]:
        """The scene for seat ``viewer`` (None: a spectator); see :func:`engine_scene`."""
        with self._lock:
            selected = self.selected.get(viewer) if viewer is not None else None
            return engine_scene(self.table, viewer, face, back, self.clicks, self.narrator.lines(viewer, log_lines), selected, title)

    def act(self, seat: int, ident: str) -> str:
        """Seat ``seat`` clicks the thing of action id ``ident``: the move it makes is played (the
        table then advances its bots and chance events), or it becomes the seat's selection.
        Returns ``"played"``, ``"selected"`` or ``"cleared"`` (a selection clicked again).

        Raises:
            UnknownClick: ``ident`` is no id of this table's scenes.
            IllegalAction: the engine's reason the click makes no legal move (the game is unchanged).
            TableError: the bots passed the game's length bound afterwards.
        """
        with self._lock:
            target = self.clicks.get(ident)
            if target is None:
                raise UnknownClick(f"no such choice on this table: {ident[:40]!r} (reload the page)")
            action, chosen = click(self.table, seat, target, self.selected.get(seat))
            if action is not None:
                self.selected.pop(seat, None)
        if action is not None:
            self.table.play(seat, action)
            return "played"
        with self._lock:
            if chosen is None:
                self.selected.pop(seat, None)
                return "cleared"
            self.selected[seat] = chosen
            return "selected"
