"""The round flow (rulebook "Setup", "Gameplay", "Objective"; the vocabulary's ROUND model):

(0) setup: deal the votes (again if a hand holds one type only), the identities, the shop card and
the market; then rounds until every hand is empty, each:
(1) start: seats may play won Master cards (variant); the top Master card is revealed and the
round's rules are built; round-start effects;
(2) prepare: the active seat proposes 1 to P market cards, one at a time, then "done";
(3) vote: every seat plays a vote face down, all revealed at once (late voters after);
(4) result: counted votes are tallied; SUCCESS if YES >= NO (the ``tie`` parameter);
(5) after voting: after-voting effects, then the shop (:mod:`~deckpress.rules.maybe_missions.shop`);
(6) collect: YES voters collect in vote order (low to high on SUCCESS, green side up; high to
low on FAIL, red side up); all-NO rounds make everyone collect red side up and lose the Master
card; the active seat wins the Master card;
(7) end: round-end effects; votes discarded; the reduce-randomness variant; the next seat is active.
"""
from __future__ import annotations

from deckpress.generator.content.maybe_missions_vocabulary import effect_text
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.maybe_missions.cards import (
    ALL_NO,
    CARD,
    DELTA,
    GREEN,
    NO,
    NO_MASTER,
    PASS,
    PUBLIC,
    RED,
    RESOURCES,
    SECRET,
    UNANIMOUS,
    VOTE_TYPES,
    YES,
)
from deckpress.rules.maybe_missions.moves import can_take
from deckpress.rules.maybe_missions.steps import (
    chance,
    decision,
    task,
    uniform,
    uniform_sample,
)


# -- (0) setup ----------------------------------------------------------------------------------
@task("setup")
def setup(state) -> None:
    """Deal votes, then identities (Secret Identities), the shop card (Gadget Shopping), the market."""
    game = state.game
    tasks = [("deal_votes", 0), ("check_deal",)]
    if game.identities:
        tasks += [("identity", "public-identity", s) for s in range(game.players)]
        tasks += [("identity", "secret-identity", s) for s in range(game.players)]
    if game.gadgets:
        tasks.append(("reveal_shop",))
    tasks += [("refill_market",), ("round",)]
    state.push(*tasks)


def _deal_split(state) -> tuple[list[int], list[int], float]:
    """The box's NO votes and YES votes, each in box order, and the chance that the next card dealt
    is NO.  The split is worked out once per deal and kept in ``state.deal_pool``, which
    :func:`dealt` keeps up to date."""
    pool = state.deal_pool
    if pool is None:
        types = state.game.vote_type
        pool = state.deal_pool = [[n for n in state.box if types[n] == NO], [n for n in state.box if types[n] == YES]]
    no_left, yes_left = state.deal_left
    return pool[NO], pool[YES], no_left / (no_left + yes_left)


def _deal_outcomes(state, seat: int) -> list[tuple[int, float]]:
    nos, yes, p_no = _deal_split(state)
    out = [(n, p_no / len(nos)) for n in nos] if p_no > 0 else []
    out += [(n, (1 - p_no) / len(yes)) for n in yes] if p_no < 1 else []
    return sorted(out)


def _deal_sample(state, u: float, seat: int) -> int:
    nos, yes, p_no = _deal_split(state)
    if u < p_no:
        return nos[int(u / p_no * len(nos))]
    return yes[min(len(yes) - 1, int((u - p_no) / (1 - p_no) * len(yes)))]


def _deal_possible(state, action: int, seat: int) -> bool:
    """A vote of the box whose type still has cards to deal (the outcomes of :func:`_deal_outcomes`)."""
    return action in state.box and state.deal_left[state.game.vote_type[action]] > 0


@chance("deal", "vote", ("seat",), _deal_outcomes, _deal_sample, _deal_possible)
def dealt(state, action: int, seat: int) -> None:
    """A vote card is dealt to ``seat``.  The game's vote deck holds ``votes`` YES and ``votes`` NO
    cards per player (rulebook "Setup": 5 and 5), taken at random from the box's 60: so the next
    card is YES with the share of YES cards still to deal, and any YES card of the box is equally
    likely (the same for NO)."""
    vote_type = state.game.vote_type[action]
    state.box.remove(action)
    if state.deal_pool is not None:
        state.deal_pool[vote_type].remove(action)
    state.deal_left[vote_type] -= 1
    state.hands[seat].append(action)


