"""A seat's own link: where each person plays a table from their own screen, and a spectator
watches.  ``/seat/TOKEN`` is the page; ``/seat/TOKEN/scene.json`` what it draws (only what that
seat may see: :class:`~deckpress.generator.studio.scene.SceneTable`), ``/seat/TOKEN/events``
its live updates (server-sent events: a ``changed`` ping after every move and every card
change), ``POST /seat/TOKEN/act`` a click, and ``/seat/TOKEN/card/...``, ``/seat/TOKEN/back/...``
the printed card images the scene names.

TOKEN is the seat's secret (``secrets.token_urlsafe``, compared in constant time): these routes
need it instead of the studio's secret, which stays with the designer.  A wrong token is
answered as a link that opens nothing, whether or not any table exists; a spectator's token
cannot play.  Every answer carries ``Referrer-Policy: no-referrer`` (:class:`~deckpress.generator.studio.app.NoReferrer`),
and no token is ever logged.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from deckpress.generator.studio.app import SEAT_PREFIX, Seated
from deckpress.generator.studio.freetable import back_image
from deckpress.generator.studio.routes import event_stream
from deckpress.generator.studio.scene import Refused, rebased

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio
    from deckpress.generator.studio.routes import Pages

#: Longest action id a click may send (the scenes' are a few dozen characters).
MAX_ACTION_CHARS = 200
_NO_STORE = {"Cache-Control": "no-store"}


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The seat links' routes over ``studio``."""

    def opened(request: Request) -> tuple[str, Seated, int | None] | None:
        # a free-form table's links, or an engine table's made by "invite people" or --host
        return studio.seat_of(request.path_params["token"])

    def nothing(request: Request) -> Response:
        # the same answer for every token that opens nothing: no table is named or confirmed
        if request.url.path.endswith((".json", "/act")):
            return JSONResponse({"error": "this link opens no table"}, status_code=404, headers=_NO_STORE)
        return pages.stranger(404, "Nothing here", "This link opens no table. Ask whoever runs the studio for your seat's link.")

    async def seat_page(request: Request) -> Response:
        found = opened(request)
        if found is None:
            return nothing(request)
        _, seated, seat = found
        return pages.scene_page(request, base=SEAT_PREFIX + request.path_params["token"], viewer=seat,
                                seat_count=_seat_count(seated))

    async def scene_json(request: Request) -> Response:
        found = opened(request)
        if found is None:
            return nothing(request)
        _, seated, seat = found
        scene = await run_in_threadpool(_locked, seated, lambda: _scene(studio, seated, seat))
        return JSONResponse(rebased(scene, SEAT_PREFIX + request.path_params["token"]), headers=_NO_STORE)

    async def act(request: Request) -> Response:
        found = opened(request)
        if found is None:
            return nothing(request)
        _, seated, seat = found
        if seat is None:
            return JSONResponse({"error": "a spectator watches: only a seat's link can play"}, status_code=403, headers=_NO_STORE)
        form = await request.form()
        action = str(form.get("action") or "")[:MAX_ACTION_CHARS]
        try:
            await run_in_threadpool(_locked, seated, lambda: _act(seated, seat, action))
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=409, headers=_NO_STORE)
        seated.changed()
        scene = await run_in_threadpool(_locked, seated, lambda: _scene(studio, seated, seat))
        return JSONResponse(rebased(scene, SEAT_PREFIX + request.path_params["token"]), headers=_NO_STORE)

    async def events(request: Request) -> Response:
        found = opened(request)
        if found is None:
            return nothing(request)
        return event_stream(studio, found[1].listeners, "changed")

    async def card_image(request: Request) -> Response:
        if opened(request) is None:
            return nothing(request)
        card = studio.catalogue.card(request.path_params["card"])
        if card is None or card.side != "face" or card.png is None:
            return Response("no such card image", status_code=404, media_type="text/plain")
        return Response(card.png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def back(request: Request) -> Response:
        if opened(request) is None:
            return nothing(request)
        png = back_image(studio, request.path_params["digest"])
        if png is None:
            return Response("no such card back", status_code=404, media_type="text/plain")
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    return [
        Route(SEAT_PREFIX + "{token:str}", seat_page),
        Route(SEAT_PREFIX + "{token:str}/scene.json", scene_json),
        Route(SEAT_PREFIX + "{token:str}/act", act, methods=["POST"]),
        Route(SEAT_PREFIX + "{token:str}/events", events),
        Route(SEAT_PREFIX + "{token:str}/card/{card:str}.png", card_image),
        Route(SEAT_PREFIX + "{token:str}/back/{digest:str}.png", back),
    ]


def _seat_count(seated: Seated) -> int:
    """How many seats the table has (an engine's table: its seats, persons and bots)."""
    table = seated.table
    return table.seat_count if hasattr(table, "scene") else len(table.seats)


def _scene(studio: Studio, seated: Seated, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees at ``seated``'s table: a free-form table's own
    scene, or an engine's from that seat's observation only (:func:`.engine.engine_scene_of`)."""
    if hasattr(seated.table, "scene"):
        return seated.table.scene(seat)
    from deckpress.generator.studio.routes.engine import engine_scene_of

    return engine_scene_of(studio, seated, seat)


def _act(seated: Seated, seat: int, action: str) -> None:
    """Seat ``seat``'s click on ``action`` at ``seated``'s table.

    Raises:
        Refused: the table does not take it; at an engine's table the engine's reason in words
            (an illegal move, a click no scene sent, the game's length bound passed).
    """
    if hasattr(seated.table, "scene"):
        seated.table.act(seat, action)
        return
    from deckpress.generator.studio.routes.engine import session_of
    from deckpress.generator.studio.scenes.session import UnknownClick
    from deckpress.rules.core.errors import IllegalAction
    from deckpress.rules.core.table import TableError

    try:
        if session_of(seated).act(seat, action) == "played":
            seated.last_person = seat
    except (IllegalAction, UnknownClick, TableError) as exc:
        raise Refused(str(exc)) from None


def _locked(seated: Seated, work):
    """``work()`` while holding the table's lock: one click at a time at each table."""
    with seated.lock:
        return work()
