"""The engine games' table drawn from its scene (:mod:`deckpress.generator.studio.scenes`):
``GET /table/{id}`` shows the seat due (or the seat asked for) as a table, and ``POST
/table/{id}/act`` takes a click: the form's ``seat`` and ``action`` (an opaque id of the scene).

A click that makes a legal move plays it and the bots answer; one that is the first half of a
two-click move becomes the seat's selection; one the rules refuse is answered 409 with the
engine's reason in words (``phase.wrong: seat 0 chooses the mission first, then plays a card``),
the game unchanged.  A page that asks for JSON (``Accept: application/json``, the page's script)
gets ``{"outcome": ..., "problem": ...}``; a plain form post gets the table page again.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from deckpress.generator.studio.routes import whole
from deckpress.generator.studio.scenes.session import EngineSession, UnknownClick
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Seated, Studio
    from deckpress.generator.studio.routes import Pages

#: Longest action id a page sends (``a`` and 18 hex digits); anything longer is not one.
MAX_ACTION_ID = 64


def session_of(seated: Seated) -> EngineSession:
    """The scene session of a studio table, made on first use."""
    if seated.session is None:
        seated.session = EngineSession(seated.table)
    return seated.session


def scene_page(pages: Pages, request: Request, seated: Seated, seat: int, problem: str | None, status: int = 200) -> HTMLResponse:
    """The table page of ``seat``, drawn from its scene."""
    from deckpress.generator.studio.app import engine_id
    from deckpress.generator.studio.routes.table import (
        _image_of,
        _images_by_name,
        _replay_command,
    )

    studio = pages.studio
    replay = _replay_command(studio, f"{engine_id(studio)}-t{seated.number}.yaml")
    names = _images_by_name(studio)
    backs = _backs(studio)
    scene = session_of(seated).scene(seat, lambda value, numbers: _image_of(names, value, numbers), backs.get,
                                     title=studio.catalogue.title)
    return pages.page("engine-scene.html.j2", request, status=status, ident=request.path_params["ident"], scene=scene,
                      seat=seat, problem=problem, replay=replay, base_folder=studio.base_folder, seats=seated.table.seats,
                      rules=dict(seated.table.game.params))


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The engine table's click route over ``studio``."""

    async def act(request: Request) -> Response:
        from deckpress.rules.core.errors import IllegalAction
        from deckpress.rules.core.table import TableError

        ident = request.path_params["ident"]
        seated = studio.tables.get(ident)
        wants_json = "application/json" in request.headers.get("accept", "")
        if seated is None:
            return _answer(wants_json, 404, "no such table: start a new one from the Table page", None, ident)
        table = seated.table
        form = await request.form()
        try:
            seat = whole(form.get("seat"), "seat", 0, len(table.seats) - 1)
        except ValueError as exc:
            if not wants_json:
                return scene_page(pages, request, seated, table.seat_to_show() or 0, str(exc), status=400)
            return _answer(True, 400, str(exc), None, ident)
        assert seat is not None
        action = str(form.get("action") or "")[:MAX_ACTION_ID]
        try:
            outcome = await run_in_threadpool(session_of(seated).act, seat, action)
        except (IllegalAction, UnknownClick, TableError) as exc:
            if not wants_json:
                return scene_page(pages, request, seated, seat, str(exc), status=409)
            return _answer(True, 409, str(exc), None, ident)
        if outcome == "played":
            seated.last_person = seat
        if wants_json:
            return _answer(True, 200, None, outcome, ident)
        return RedirectResponse(f"/table/{ident}?seat={seat}", status_code=303)

    return [Route("/table/{ident:str}/act", act, methods=["POST"])]


def _answer(wants_json: bool, status: int, problem: str | None, outcome: str | None, ident: str) -> Response:
    if wants_json:
        return JSONResponse({"outcome": outcome, "problem": problem}, status_code=status)
    return Response(problem or "", status_code=status, media_type="text/plain")


def _backs(studio: Studio) -> dict[str, Any]:
    """Each deck kind -> the URL of its cards' back (the back most of its cards share), cached per
    refresh: a hidden card shows this back, whatever card it is."""
    cached = getattr(studio, "_backs", None)
    if cached is not None and cached[0] == studio.version:
        return cached[1]
    counts: dict[str, Counter] = {}
    urls: dict[tuple[str, bytes], str] = {}
    for card in studio.catalogue.cards:
        if card.side == "back" and card.png is not None:
            counts.setdefault(card.kind, Counter())[card.png] += 1
            urls.setdefault((card.kind, card.png), f"/card/{card.token}.png?v={card.version}")
    backs = {kind: urls[(kind, c.most_common(1)[0][0])] for kind, c in counts.items()}
    studio._backs = (studio.version, backs)  # type: ignore[attr-defined]
    return backs