def deal_refused(state, action: int) -> str | None:
    """Why vote ``action``, still in the box, cannot be dealt now: its type's share of the deck is
    dealt (rulebook "Setup": "Create a deck containing 5 YES and 5 NO Votes per player"); None
    when that is not the reason."""
    game = state.game
    t = game.vote_type[action] if 0 < action < len(game.vote_type) else -1
    if t < 0 or action not in state.box or state.deal_left[t] > 0:
        return None
    kind, per = VOTE_TYPES[t], game.votes_per_type
    total = per * game.players
    return (f"{action} cannot be dealt: it is a {kind} vote, and a {_players_word(game.players)}-player game has {total} {kind} "
            f"votes ({per} per player), all dealt already")


def _players_word(n: int) -> str:
    return {3: "three", 4: "four", 5: "five", 6: "six"}.get(n, str(n))


#: Rulebook "Setup", the redeal rule, quoted in messages.
REDEAL_RULE = "If someone starts with only Votes of a single type, however rare, deal again."


def redeal_why(state) -> str:
    """While the votes are dealt again (:func:`check_deal`): which hand was of one type, and the
    rulebook's sentence; else ``""``."""
    if state.redeal is None or state.chance is None or state.chance[0] != "deal":
        return ""
    seat, t = state.redeal
    return (f'seat {seat} was dealt only {VOTE_TYPES[t]} votes, and "{REDEAL_RULE}" (rulebook, Setup): every vote went back, '
            "and the new deal is due")


