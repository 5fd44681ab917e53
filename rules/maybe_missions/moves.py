"""Card moves shared by Master rules and shop rewards: turning Master cards up, refilling the
market, drawing votes, flipping collected cards and swapping them.

Decks are modelled as a table sees them: cards in unknown order, each equally likely to come
next, so every card that comes into view is a chance event naming it (``{chance: market, card:
Tail the courier}``).  Master cards once shown (``reveal_masters``, ``choose_master``) lie on top of
the Master deck in a known order (``master_top``) and come off it without a chance event.
"""
from __future__ import annotations

from deckpress.rules.maybe_missions.cards import CARD
from deckpress.rules.maybe_missions.steps import chance, decision, task, uniform


# -- the Master deck --------------------------------------------------------------------------
def _sample_card(deck_name: str):
    def sample(state, u: float, *args) -> int:
        deck = sorted(getattr(state, deck_name))
        return CARD + deck[int(u * len(deck))]
    return sample


@chance("master", "card", (),
        lambda state: [(CARD + c, p) for c, p in uniform(state.master_deck)],
        _sample_card("master_deck"),
        lambda state, action: action - CARD in state.master_deck)
def master_shown(state, action: int) -> None:
    """The next unknown Master card is turned up: it joins the known top of the Master deck."""
    card = action - CARD
    state.master_deck.remove(card)
    state.master_top.append(card)


@task("show_masters")
def show_masters(state, n: int) -> None:
    """Make the top ``n`` Master cards known (all of the deck if shorter): one chance event per
    unknown card."""
    if len(state.master_top) < n and state.master_deck:
        state.push(("show_masters", n))
        state.draw("master")


# -- the market -------------------------------------------------------------------------------
@chance("market", "card", (),
        lambda state: [(CARD + c, p) for c, p in uniform(state.mission_deck)],
        _sample_card("mission_deck"),
        lambda state, action: action - CARD in state.mission_deck)
def market_card(state, action: int) -> None:
    """A mission card from the deck is laid face up in the market."""
    card = action - CARD
    state.mission_deck.remove(card)
    state.market.append(card)


@task("refill_market")
def refill_market(state) -> None:
    """Deal mission cards into the market until it holds ``market`` cards or the deck runs out
    (rulebook "Setup": a market of 6 face-up Mission cards; "Refill the market as needed")."""
    if len(state.market) < state.game.market_size and state.mission_deck:
        state.push(("refill_market",))
        state.draw("market")


# -- votes ------------------------------------------------------------------------------------
def _sample_box(state, u: float, seat: int) -> int:
    box = sorted(state.box)
    return box[int(u * len(box))]


@chance("draw", "vote", ("seat",),
        lambda state, seat: uniform(state.box),
        _sample_box,
        lambda state, action, seat: action in state.box)
def vote_drawn(state, action: int, seat: int) -> None:
    """``seat`` draws a vote card from the vote deck (the cards not dealt at setup)."""
    state.box.remove(action)
    state.hands[seat].append(action)


@task("draw_votes")
def draw_votes(state, seat: int, n: int) -> None:
    """``seat`` draws ``n`` votes, fewer if the vote deck runs out."""
    if n > 0 and state.box:
        state.push(("draw_votes", seat, n - 1))
        state.draw("draw", seat)


# -- flipping collected cards -----------------------------------------------------------------
def _flip_candidates(state, seat: int, scope: str) -> list[int]:
    if scope == "own":
        return state.collected[seat]
    return [c for s, cards in enumerate(state.collected) if s != seat for c in cards]


@task("flip_some")
def flip_some(state, seat: int, count: int, scope: str) -> None:
    """``seat`` turns over ``count`` collected cards (its own, or other players' with scope
    ``rival``), chosen one at a time; all of them if there are no more than ``count``."""
    candidates = _flip_candidates(state, seat, scope)
    if len(candidates) <= count:
        for card in list(candidates):
            state.up[card] ^= 1
        return
    state.ask("flip", seat, count, scope, ())


def _flip_legal(state, seat: int, count: int, scope: str, chosen: tuple) -> list[int]:
    return sorted(CARD + c for c in _flip_candidates(state, seat, scope) if c not in chosen)


@decision("flip", "flip", "card", "to choose a collected card to turn over", _flip_legal)
def flip(state, seat: int, action: int, count: int, scope: str, chosen: tuple) -> None:
    """Turn the chosen card to its other side; ask for the next one while some are due."""
    card = action - CARD
    state.up[card] ^= 1
    if count > 1:
        state.ask("flip", seat, count - 1, scope, chosen + (card,))


# -- swapping collected cards -----------------------------------------------------------------
@task("swap_give")
def swap_give(state, seat: int) -> None:
    """``seat`` swaps one card it collected with one another player collected, if both exist;
    each card keeps the side it had up (voter_swaps_collected, swap_collected)."""
    if state.collected[seat] and any(cards for s, cards in enumerate(state.collected) if s != seat):
        state.ask("give", seat)


@decision("give", "give", "card", "to choose one of its collected cards to swap",
          lambda state, seat: sorted(CARD + c for c in state.collected[seat]))
def give(state, seat: int, action: int) -> None:
    """The seat's own card is chosen; now the other player's."""
    state.ask("take", seat, action - CARD)


@decision("take", "take", "card", "to choose another player's collected card to take in the swap",
          lambda state, seat, given: sorted(CARD + c for s, cards in enumerate(state.collected) if s != seat for c in cards))
def take(state, seat: int, action: int, given: int) -> None:
    """The two cards change owners, each keeping the side it had up."""
    card = action - CARD
    other = state.owner[card]
    mine_side = state.take_card(given)
    their_side = state.take_card(card)
    state.give_card(other, given, mine_side)
    state.give_card(seat, card, their_side)


def can_take(state, seat: int, card: int, side: int) -> bool:
    """False when ``seat``'s public power forbids a mission card whose ``side`` shows a resource
    (forbidden_resource); Master and shop cards are never forbidden."""
    game = state.game
    return card >= game.n_missions or not (state.powers(seat).forbidden & game.shows[card][side])
