"""The free-form table of the studio: :mod:`.freeform`'s table over the studio's own printed
cards.  Its decks are the catalogue's decks (every copy of every card), its zones and set-up
those of game.yaml's ``table`` key (or the defaults), and a card's images are looked up by its
key each time a scene is drawn: a card edited during a game shows its new face.

A hidden card is drawn by its back's image, addressed by the image's own digest
(``/back/DIGEST.png``), never by the card's: a card's URL names the card, which would tell a
player which card lies face down.
"""
from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from deckpress.generator.studio.freeform import (
    CardKey,
    DeckCards,
    FreeSession,
    FreeTable,
    Look,
    plan_from_game,
)

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio


def back_digest(png: bytes) -> str:
    """The name a back image is served by: 16 hex digits of its SHA-256 (identical backs, one name)."""
    return hashlib.sha256(png).hexdigest()[:16]


def studio_decks(studio: Studio, game: dict[str, Any] | None = None) -> list[DeckCards]:
    """The catalogue's decks as the table's: each card's face once per copy, in the catalogue's
    order; a deck's id is game.yaml's id for it (a game made from data) or its name in lowercase
    words joined by hyphens (a shipped game's "State cards": ``state-cards``)."""
    ids = {d.get("name"): d.get("id") for d in (game or {}).get("decks", []) if isinstance(d, dict)}
    decks: dict[str, tuple[str, list[CardKey]]] = {}
    for card in studio.catalogue.cards:
        if card.side == "face":
            ident = ids.get(card.deck) or re.sub(r"[^a-z0-9]+", "-", card.deck.lower()).strip("-") or "deck"
            if not ident[0].isalpha():
                ident = f"deck-{ident}"
            decks.setdefault(card.deck, (ident, []))[1].append(CardKey(card.kind, card.card_id, card.copy))
    return [DeckCards(ident, name, tuple(keys)) for name, (ident, keys) in decks.items()]


class StudioFreeTable:
    """A free-form table in the studio (a :class:`~deckpress.generator.studio.scene.SceneTable`).

    Args:
        studio: the studio whose catalogue draws the cards.
        table: the table (:class:`FreeTable`), new or replayed from a log.
        number: the table's number in the studio (its log downloads as ``GAME-free-tN.yaml``).
    """

    def __init__(self, studio: Studio, table: FreeTable, number: int = 0):
        self.studio, self.session, self.number = studio, FreeSession(table, studio.catalogue.title), number
        self.seat_count = table.seats

    @classmethod
    def new(cls, studio: Studio, game: dict[str, Any], seats: int | None, seed: int, deal: int = 0) -> StudioFreeTable:
        """A new table of ``studio``'s game: game.yaml's ``table`` (``game``: its data) or the
        defaults, ``seats`` seats (None: the game's), shuffled with ``seed``, then ``deal`` cards
        dealt to each seat from the first draw pile.

        Raises:
            ValueError: game.yaml's ``table`` names a zone or deck that is not there, or the
                pile has too few cards to deal (the message says which).
        """
        from deckpress.generator.studio.freeform import Refused

        decks = studio_decks(studio, game)
        zones, setup, default_seats = plan_from_game(game, decks)
        if deal:
            pile = next((z.id for z in zones if z.deck and not z.per_seat), None)
            if pile is None:
                raise ValueError("deal: this table has no draw pile to deal from")
            setup = [*setup, {"do": "deal", "zone": pile, "count": deal}]
        try:
            table = FreeTable(decks, seats or default_seats, seed, zones, setup, game=str(studio.catalogue.game_id or ""))
        except Refused as exc:
            raise ValueError(str(exc)) from None
        return cls(studio, table)

    @property
    def table(self) -> FreeTable:
        """The table's cards and moves."""
        return self.session.table

    @property
    def version(self) -> int:
        """One more after every move (the pages fetch their scene again)."""
        return self.session.table.version

    def look(self) -> Any:
        """A function from a card's key to its :class:`Look` (name, face URL, back URL), from the
        catalogue as it is now."""
        _, faces, backs, _ = _looks(self.studio)

        def look(key: CardKey) -> Look:
            name, face = faces.get(key, (f"{key.card_id} (no longer in the data)", None))
            return Look(name, face, backs.get(key))

        return look

    def scene(self, viewer: int | None) -> dict[str, Any]:
        """The table as ``viewer`` may see it (:meth:`FreeSession.scene`)."""
        return self.session.scene(viewer, self.look())

    def act(self, seat: int, action: str) -> None:
        """``seat``'s click (:meth:`FreeSession.act`).

        Raises:
            Refused: the move cannot be made (said in words).
        """
        self.session.act(seat, action)

    def log_yaml(self) -> str:
        """The session's log (:meth:`FreeTable.log_yaml`)."""
        return self.session.table.log_yaml()

    def log_name(self) -> str:
        """``GAME-free-tN.yaml``."""
        return f"{self.studio.catalogue.game_id or 'game'}-free-t{self.number}.yaml"


def _looks(studio: Studio) -> tuple[int, dict, dict, dict]:
    """``(version, {key: (name, face URL)}, {key: back URL}, {digest: back PNG})`` of the
    catalogue as it is now, cached per refresh."""
    cached = getattr(studio, "_free_looks", None)
    if cached is None or cached[0] != studio.version:
        faces, backs, images = {}, {}, {}
        for card in studio.catalogue.cards:
            key = CardKey(card.kind, card.card_id, card.copy)
            if card.side == "face":
                faces[key] = (card.name, f"/card/{card.token}.png?v={card.version}" if card.png else None)
            elif card.png is not None:
                digest = back_digest(card.png)
                backs[key], images[digest] = f"/back/{digest}.png", card.png
        cached = (studio.version, faces, backs, images)
        studio._free_looks = cached  # type: ignore[attr-defined]
    return cached


def back_image(studio: Studio, digest: str) -> bytes | None:
    """The back image served as ``/back/DIGEST.png``, or None (no such back since the last refresh)."""
    return _looks(studio)[3].get(digest)