@task("deal_votes")
def deal_votes(state, i: int) -> None:
    """Deal the ``i``-th of the ``hand x players`` vote cards: a whole hand to seat 0 first."""
    game = state.game
    if i < game.hand_size * game.players:
        state.push(("deal_votes", i + 1))
        state.draw("deal", i // game.hand_size)


@task("check_deal")
def check_deal(state) -> None:
    """Rulebook "Setup": "If someone starts with only Votes of a single type, however rare, deal
    again": every vote goes back to the box and the deal starts over."""
    types = state.game.vote_type
    one_type = [(s, types[hand[0]] if hand else NO) for s, hand in enumerate(state.hands) if len({types[n] for n in hand}) < 2]
    state.deal_pool = None  # the deal is over (or starts again from a box in another order)
    state.redeal = one_type[0] if one_type else None  # refusals of another event name it (MaybeMissionsState.why_due)
    if one_type:
        for hand in state.hands:
            state.box.extend(hand)
            hand.clear()
        state.deal_left = [state.game.votes_per_type * state.game.players] * 2
        state.count("redeals")
        state.push(("deal_votes", 0), ("check_deal",))


@task("identity")
def identity(state, kind: str, seat: int) -> None:
    """Deal ``seat`` a public (face up) or secret (face down) identity (Secret Identities setup)."""
    state.draw(kind, seat)


@chance("public-identity", "public", ("seat",),
        lambda state, seat: [(PUBLIC + i, p) for i, p in uniform(state.public_deck)],
        lambda state, u, seat: PUBLIC + uniform_sample(state.public_deck, u),
        lambda state, action, seat: action - PUBLIC in state.public_deck)
def public_dealt(state, action: int, seat: int) -> None:
    """``seat``'s public identity, face up: its power holds every round."""
    state.public_deck.remove(action - PUBLIC)
    state.public_id[seat] = action - PUBLIC


@chance("secret-identity", "secret", ("seat",),
        lambda state, seat: [(SECRET + i, p) for i, p in uniform(state.secret_deck)],
        lambda state, u, seat: SECRET + uniform_sample(state.secret_deck, u),
        lambda state, action, seat: action - SECRET in state.secret_deck)
def secret_dealt(state, action: int, seat: int) -> None:
    """``seat``'s secret identity, face down: only it sees the card; it changes its final score."""
    state.secret_deck.remove(action - SECRET)
    state.secret_id[seat] = action - SECRET


@task("reveal_shop")
def reveal_shop(state) -> None:
    """Turn up a new general shop card from the shop deck, if any is left (Gadget Shopping)."""
    if state.shop_now < 0 and state.shop_deck:
        state.draw("shop")


@chance("shop", "card", (),
        lambda state: [(CARD + c, p) for c, p in uniform(state.shop_deck)],
        lambda state, u: CARD + uniform_sample(state.shop_deck, u),
        lambda state, action: action - CARD in state.shop_deck)
def shop_card(state, action: int) -> None:
    """The shop card in clear view of all players."""
    state.shop_deck.remove(action - CARD)
    state.shop_now = action - CARD


# -- (1) start ----------------------------------------------------------------------------------
@task("round")
def start_round(state) -> None:
    """Start the next round, or end the game once everyone's votes have run out (rulebook
    "Objective"), or (``empty_market: end``, the default) once no mission card is left to
    propose: "You must choose at least 1 card" (rulebook, Gameplay) cannot be met."""
    if not any(state.hands):
        return  # nothing left on the agenda: the game is over
    if not state.market and state.game.end_on_empty_market:
        state.count("ended with no mission card left")
        return
    state.round_no += 1
    n = state.game.players
    state.success = state.exceptional = state.unanimous = False
    state.blocked, state.extra, state.take_back = [], [], []
    state.got_card, state.bought = [False] * n, [False] * n
    state.general_open = state.game.gadgets
    state.announced = {}
    state.push(("offer_masters",), ("reveal",), ("rules",), ("prepare",), ("vote",), ("result",), ("after_voting",),
               ("shop",), ("collect",), ("award_master",), ("round_end",), ("round",))


@task("offer_masters")
def offer_masters(state) -> None:
    """Before the round, in turn order from the active seat, each seat that may (the ``play_masters``
    variant: everyone; else a public identity with play_masters) may play a collected Master card
    lying green side up (rulebook "Variants")."""
    everyone = state.game.play_masters
    state.push(*(("offer_master", s) for s in state.clockwise(state.active) if everyone or state.powers(s).plays_masters))


def _green_masters(state, seat: int) -> list[int]:
    first = state.game.n_missions
    return [c for c in state.collected[seat] if c >= first and state.up[c] == GREEN]


@task("offer_master")
def offer_master(state, seat: int) -> None:
    """Ask ``seat`` whether to play one of its green-side-up Master cards."""
    if _green_masters(state, seat):
        state.ask("play_master", seat)


def _play_master_why(state, seat: int, action: int):
    """A Master card the seat holds red side up: rulebook "Variants": "This only applies to
    collected Master Cards that are positive (green side up)"."""
    card = action - CARD
    if card in state.collected[seat] and card >= state.game.n_missions and state.up[card] == RED:
        return IllegalAction(Reason.WRONG_PILE, f"{state.game.card_names[card]} lies red side up in seat {seat}'s collection: only "
                                                "Master cards won green side up may be played (rulebook, Variants: \"This only applies "
                                                "to collected Master Cards that are positive (green side up)\")")
    return None


@decision("play_master", "play_master", "card", "to play a won Master card this round, or not (none)",
          lambda state, seat: [PASS] + sorted(CARD + c for c in _green_masters(state, seat)), _play_master_why)
def play_master(state, seat: int, action: int) -> None:
    """The card leaves the collection (it no longer scores); its rule joins this round's, then it
    is discarded."""
    if action != PASS:
        state.take_card(action - CARD)
        state.played_masters.append(action - CARD)
        state.count("masters played")


@task("reveal")
def reveal(state) -> None:
    """Reveal the top Master card; after a choose_master purchase, its buyer picks it from the top
    ``count`` instead.  An empty Master deck leaves the round without a revealed rule."""
    if state.choose_now:
        seat, count = state.choose_now
        state.push(("show_masters", count), ("choose_from_top", seat, count))
    else:
        state.push(("show_masters", 1), ("take_top_master",))


@task("take_top_master")
def take_top_master(state) -> None:
    """The top Master card (now known) becomes this round's."""
    state.master_now = state.master_top.pop(0) if state.master_top else -1


@task("choose_from_top")
def choose_from_top(state, seat: int, count: int) -> None:
    """``seat`` chooses this round's Master card among the top ``count`` (choose_master)."""
    k = min(count, len(state.master_top))
    if k <= 1:
        state.push(("take_top_master",))
    else:
        state.ask("choose_master", seat, k)


@decision("choose_master", "choose_master", "card", "to choose this round's Master card",
          lambda state, seat, k: sorted(CARD + c for c in state.master_top[:k]))
def choose_master(state, seat: int, action: int, k: int) -> None:
    """The chosen card is revealed; the others stay on top of the deck in their order."""
    state.master_top.remove(action - CARD)
    state.master_now = action - CARD


@task("rules")
def build_rules(state) -> None:
    """The round's rules: the revealed card's, then each played card's; then round-start effects."""
    cards = ([state.master_now] if state.master_now >= 0 else []) + state.played_masters
    rules = state.rules = state.game.round_rules(tuple(cards))
    for names in rules.tallies:
        state.count(names.in_force)
    state.push(*rules.start)


# -- (2) prepare ----------------------------------------------------------------------------------
def _green_shows(state, cards) -> int:
    shows = state.game.shows
    mask = 0
    for c in cards:
        mask |= shows[c][GREEN]
    return mask


def completable(game, union: int, n: int, remaining: list[int], lo: int, hi: int, vmin: int, vmax: int) -> bool:
    """Whether cards from ``remaining`` can complete a proposal of ``n`` cards showing resources
    ``union`` to one of ``lo..hi`` cards showing ``vmin..vmax`` different resources (a small
    dynamic programme over (resources shown, cards) pairs, stopping at the first complete one)."""
    if n >= lo and vmin <= union.bit_count() <= vmax:
        return True
    reach = {(union, n)}
    shows = game.shows
    for c in remaining:
        m = shows[c][GREEN]
        added = {(u | m, k + 1) for u, k in reach if k < hi and (u | m).bit_count() <= vmax}
        if any(k >= lo and vmin <= u.bit_count() for u, k in added):
            return True
        reach |= added
    return False


@task("prepare")
def prepare(state) -> None:
    """The active seat proposes the mission: ``lo..hi`` market cards (1 to the number of players,
    or a mission_size rule's limits; all of the market if it holds fewer than the minimum), within
    a resource_variety rule's limits unless no proposal meets them."""
    rules, market, game = state.rules, state.market, state.game
    lo = min(rules.min_size, len(market))
    hi = min(max(rules.max_size, lo), len(market))
    vmin, vmax = rules.variety_min, rules.variety_max
    if (vmin, vmax) != (0, 4) and not completable(game, 0, 0, market, lo, hi, vmin, vmax):
        vmin, vmax = 0, 4
        state.count("variety rule waived")
    state.push(("proposed",))
    legal = _propose_legal(state, state.active, lo, hi, vmin, vmax)
    if legal != [PASS]:
        state.ask("propose", state.active, lo, hi, vmin, vmax, legal=legal)


def _propose_legal(state, seat: int, lo: int, hi: int, vmin: int, vmax: int) -> list[int]:
    game, chosen, market = state.game, state.mission, state.market
    n = len(chosen)
    out = []
    if n < hi:
        if (vmin, vmax) == (0, 4):
            out = [CARD + c for c in market]
        else:
            union = _green_shows(state, chosen)
            for c in market:
                rest = [x for x in market if x != c]
                if completable(game, union | game.shows[c][GREEN], n + 1, rest, lo, hi, vmin, vmax):
                    out.append(CARD + c)
    if state.shop_now >= 0 and state.mission_shop < 0:
        out.append(CARD + state.shop_now)
    if n >= lo and vmin <= _green_shows(state, chosen).bit_count() <= vmax:
        out.append(PASS)
    return sorted(out)


def _propose_why(state, seat: int, action: int, lo: int, hi: int, vmin: int, vmax: int):
    if action == PASS:
        return IllegalAction(Reason.WRONG_PHASE, f"the mission is not complete: it needs {lo} to {hi} cards"
                                                 + (f" showing {vmin} to {vmax} different resources" if (vmin, vmax) != (0, 4) else ""))
    card = action - CARD
    if card in state.market:
        if len(state.mission) >= hi:
            return IllegalAction(Reason.WRONG_PHASE, f"the mission may have at most {hi} cards this round")
        return IllegalAction(Reason.WRONG_PHASE, f"{state.game.card_names[card]} would break this round's limit of {vmin} to {vmax} "
                                                 "different resources on the mission's green sides")
    return None


def proposal_end(state) -> str:
    """Why this round's proposal ended by itself (``state.closed``, set by :func:`propose`), in a
    player's words: the mission is full (rulebook "Gameplay": "at most as many cards as the number
    of players", or a mission_size rule), the market ran out, or no card left keeps a
    resource_variety rule."""
    game, rules = state.game, state.rules
    _, _, _, lo, hi, vmin, vmax = state.closed
    if len(state.mission) >= hi:
        if hi == max(rules.max_size, lo) and "mission_size" in rules.kinds:
            return f"the mission is full ({_rule_card(state, 'mission_size')})"
        if hi == rules.max_size:
            return (f"the mission is full (a mission has at most as many cards as there are players: "
                    f"{hi} with {game.players} players)")
        return f"the mission holds every card the market had ({hi})"
    if not state.market:
        return "the market is empty"
    card = _rule_card(state, "resource_variety")
    return (f"no market card left keeps the mission's green sides within {vmin} to {vmax} different resources "
            f"({card})")


def _rule_card(state, kind: str) -> str:
    """The last Master card in force this round with a rule of ``kind``, as ``master-16: "its rule"``."""
    game = state.game
    cards = ([state.master_now] if state.master_now >= 0 else []) + state.played_masters
    found = [c for c in cards if game.master_rule[c]["kind"] == kind]
    if not found:
        return "this round's Master rule"
    return f'{game.card_names[found[-1]]}: "{effect_text(game.master_rule[found[-1]])}"'


@decision("propose", "propose", "card", "to propose a market card for the mission (or done)", _propose_legal, _propose_why, "done")
def propose(state, seat: int, action: int, lo: int, hi: int, vmin: int, vmax: int) -> None:
    """Add a market card (or the shop card, Gadget Shopping) to the mission; "done" ends the
    proposal, which also ends by itself when nothing more may be added."""
    if action == PASS:
        return
    card = action - CARD
    if card == state.shop_now:
        state.mission_shop, state.shop_now = card, -1
        state.push(("reveal_shop",))
    else:
        state.market.remove(card)
        state.mission.append(card)
    legal = _propose_legal(state, seat, lo, hi, vmin, vmax)
    if legal != [PASS]:
        state.ask("propose", seat, lo, hi, vmin, vmax, legal=legal)
    else:  # ended by itself: a "done" said right after it is an announcement (rules/maybe_missions/aloud.py)
        state.closed = (state.round_no, seat, len(state.history), lo, hi, vmin, vmax)


@task("proposed")
def proposed(state) -> None:
    """Refill the market after the proposal."""
    state.count("cards proposed", len(state.mission))
    state.push(("refill_market",))


# -- (3) vote ------------------------------------------------------------------------------------
@task("vote")
def vote(state) -> None:
    """Every seat with votes plays ``votes`` of them (one, or a votes_per_player rule's number; all
    it holds if fewer).  Secret voting: all seats that do not vote late submit at once, hidden,
    then all are revealed; seats with vote_last or copy_neighbour then vote one at a time, seeing
    the revealed votes.  Open voting: one at a time, face up, from the active seat clockwise,
    late voters last."""
    rules = state.rules
    state.need = [min(rules.votes, len(h)) for h in state.hands]
    order = state.clockwise(state.active)
    voters = [s for s in order if state.need[s]]
    late = tuple(s for s in voters if state.powers(s).votes_late)
    early = [s for s in voters if s not in late]
    state.push(("vote_late", late), ("renumber",))
    if rules.open_voting:
        state.push(*(("vote_open", s) for s in early))
    elif early:
        state.ask_all("secret_vote", tuple(sorted(early)))


def required_type(state, seat: int, explain: bool = True) -> tuple[int, str]:
    """The vote type ``seat`` must play now if it can (-1: any), and why in words (``""`` when not
    ``explain``: the legal votes need only the type).  A Master card's forced_vote wins over
    identity powers (vocabulary, PRECEDENCE)."""
    rules, game = state.rules, state.game
    if rules.forced >= 0:
        return rules.forced, "this round's Master rule"
    powers = state.powers(seat)
    if powers.copy:
        neighbour = (seat + powers.copy) % game.players
        for s, n in zip(state.t_seat, state.t_num):
            if s == neighbour:
                return game.vote_type[n], f"its public identity copies seat {neighbour}" if explain else ""
    if powers.forced_when:
        shows = _green_shows(state, state.mission)
        for mask, vote_type in powers.forced_when:
            if shows & mask:
                return vote_type, _forcing_resource(state, seat, mask) if explain else ""
    return -1, ""


def _forcing_resource(state, seat: int, mask: int) -> str:
    """Why ``seat``'s public identity (resource_forces_vote: "If a proposed card's green side shows
    ``resource``, you must vote ``vote`` if you can") forces its vote, naming the resource and the
    mission cards whose green side shows it."""
    game = state.game
    resource = RESOURCES[mask.bit_length() - 1]
    cards = [game.card_names[c] for c in state.mission if game.shows[c][GREEN] & mask]
    return (f"its public identity, {game.public_names[state.public_id[seat]]}: the mission shows {resource}, "
            f"on the green side of {' and '.join(cards)}")


def legal_votes(state, seat: int) -> list[int]:
    """The votes ``seat`` may play now: its hand, narrowed to the required type when it holds any."""
    hand = state.hands[seat]
    want, _ = required_type(state, seat, explain=False)
    if want >= 0:
        types = state.game.vote_type
        typed = [n for n in hand if types[n] == want]
        if typed:
            return sorted(typed)
    return sorted(hand)


def _vote_why(state, seat: int, action: int, *args):
    if action in state.hands[seat]:
        want, why = required_type(state, seat)
        return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} must vote {('NO', 'YES')[want]} this round ({why}) and holds such a vote")
    return None


