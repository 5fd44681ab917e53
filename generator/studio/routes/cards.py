"""The cards pages: every card, face and back (``GET /``), a card side's last good image
(``GET /card/{token}.png``, ``GET /base/{token}.png`` for a variant's base card), and the
server-sent events that tell open pages the cards changed (``GET /events``)."""
from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from deckpress.generator.studio.catalogue import matches

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio
    from deckpress.generator.studio.routes import Pages


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The cards pages' routes over ``studio``."""
    from deckpress.generator.studio.app import KEEPALIVE_S

    async def cards_page(request: Request) -> HTMLResponse:
        query = request.query_params.get("q", "")[:200]
        cat = studio.catalogue
        decks = [(kind, name, [c for c in cards if not query or matches(c, query)]) for kind, name, cards in cat.decks()]
        base = {c.token: cat.base_cards.get((c.kind, c.card_id, c.copy, c.side)) for c in cat.cards} if cat.is_variant else {}
        return pages.page("cards.html.j2", request, decks=decks, base=base, errors=studio.error_lines(), error_count=len(cat.errors),
                    query=query, version=studio.version, shown=cat.shown)

    async def card_image(request: Request) -> Response:
        card = studio.catalogue.card(request.path_params["token"])
        if request.url.path.startswith("/base/"):
            card = _base_by_token(studio, request.path_params["token"])
        if card is None or card.png is None:
            return Response("no such card image", status_code=404, media_type="text/plain")
        return Response(card.png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def back_image(request: Request) -> Response:
        # a card back by its image's digest, which does not name the card (a hidden card's back)
        from deckpress.generator.studio.freetable import back_image as back_png

        png = back_png(studio, request.path_params["digest"])
        if png is None:
            return Response("no such card back", status_code=404, media_type="text/plain")
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def events(request: Request) -> StreamingResponse:
        queue: asyncio.Queue = asyncio.Queue()
        studio._listeners.add(queue)

        async def stream():
            try:
                yield f"event: hello\ndata: {json.dumps({'version': studio.version})}\n\n"
                while not studio.closing:
                    try:
                        event = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if event is None:
                        return
                    yield f"event: cards\ndata: {json.dumps(event)}\n\n"
            finally:
                studio._listeners.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    return [
        Route("/", cards_page),
        Route("/card/{token:str}.png", card_image),
        Route("/base/{token:str}.png", card_image),
        Route("/back/{digest:str}.png", back_image),
        Route("/events", events),
    ]


def _base_by_token(studio: Studio, token: str):
    """The variant's base card side whose image token is ``token``, or None."""
    for card in studio.catalogue.base_cards.values():
        if card.token == token:
            return card
    return None
