"""Content model. Maybe Missions (Pandaqi): vote cards, two-sided mission and Master cards, identities and shop.

Content in ``content/maybe-missions/``: ``game.yaml``, ``layout.yaml``, ``votes.yaml``,
``missions.yaml``, ``masters.yaml``, ``public-identities.yaml``, ``secret-identities.yaml`` and
``shop.yaml``.  Counts and rule ideas come from ``docs/card-facts.md`` and the Maybe Missions
rulebook (Pandaqi); titles, names, icons and parameters are designed
(``generator/content/maybe_missions_generate.py`` made the first set; the YAML is the source of truth).  Every rule, power and reward is an effect of the
vocabulary (:mod:`deckpress.generator.content.maybe_missions_vocabulary`), and its printed text is made from it.

This module is the content side: the files, the checks and the facts that both the kit and the
rules engine read; the cards to print are made in :mod:`deckpress.generator.kit.adapters.maybe_missions`.
"""
from __future__ import annotations

from deckpress.generator.content import semantic
from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.maybe_missions_vocabulary import check_effects

FILES = ("game", "layout", "votes", "missions", "masters", "public-identities", "secret-identities", "shop")
#: What this game's code reads from game.yaml (optional keys for a game made from data alone).
GAME_KEYS = ("publisher", "players", "components")
#: (component id in game.yaml, file stem, list key, what a record is, set)
CARD_LISTS = (
    ("vote", "votes", "votes", "vote", "base"),
    ("mission", "missions", "missions", "mission", "base"),
    ("master", "masters", "masters", "Master card", "base"),
    ("public-identity", "public-identities", "identities", "public identity", "identities"),
    ("secret-identity", "secret-identities", "identities", "secret identity", "identities"),
    ("shop", "shop", "shop", "shop card", "gadgets"),
)
SET_OF = {component: card_set for component, *_, card_set in CARD_LISTS}


def check(content) -> list[ContentError]:
    """Counts match ``game.yaml``; ids unique; votes numbered 1..N once each, even numbers YES and
    odd numbers NO (card-facts.md); mission titles unique; every effect has card text for its
    parameters, and identities' helpful powers help while harmful ones hurt."""
    errors: list[ContentError] = []
    for component, stem, list_key, what, _ in CARD_LISTS:
        errors += semantic.count(content, component, stem, list_key)
        if stem != "votes":
            errors += semantic.unique_ids(content.documents[stem], list_key, what)
    errors += _check_votes(content.documents["votes"])
    missions = content.documents["missions"]
    first: dict[str, int] = {}
    for i, card in enumerate(missions.data["missions"]):
        title = card["title"].casefold()
        if title in first:
            line = missions.where(("missions", first[title], "title"))[0]
            errors.append(missions.error(("missions", i, "title"), f"missions[{i}].title: '{card['title']}' is already the title of the card on line {line}"))
        first.setdefault(title, i)
    return errors + check_effects(content)


def _check_votes(doc) -> list[ContentError]:
    errors = []
    votes = doc.data["votes"]
    seen: dict[int, int] = {}
    for i, vote in enumerate(votes):
        number = vote["number"]
        if number in seen:
            errors.append(doc.error(("votes", i, "number"), f"votes[{i}].number: {number} is already on the card of line {doc.where(('votes', seen[number]))[0]}; each number once"))
        seen.setdefault(number, i)
        expected = "YES" if number % 2 == 0 else "NO"
        if vote["vote"] != expected:
            errors.append(doc.error(("votes", i, "vote"), f"votes[{i}].vote: number {number} is {'even' if expected == 'YES' else 'odd'}, so the card is {expected} (even numbers are YES, odd numbers NO)"))
    missing = sorted(set(range(1, len(votes) + 1)) - set(seen))
    if missing:
        errors.append(doc.error(("votes",), f"votes: the numbers must run from 1 to {len(votes)}; missing: {', '.join(map(str, missing))}"))
    return errors