def _table_add(state, seat: int, number: int) -> None:
    state.t_seat.append(seat)
    state.t_num.append(number)
    state.t_eff.append(number + state.powers(seat).shift)


@decision("secret_vote", "vote", "vote", "to vote (in secret)", lambda state, seat: legal_votes(state, seat), _vote_why, simultaneous=True)
def secret_vote(state, submissions: dict[int, int]) -> None:
    """The submitted votes lie face down; seats that owe more votes submit again; then all are
    revealed at once, in turn order from the active seat."""
    for seat, number in submissions.items():
        state.hands[seat].remove(number)
        state.face_down[seat].append(number)
        state.need[seat] -= 1
    still = tuple(s for s in sorted(submissions) if state.need[s])
    if still:
        state.ask_all("secret_vote", still)
        return
    for seat in state.clockwise(state.active):
        for number in state.face_down[seat]:
            _table_add(state, seat, number)
        state.face_down[seat] = []


@decision("vote", "vote", "vote", "to vote (face up)", lambda state, seat: legal_votes(state, seat), _vote_why)
def open_vote(state, seat: int, action: int) -> None:
    """The vote is placed face up at once (open voting, late voters)."""
    state.hands[seat].remove(action)
    _table_add(state, seat, action)
    state.need[seat] -= 1
    if state.need[seat]:
        state.ask("vote", seat)


