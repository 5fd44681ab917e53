"""The engine games' table drawn from its scene (:mod:`deckpress.generator.studio.scenes`) by the
studio's one scene template (``scene.html.j2``, the page's script drawing ``BASE/scene.json``).

``GET /table/{id}`` shows the person seat due (hot seat, as :mod:`.table` decides), with BASE
``/table/{id}/seat/{n}``: ``GET BASE/scene.json`` is what seat n sees, ``POST BASE/act`` a click
(the form's ``action``, an opaque id of the scene) and ``GET BASE/events`` a ``changed`` ping after
every move.  A click that makes a legal move plays it and the bots answer; the first half of a
two-click move becomes the seat's selection; a click the rules refuse is answered 409 with the
engine's reason in words (``{"error": "phase.wrong: seat 0 chooses the mission first, then plays
a card"}``), the game unchanged.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from deckpress.generator.studio.routes import event_stream
from deckpress.generator.studio.scenes.session import EngineSession, UnknownClick

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Seated, Studio
    from deckpress.generator.studio.routes import Pages

#: Longest action id a page sends (``a`` and 18 hex digits); anything longer is not one.
MAX_ACTION_ID = 64
_NO_STORE = {"Cache-Control": "no-store"}


def session_of(seated: Seated) -> EngineSession:
    """The scene session of a studio table, made on first use."""
    if seated.session is None:
        seated.session = EngineSession(seated.table)
    return seated.session


def engine_scene_of(studio: Studio, seated: Seated, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees at an engine table, its cards as the studio's printed images: faces by
    the card's image, hidden cards by their deck's back (served by the back image's digest, which
    names no card)."""
    from deckpress.generator.studio.routes.table import _image_of, _images_by_name

    names = _images_by_name(studio)
    backs = _backs(studio)
    return session_of(seated).scene(seat, lambda value, numbers: _image_of(names, value, numbers), backs.get,
                                     title=studio.catalogue.title)


def scene_page(pages: Pages, request: Request, seated: Seated, seat: int, problem: str | None, status: int = 200) -> HTMLResponse:
    """The table page of ``seat``: the scene template over ``/table/{id}/seat/{seat}``, with the
    game's result, the rules played and the replay command below it."""
    from deckpress.generator.studio.app import engine_id
    from deckpress.generator.studio.routes.table import _replay_command

    studio = pages.studio
    ident = request.path_params["ident"]
    table = seated.table
    result = table.result()
    return pages.page("engine-table.html.j2", request, status=status, base=f"/table/{ident}/seat/{seat}", viewer=seat,
                      heading=f"Seat {seat + 1} of {len(table.seats)}", remote=False, ident=ident, problem=problem,
                      result=result["text"] if result else None, seats=table.seats, rules=dict(table.game.params),
                      replay=_replay_command(studio, f"{engine_id(studio)}-t{seated.number}.yaml"),
                      base_folder=studio.base_folder)


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The engine table's scene, click and event routes over ``studio``."""

    def found(request: Request) -> tuple[Seated, int] | None:
        seated = studio.tables.get(request.path_params["ident"])
        if seated is None or hasattr(seated.table, "scene") or not 0 <= request.path_params["seat"] < len(seated.table.seats):
            return None
        return seated, request.path_params["seat"]

    def nothing() -> Response:
        return JSONResponse({"error": "no such table or seat: start a new table from the Table page"}, status_code=404, headers=_NO_STORE)

    async def scene_json(request: Request) -> Response:
        at = found(request)
        if at is None:
            return nothing()
        scene = await run_in_threadpool(engine_scene_of, studio, *at)
        return JSONResponse(scene, headers=_NO_STORE)

    async def act(request: Request) -> Response:
        from deckpress.rules.core.errors import IllegalAction
        from deckpress.rules.core.table import TableError

        at = found(request)
        if at is None:
            return nothing()
        seated, seat = at
        form = await request.form()
        action = str(form.get("action") or "")[:MAX_ACTION_ID]
        try:
            outcome = await run_in_threadpool(session_of(seated).act, seat, action)
        except (IllegalAction, UnknownClick, TableError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=409, headers=_NO_STORE)
        if outcome == "played":
            seated.last_person = seat
        seated.changed()
        scene = await run_in_threadpool(engine_scene_of, studio, seated, seat)
        return JSONResponse(scene, headers=_NO_STORE)

    async def events(request: Request) -> Response:
        at = found(request)
        if at is None:
            return nothing()
        return event_stream(studio, at[0].listeners, "changed")

    base = "/table/{ident:str}/seat/{seat:int}"
    return [Route(base + "/scene.json", scene_json), Route(base + "/act", act, methods=["POST"]), Route(base + "/events", events)]


def _backs(studio: Studio) -> dict[str, str]:
    """Each deck kind -> the URL of its cards' back (the back most of its cards share), served by
    the image's digest (``/back/DIGEST.png``, :func:`deckpress.generator.studio.freetable.back_digest`),
    cached per refresh: a hidden card shows this back, whatever card it is."""
    from collections import Counter

    from deckpress.generator.studio.freetable import back_digest

    cached = getattr(studio, "_engine_backs", None)
    if cached is not None and cached[0] == studio.version:
        return cached[1]
    counts: dict[str, Counter] = {}
    for card in studio.catalogue.cards:
        if card.side == "back" and card.png is not None:
            counts.setdefault(card.kind, Counter())[card.png] += 1
    backs = {kind: f"/back/{back_digest(c.most_common(1)[0][0])}.png" for kind, c in counts.items()}
    studio._engine_backs = (studio.version, backs)  # type: ignore[attr-defined]
    return backs
