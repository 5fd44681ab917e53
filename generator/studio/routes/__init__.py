"""The studio's routes, one module per page group: :mod:`.cards` (the cards, their images and
the server-sent events), :mod:`.check` (a variant's check), :mod:`.table` (the tables).  Each
module's ``routes(studio, pages)`` gives its Starlette routes; :func:`deckpress.generator.studio.app.create_app`
assembles them behind the studio's guards.  :class:`Pages` renders the pages they share."""
from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from jinja2.sandbox import ImmutableSandboxedEnvironment
from starlette.requests import Request
from starlette.responses import HTMLResponse, StreamingResponse

from deckpress.generator.content.safetext import quoted

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio


class Pages:
    """The studio's page renderer: ``env`` (sandboxed, autoescaped Jinja2 over the studio's
    templates) with what every page shows (the game's title, whether it has an engine or is a
    variant, the page's path)."""

    def __init__(self, studio: Studio, env: ImmutableSandboxedEnvironment):
        self.studio, self.env = studio, env

    def page(self, name: str, request: Request, status: int = 200, **values: Any) -> HTMLResponse:
        """Template ``name`` rendered with ``values`` and the studio's own, answered with ``status``."""
        from deckpress.generator.studio.app import engine_id

        studio = self.studio
        values.update(studio=studio, title=studio.catalogue.title, engine=engine_id(studio),
                      is_variant=studio.catalogue.is_variant, path=request.url.path)
        return HTMLResponse(self.env.get_template(name).render(**values), status_code=status)

    def stranger(self, status: int, heading: str, message: str) -> HTMLResponse:
        """A page for whoever asks, holder of a secret or not: nothing of the game, not even its
        title, and no links into the studio."""
        html = self.env.get_template("message.html.j2").render(studio=self.studio, title="deckpress studio", engine=None,
                                                               is_variant=False, path="", remote=True, heading=heading, message=message)
        return HTMLResponse(html, status_code=status)

    def scene_page(self, request: Request, base: str, viewer: int | None, seat_count: int, **values: Any) -> HTMLResponse:
        """The table page (``scene.html.j2``, drawn by its script from ``BASE/scene.json``) for
        ``viewer`` (a seat, None: a spectator); ``base`` is where its scene, clicks and events
        are (a seat's link); ``values``: the designer's own page adds the seats' links."""
        heading = "Spectator" if viewer is None else f"Seat {viewer + 1} of {seat_count}"
        remote = base.startswith("/seat/") and not values.get("links")
        return self.page("scene.html.j2", request, base=base, viewer=viewer, heading=heading, remote=remote, **values)

    def no_engine(self, request: Request) -> HTMLResponse:
        """The page an engine's route answers for a game without a rules engine (404)."""
        return self.page("message.html.j2", request, status=404, heading="No table for this game",
                         message="This game has no rules engine: its cards can be printed, not played here.")


def whole(value, name: str, low: int, high: int, optional: bool = False) -> int | None:
    """A form's whole number from ``low`` to ``high`` (digits only, spaces around allowed); None
    for an empty ``optional`` field.  Never another number than the one sent: no clamping, no
    default in place of text.

    Raises:
        ValueError: anything else, as ``NAME: expected a whole number from LOW to HIGH, got 'TEXT'``
            (the text escaped and cut short).
    """
    text = value.strip() if isinstance(value, str) else "" if value is None else repr(value)
    if optional and not text:
        return None
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None
    if number is None or not low <= number <= high:
        raise ValueError(f"{name}: expected a whole number from {low:,} to {high:,}, got {quoted(text)}")
    return number


def event_stream(studio: Studio, listeners: set[asyncio.Queue], event: str, hello: dict[str, Any] | None = None) -> StreamingResponse:
    """One page's server-sent events: ``hello`` (JSON) at once, then an ``event`` for each item put
    on the page's queue (in ``listeners`` while the page listens), and a keep-alive comment after
    each ``KEEPALIVE_S`` seconds (s) of quiet; the stream ends when the studio closes or a None is
    queued."""
    from deckpress.generator.studio.app import KEEPALIVE_S

    queue: asyncio.Queue = asyncio.Queue()
    listeners.add(queue)

    async def stream():
        try:
            yield f"event: hello\ndata: {json.dumps(hello or {})}\n\n"
            while not studio.closing:
                try:
                    item = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if item is None:
                    return
                yield f"event: {event}\ndata: {json.dumps(item)}\n\n"
        finally:
            listeners.discard(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