@task("vote_open")
def vote_open(state, seat: int) -> None:
    """``seat`` votes face up in its turn (open_voting)."""
    if state.need[seat]:
        state.ask("vote", seat)


@task("vote_late")
def vote_late(state, late: tuple[int, ...]) -> None:
    """The next late voter, in turn order from the active seat: the first that is ready (vote_last:
    every seat without vote_last has voted; copy_neighbour: the neighbour has voted), else the
    first still to vote (a copy without a vote to copy is free)."""
    remaining = [s for s in late if state.need[s]]
    if not remaining:
        return
    need, n = state.need, state.game.players

    def ready(seat: int) -> bool:
        powers = state.powers(seat)
        if powers.late:
            return all(need[t] == 0 for t in range(n) if not state.powers(t).late)
        return need[(seat + powers.copy) % n] == 0

    state.push(("vote_late", late))
    state.ask("vote", next((s for s in remaining if ready(s)), remaining[0]))


@task("renumber")
def renumber(state) -> None:
    """Seats that bought renumber_vote last round may now change their revealed votes' effective
    numbers, in turn order from the active seat."""
    if not state.renumber_now:
        return
    played = set(state.t_seat)
    state.push(*(("renumber_seat", s, state.renumber_now[s]) for s in state.clockwise(state.active)
                 if s in state.renumber_now and s in played))


