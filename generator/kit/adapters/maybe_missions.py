"""Print side of Maybe Missions: vote cards, two-sided mission, Master and shop cards, identities, for the kit.

This module turns validated content into the cards, boards and cover of the kit; the files,
checks and facts it reads, with their sources, are in :mod:`deckpress.generator.content.maybe_missions`.

Two-sided cards (missions, Master cards, shop cards) print their green SUCCESS side as the face and
their red FAIL side as the back: the kit's back sheet draws each card's own back at the mirrored
slot, so each red side lands behind its green side when printed duplex.
"""
from __future__ import annotations

from deckpress.generator.content.maybe_missions import SET_OF
from deckpress.generator.content.maybe_missions_vocabulary import effect_text
from deckpress.generator.kit import words
from deckpress.generator.kit.adapters import how_to_play
from deckpress.generator.kit.printdata import Cover, Deck, Section
from deckpress.generator.kit.translation import tr

#: Icon slots of a side's row (card-facts: 1 to 4 resource icons a side) and of a shop cost (1 to 3).
SIDE_SLOTS = 4
COST_SLOTS = 3


def icon_row(icons: list[dict], slots: int) -> list[dict]:
    """A side's icons as items for the layout's ``rows`` element, centred on ``slots`` places.

    The row steps half a place at a time: ``slots - n`` empty half-steps lead, and an empty item
    sits between two icons, so any number of icons up to ``slots`` is centred.  Items: ``show``
    (draw an icon here), ``icon`` (resource name, also its palette colour), ``crossed``.
    """
    items = [{"show": False}] * (slots - len(icons))
    for i, icon in enumerate(icons):
        if i:
            items.append({"show": False})
        items.append({"show": True, "icon": icon["resource"], "crossed": bool(icon.get("crossed"))})
    return items


def decks(content) -> list[Deck]:
    """The kit's decks as field dicts for ``layout.yaml``.

    Sets: 'base' (votes, missions, Master cards), 'identities' (public and secret identities),
    'gadgets' (shop cards).  Fields: vote ``number``, ``vote`` ('YES'/'NO'), ``side`` and ``mark``
    (palette colour and icon of its type), ``striped`` (NO votes); mission ``title``; Master
    ``rule`` (text from the vocabulary); both with ``success_icons`` and ``fail_icons``
    (:func:`icon_row`); identity ``name``, ``label``, ``colour``, ``helpful``, ``harmful``,
    ``hint``; shop ``<side>_gadget``, ``<side>_cost`` and ``<side>_reward`` for ``success`` and
    ``fail``.
    """
    votes = [{"id": f"vote-{v['number']}", "source": "votes.yaml", "number": str(v["number"]), "vote": v["vote"],
              "side": "success" if v["vote"] == "YES" else "fail", "mark": "mm-tick" if v["vote"] == "YES" else "mm-cross",
              "striped": v["vote"] == "NO"}
             for v in sorted(content["votes"]["votes"], key=lambda v: v["number"])]
    missions = [{"id": m["id"], "source": "missions.yaml", "title": m["title"], **_sides(m)} for m in content["missions"]["missions"]]
    masters = [{"id": m["id"], "source": "masters.yaml", "rule": effect_text(m["rule"]), **_sides(m)} for m in content["masters"]["masters"]]
    shop = [{"id": s["id"], "source": "shop.yaml", **_shop_side(s, "success"), **_shop_side(s, "fail")} for s in content["shop"]["shop"]]
    return [
        Deck("vote", tr("deck/vote/name", "Vote cards"), votes, SET_OF["vote"]),
        Deck("mission", tr("deck/mission/name", "Mission cards"), missions, SET_OF["mission"]),
        Deck("master", tr("deck/master/name", "Master cards"), masters, SET_OF["master"]),
        Deck("identity", tr("deck/public-identity/name", "Public identity cards"), _identities(content["public-identities"]["identities"], "public"), SET_OF["public-identity"]),
        Deck("identity", tr("deck/secret-identity/name", "Secret identity cards"), _identities(content["secret-identities"]["identities"], "secret"), SET_OF["secret-identity"]),
        Deck("shop", tr("deck/shop/name", "Shop cards"), shop, SET_OF["shop"]),
    ]


