"""The cards pages: every card, face and back (``GET /``), a card side's last good image
(``GET /card/{token}.png``, ``GET /base/{token}.png`` for a variant's base card), and the
server-sent events that tell open pages the cards changed (``GET /events``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from deckpress.generator.studio.catalogue import matches
from deckpress.generator.studio.routes import event_stream

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio
    from deckpress.generator.studio.routes import Pages


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The cards pages' routes over ``studio``."""

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
        return event_stream(studio, studio._listeners, "cards", {"version": studio.version})

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