@task("renumber_seat")
def renumber_seat(state, seat: int, amount: int) -> None:
    """Ask ``seat`` how much to change its votes by."""
    state.ask("renumber", seat, amount)


@decision("renumber", "renumber", "delta", "to raise or lower its votes' numbers (renumber_vote)",
          lambda state, seat, amount: [DELTA + d for d in range(-amount, amount + 1)])
def renumber_votes(state, seat: int, action: int, amount: int) -> None:
    """Every vote of the seat this round counts ``d`` higher (negative: lower); types never change."""
    d = action - DELTA
    for i, s in enumerate(state.t_seat):
        if s == seat:
            state.t_eff[i] += d


# -- (4) result -----------------------------------------------------------------------------------
def passes(test: tuple[str, int], yes: int, no: int, tie_success: bool) -> bool:
    """SUCCESS or not: the usual test (YES >= NO, or YES > NO when a tie fails), or success_margin's."""
    kind, n = test
    if kind == "yes_lead":
        return yes - no >= n
    if kind == "no_lead":
        return no - yes <= n
    return yes >= no if tie_success else yes > no


@task("result")
def result(state) -> None:
    """Tally the counted votes (vote_cutoff leaves some out), each adding its weights' product;
    decide SUCCESS; note an all-NO round and a unanimous_ends_round end.  Also tallies how often
    the Master rules' counting changed the result (against every vote counted once, with the
    identities' weights, under the usual test)."""
    game, rules = state.game, state.rules
    types = game.vote_type
    above, below = rules.cutoff_above, rules.cutoff_below
    yes = no = plain_yes = plain_no = 0
    counted = []
    for seat, number, eff in zip(state.t_seat, state.t_num, state.t_eff):
        t = types[number]
        own = state.powers(seat).weight[t]
        ok = not (above is not None and eff > above) and not (below is not None and eff < below)
        counted.append(ok)
        w = own * rules.weight[t] * (rules.active_weight if seat == state.active else 1) if ok else 0
        if t == YES:
            yes, plain_yes = yes + w, plain_yes + own
        else:
            no, plain_no = no + w, plain_no + own
    state.t_counted = counted
    state.success = passes(rules.test, yes, no, game.tie_success)
    kinds = {types[n] for n, ok in zip(state.t_num, counted) if ok}
    state.exceptional = kinds == {NO}
    state.unanimous = rules.unanimous_ends and len(kinds) == 1
    state.count("rounds")
    state.count("successes", state.success)
    state.count("all-NO rounds", state.exceptional)
    state.count("rounds ended by unanimity", state.unanimous)
    changed = state.success != passes(("usual", 0), plain_yes, plain_no, game.tie_success)
    for names in rules.tallies:
        state.count(names.succeeded, state.success)
        if names.changed is not None:
            state.count(names.changed, changed)