def _sides(card: dict) -> dict:
    return {"success_icons": icon_row(card["success"], SIDE_SLOTS), "fail_icons": icon_row(card["fail"], SIDE_SLOTS)}


def _shop_side(card: dict, side: str) -> dict:
    s = card[side]
    return {f"{side}_gadget": s["gadget"], f"{side}_reward": effect_text(s["reward"]),
            f"{side}_cost": icon_row([{"resource": r} for r in s["cost"]], COST_SLOTS)}


_IDENTITY_HINTS = {
    "public": "Lies face up: its power is yours for the whole game.",
    "secret": "Keep it face down: it changes your score at the end.",
}


def _identities(records: list[dict], kind: str) -> list[dict]:
    return [{"id": r["id"], "source": f"{kind}-identities.yaml", "name": r["name"],
             "label": tr(f"kit/maybe-missions/identity-label/{kind}", f"{kind.upper()} IDENTITY", "the label of an identity card"), "colour": kind,
             "helpful": effect_text(r["helpful"]), "harmful": effect_text(r["harmful"]),
             "hint": tr(f"kit/maybe-missions/identity-hint/{kind}", _IDENTITY_HINTS[kind], "printed on every identity card of this kind")}
            for r in records]


def _cover_text(key: str, english: str, /, **values) -> str:
    """A sentence or heading of the cover, in the language being built (``kit/maybe-missions/cover/KEY``)."""
    return tr(f"kit/maybe-missions/cover/{key}", english, "on the kit's cover", **values)


def cover(content) -> Cover:
    """The kit's first page, for players: what is in it (with sets), how the two-sided cards work,
    how to play (:func:`deckpress.generator.kit.adapters.how_to_play`) and where the cards come from.
    Every sentence and heading is one entry of a translation's catalogue (``kit/maybe-missions/cover/...``)."""
    game = content["game"]
    checklist = [words.checklist_header(_cover_text("set", "Set"))]
    for comp in game["components"]:
        size = game["card_sizes"].get(comp.get("card_size", ""), {})
        checklist.append([comp["name"], str(comp["count"]), words.size_mm(size["width_mm"], size["height_mm"]) if size else "",
                          SET_OF.get(comp["id"], "")])
    return Cover(
        title=tr("kit/cover/title", "{title}: print-and-play kit", "the cover's title", title=game["title"]),
        subtitle=" · ".join([game["publisher"], words.players(game["players"]["min"], game["players"]["max"])]),
        sections=[
            Section(_cover_text("contents", "What is in this kit"), [
                _cover_text("contents-sets", "Build only some sets with --sets (base, identities, gadgets).")], checklist, [3, 1, 1.5, 1.2],
                set_column=3),
            Section(_cover_text("two-sided", "Two-sided cards"), [
                _cover_text("two-sided-how", "Mission, Master and shop cards have a green SUCCESS side and a red FAIL side: each red side "
                            "must lie behind its own green side (double-sided sheets, or fold-over sheets without duplex: see 'How to "
                            "print'). The FAIL side also says FAIL, shows a cross and has a striped background, so the sides tell apart "
                            "in greyscale."),
                _cover_text("two-sided-score", "A collected card scores the icons of the side that lies up: +1 for each plain icon, -1 "
                            "for each crossed-out icon."),
                _cover_text("two-sided-end", "At the end, the resource you hold the most icons of counts double and the one you hold the "
                            "fewest of does not count (in a tie, choose). A secret identity that makes a resource worth more or less "
                            "changes its points, not which resource you hold most: five weapons worth -1 each, and nothing else, score -10."),
            ]),
            *how_to_play(game, mode_sets={"identities": "identities", "gadgets": "gadgets"}),
            Section(_cover_text("sources", "Where the cards come from"), [
                _cover_text("sources-how", "The number of each kind of card is the published game's. What the cards say is designed for "
                            "this kit: the Master rules, identities and gadgets, their names, icons and colours. The printed words on each "
                            "card are exactly the rule the deckpress rules engine plays."),
            ]),
        ],
    )