@task("after_voting")
def after_voting(state) -> None:
    """After-voting effects of the Master rules (none in a round ended by unanimity)."""
    if not state.unanimous:
        state.push(*state.rules.after)


# -- (6) collect ----------------------------------------------------------------------------------
def collecting_turns(state) -> list[tuple[int, int]]:
    """``(seat, side)`` of each collecting turn in order: each counted YES vote, low to high on
    SUCCESS (green side up), high to low on FAIL (red); reverse_collect_order turns that around;
    with no_voters_collect each counted NO vote after them, high to low, red; in an all-NO round
    every counted vote, high to low (reversed: low to high), red.  Within each part, seats with
    collect_first go first and collect_last last; blocked seats (block_collector) have no turns."""
    game, rules = state.game, state.rules
    types = game.vote_type
    counted = [i for i, ok in enumerate(state.t_counted) if ok]

    def order(indices: list[int], ascending: bool) -> list[int]:
        ordered = sorted(indices, key=lambda i: (state.t_eff[i], state.t_num[i]), reverse=not ascending)
        return sorted(ordered, key=lambda i: state.powers(state.t_seat[i]).collect_rank)

    if state.exceptional:
        parts = [(order(counted, rules.reverse), RED)]
    else:
        yes = [i for i in counted if types[state.t_num[i]] == YES]
        parts = [(order(yes, state.success != rules.reverse), GREEN if state.success else RED)]
        if rules.no_voters_collect:
            parts.append((order([i for i in counted if types[state.t_num[i]] == NO], False), RED))
    blocked = state.blocked
    return [(state.t_seat[i], side) for indices, side in parts for i in indices if state.t_seat[i] not in blocked]


@task("collect")
def collect(state) -> None:
    """Queue every collecting turn, then the collect_extra turns bought this round."""
    if state.unanimous:
        return
    extra_side = GREEN if state.success else RED
    state.push(*(("collect_turn", s, side) for s, side in collecting_turns(state)),
               *(("collect_turn", s, extra_side) for s in state.extra))


def _collect_options(state, seat: int, side: int) -> list[int]:
    options = [CARD + c for c in state.mission if can_take(state, seat, c, side)]
    if state.mission_shop >= 0:
        options.append(CARD + state.mission_shop)
    return sorted(options)


@task("collect_turn")
def collect_turn(state, seat: int, side: int) -> None:
    """One collecting turn: nothing when the mission is empty (rulebook "Remark") or every card left
    is forbidden to the seat (forbidden_resource)."""
    options = _collect_options(state, seat, side)
    if options:
        state.ask("collect", seat, side, legal=options)


def _collect_why(state, seat: int, action: int, side: int):
    card = action - CARD
    if card in state.mission and not can_take(state, seat, card, side):
        return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} may not collect {state.game.card_names[card]}: its "
                                                 f"{('green', 'red')[side]} side shows a resource its public identity forbids")
    return None


@decision("collect", "collect", "card", "to collect a card of the mission", _collect_options, _collect_why)
def collect_card(state, seat: int, action: int, side: int) -> None:
    """The mission card goes to the seat's collection with ``side`` up; the shop card (Gadget
    Shopping) becomes the seat's personal shop."""
    card = action - CARD
    if card == state.mission_shop:
        state.shops[seat].append(card)
        state.mission_shop = -1
    else:
        state.mission.remove(card)
        state.give_card(seat, card, side)
    state.got_card[seat] = True
    state.count("cards collected")


@task("award_master")
def award_master(state) -> None:
    """"The active player always wins the Master Card" (green side up on SUCCESS, red on FAIL),
    except in an all-NO round ("The Master Card is not won") and a round ended by unanimity."""
    card = state.master_now
    if card < 0:
        state.award = (state.round_no, state.active, -1, NO_MASTER)
        return
    state.master_now = -1
    if state.exceptional or state.unanimous:
        state.master_discard.append(card)
        state.award = (state.round_no, state.active, card, ALL_NO if state.exceptional else UNANIMOUS)
    else:
        side = GREEN if state.success else RED
        state.give_card(state.active, card, side)
        state.got_card[state.active] = True
        state.award = (state.round_no, state.active, card, side)


# -- (7) end --------------------------------------------------------------------------------------
@task("round_end")
def round_end(state) -> None:
    """Round-end effects, then clear the table, the variant's redraws, and the next active seat."""
    if state.rules.end:
        state.shown = {}
    state.push(*state.rules.end, ("clear_table",), *(("offer_redraw", s) for s in state.clockwise(state.active)
                                                     if state.game.reduce_randomness), ("next_active",))


@task("clear_table")
def clear_table(state) -> None:
    """Played votes are discarded (or go to the hand of a take_played_votes buyer); mission cards
    nobody collected, an uncollected shop card and played Master cards are discarded."""
    takers = {number: seat for seat, number in state.take_back}
    for number in state.t_num:
        if number in takers:
            state.hands[takers[number]].append(number)
        else:
            state.vote_discard.append(number)
    state.t_seat, state.t_num, state.t_eff, state.t_counted = [], [], [], []
    state.mission_discard.extend(state.mission)
    state.mission = []
    if state.mission_shop >= 0:
        state.shop_discard.append(state.mission_shop)
        state.mission_shop = -1
    state.master_discard.extend(state.played_masters)
    state.played_masters = []


@task("offer_redraw")
def offer_redraw(state, seat: int) -> None:
    """Reduce-randomness variant (rulebook "Variants"): a seat that collected no card this round
    may discard 2 votes to draw new ones "from the deck": the discarded votes (``redraw_from:
    discards``, the default) or the votes not dealt (``box``)."""
    pile = state.box if state.game.redraw_from_box else state.vote_discard
    if not state.got_card[seat] and len(state.hands[seat]) >= 2 and pile:
        state.ask("redraw", seat, -1)


@decision("redraw", "redraw", "vote", "to discard a vote and draw a new one, or not (none)",
          lambda state, seat, first: sorted(state.hands[seat]) + ([PASS] if first < 0 else []))
def redraw(state, seat: int, action: int, first: int) -> None:
    """The first chosen vote is discarded and a second is asked for; then two votes are drawn
    (from the discards, the seat's own two joining them after it draws; or from the box)."""
    if action == PASS:
        return
    state.hands[seat].remove(action)
    if state.game.redraw_from_box:
        state.vote_discard.append(action)
    else:
        state.redraw_held.append(action)
    if first < 0:
        state.ask("redraw", seat, action)
    else:
        state.count("redraws")
        if state.game.redraw_from_box:
            state.push(("draw_votes", seat, 2))
        else:
            state.push(("redraw_votes", seat, 2), ("release_redrawn",))


@task("redraw_votes")
def redraw_votes(state, seat: int, n: int) -> None:
    """``seat`` draws ``n`` votes from the discarded votes, fewer if there are not enough."""
    if n > 0 and state.vote_discard:
        state.push(("redraw_votes", seat, n - 1))
        state.draw("redraw", seat)


@chance("redraw", "vote", ("seat",), lambda state, seat: uniform(state.vote_discard),
        possible=lambda state, action, seat: action in state.vote_discard)
def vote_redrawn(state, action: int, seat: int) -> None:
    """``seat`` draws a discarded vote (reduce randomness, ``redraw_from: discards``)."""
    state.vote_discard.remove(action)
    state.hands[seat].append(action)


@task("release_redrawn")
def release_redrawn(state) -> None:
    """The two votes the seat discarded join the discards once it has drawn."""
    state.vote_discard.extend(state.redraw_held)
    state.redraw_held = []


@task("next_active")
def next_active(state) -> None:
    """The next seat clockwise becomes active (or the one a become_active/choose_active reward
    named); next-round rewards (renumber_vote, choose_master) come due."""
    n = state.game.players
    state.active = state.next_active if state.next_active >= 0 else (state.active + 1) % n
    state.next_active = -1
    state.renumber_now, state.renumber_next = state.renumber_next, {}
    state.choose_now, state.choose_next = state.choose_next, []
    state.rules = None
