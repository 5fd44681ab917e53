"""``ismcts``: an information-set Monte Carlo tree search bot for every game with an engine
(the skill signal's search bot), on the core's interfaces only: no game-specific code.

Each decision runs a budget of iterations (single-observer ISMCTS, Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).  An iteration:

1. **determinises**: the seat's view samples a full state consistent with what the seat sees
   (:meth:`~deckpress.rules.core.game.View.sample_state`: the hidden cards dealt again at random);
2. **selects** down the tree by UCB1 among the actions legal in that state, each child's count of
   availability standing in for its parent's visits (the ISMCTS form of UCB), the seat of each
   tree node being the seat that acts there; chance events are sampled, not branched on.  In a
   simultaneous step every seat due chooses from the same node's statistics of its own actions
   (decoupled UCT: Lanctot, Lisy and Winands, "Monte Carlo Tree Search in Simultaneous Move
   Games with Applications to Goofspiel", CGW 2013), so no seat's choice in the tree depends on
   another's hidden one; the tree goes on below the joint choice;
3. **expands** one untried action, then **rolls out** with the fast default policy (uniformly
   random legal actions) to the end of the game, bounded by ``game.max_length()``;
4. **backs up** each seat's reward to the nodes where that seat acted: 1 for a win (shared
   equally by tied winners), else 0; in a cooperative game, the team's result scaled to 0..1 by
   ``game.score_range()``; a rollout cut off by the bound counts its scaled returns.

**Prior knowledge.**  Where the game has a heuristic bot (``greedy``), its choice at a node guides the
search: that action is expanded first and keeps a progressive bias of ``PRIOR_WEIGHT /
sqrt(visits + 1)`` in UCB1 (Chaslot et al., "Progressive Strategies for Monte-Carlo Tree Search",
New Mathematics and Natural Computation 4(3), 2008), so that with a small budget the search
departs from the heuristic only where its roll-outs show a better action.  Measured in 2026-11
with one ``ismcts:100`` seat against ``greedy`` seats, before and after these two
changes: two-seat Mission Emission 64 % and 69 % of 100 games (after, over 400 games with the
search bot in every seat in turn: 59 %, ``benchmarks/skill.py``); Geheime Mission 15 % and 51 % of
100 (after, in every seat in turn: 44 % of 150).  Three-seat Maybe Missions, after, with the search bot in each seat in turn (seat 0 alone
favours greedy too, some 40 % of all-greedy games): 42 % of 150 (95 % interval 34-50 %; an even
share is 33 %), but 35 % of 150 with the next seed (28-43 %): 38.5 % of the 300 (33.2-44.1 %), not
told apart from even; over 450 games with a third seed (11), 41.4 % (37.0-46.0 %), told apart
(``benchmarks/skill.py --only maybe-missions --games 450 --seed 11``, 2026-11-26, 12 minutes on two
cores: too long for a test).  In Geheime Mission neither a larger budget (``ismcts:400``, 52 % of 100) nor
greedy roll-outs nor a reward for the suitcase margin (50-54 % of 100) moved it past greedy,
which itself beats random bots in 99 % of games; nor did modelling the other seat as greedy in the
tree, with greedy roll-outs (``ismcts:50``, 51 % of 150, 2026-11-26).  In two-seat 50 Missions the
same search (the partner played as greedy in the tree, greedy roll-outs, ``ismcts:50``) completed
19.4 missions a game against 20.1 with both seats greedy over the same 100 seeds (gain 95 %: -3.1
to +1.8; 2026-11-26).  The bot that beats greedy on a small budget in 50 Missions and Maybe Missions is
:mod:`~deckpress.rules.core.rollout` (greedy improved by short roll-outs, every action compared on
the same determinisations).

The action played is the most visited child of the root among the legal actions.  Every random
choice is drawn from the game's seeded generator, so a game with ismcts seats is reproduced from
its seed like any other.  ``ismcts`` has 100 iterations a decision; ``ismcts:N`` has N.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

from deckpress.rules.core.bots import search_budget
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.game import ANY, CHANCE, SIMULTANEOUS, TERMINAL, State, View

if TYPE_CHECKING:
    from deckpress.rules.core.bots import Bot

#: Iterations a decision of the plain ``ismcts`` bot.
DEFAULT_ITERATIONS = 100
#: Most iterations ``ismcts:N`` accepts (a decision stays within seconds).
MAX_ITERATIONS = 100_000
#: UCB1's exploration constant for rewards in 0..1 (the value Cowling et al. use, 0.7).
EXPLORATION = 0.7
#: Weight of the heuristic bot's choice in UCB1 (progressive bias, fading as its visits grow).
PRIOR_WEIGHT = 1.0


class _Node:
    """A tree node: the action that led here, the seat that took it, visits, summed reward,
    and how often it was available when its parent was visited."""

    __slots__ = ("seat", "visits", "reward", "available", "children", "hints")

    def __init__(self, seat: int):
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[tuple, _Node] = {}  # (seat, action) -> node; (SIMULTANEOUS, joint choice) -> node below it
        self.hints: dict[int, int] = {}  # seat -> the heuristic bot's action for that seat here


class IsmctsBot:
    """The search bot.  ``iterations``: determinised searches a decision (1 to
    :data:`MAX_ITERATIONS`); ``prior``: the game's heuristic bot, whose choices guide the search
    (see the module docstring), or None.

    Raises:
        ParameterError: iterations out of range.
    """

    uses_view = True

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, prior: Bot | None = None):
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ParameterError(f"ismcts:{iterations}: the iterations a decision are 1 to {MAX_ITERATIONS:,}")
        self.iterations = iterations
        self.prior = prior
        self.name = "ismcts" if iterations == DEFAULT_ITERATIONS else f"ismcts:{iterations}"

    @property
    def summary(self) -> str:
        """What ``deckpress describe`` says of this bot, in a player's words."""
        guide = ", guided by the game's greedy bot" if self.prior is not None else ""
        return (f"Information-set Monte Carlo tree search: {self.iterations} searches a decision, each on a state sampled "
                f"from what the seat sees{guide} (ismcts:N for N searches, 1 to {MAX_ITERATIONS:,}).")

    def act(self, view: View, legal: Sequence[int], rng: Any) -> int:
        """The legal action the search visited most (the first of ``legal`` on a tie); a single
        legal action is played without searching."""
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        game = view.game
        limit = game.max_length()
        low, high = game.score_range()
        cooperative = game.info.cooperative
        root = _Node(seat)
        for _ in range(self.iterations):
            state = view.sample_state(rng)
            path = [root]
            node = root
            actions = 0
            expanded = False
            # selection and expansion
            while state.current != TERMINAL and actions <= limit:
                if state.current == SIMULTANEOUS:  # decoupled: each seat due chooses from this node alone
                    joint = []
                    for mover in state.acting_seats():
                        action, child, new = self._choose(node, state, mover, rng)
                        expanded = expanded or new
                        joint.append((mover, action))
                        path.append(child)
                    for mover, action in joint:
                        state.apply_trusted(action, mover)
                        actions += 1
                    key = (SIMULTANEOUS, tuple(joint))  # the tree goes on below the joint choice
                    below = node.children.get(key)
                    if below is None:
                        below = node.children[key] = _Node(SIMULTANEOUS)
                    node = below
                    if expanded:
                        break
                    continue
                # the root is this seat's decision, also where any of several seats may act
                mover = seat if node is root and seat in state.acting_seats() else next_mover(state, rng)
                if mover == CHANCE:
                    state.apply_trusted(state.sample_chance(rng.random()), CHANCE)
                    actions += 1
                    continue
                action, child, expanded = self._choose(node, state, mover, rng)
                state.apply_trusted(action, mover)
                actions += 1
                path.append(child)
                node = child
                if expanded:
                    break
            # roll-out with the default policy
            while state.current != TERMINAL and actions <= limit:
                mover = next_mover(state, rng)
                if mover == CHANCE:
                    state.apply_trusted(state.sample_chance(rng.random()), CHANCE)
                else:
                    options = state._legal_actions(mover)
                    state.apply_trusted(options[int(rng.random() * len(options))], mover)
                actions += 1
            rewards = _rewards(state, cooperative, low, high)
            for visited in path[1:]:
                visited.visits += 1
                visited.reward += rewards[visited.seat]
        best, most = legal[0], -1
        for a in legal:
            tried = root.children.get((seat, a))
            if tried is not None and tried.visits > most:
                best, most = a, tried.visits
        return best

    def _choose(self, node: _Node, state: State, mover: int, rng: Any) -> tuple[int, _Node, bool]:
        """``mover``'s action at ``node`` in ``state``: the heuristic bot's choice if untried,
        else an untried action at random (either expands the tree: the third value is True),
        else the best by UCB1 with the heuristic's bias.  Every legal action's availability
        counts."""
        options = state._legal_actions(mover)
        hint = node.hints.get(mover)
        if hint is None and self.prior is not None and len(options) > 1:
            hint = node.hints[mover] = self.prior.act(state.view(mover), options, rng)
        untried = []
        for a in options:
            child = node.children.get((mover, a))
            if child is None:
                untried.append(a)
            else:
                child.available += 1
        if untried:
            action = hint if hint in untried else untried[int(rng.random() * len(untried))]
            child = node.children[(mover, action)] = _Node(mover)
            child.available = 1
            return action, child, True
        action, child = _ucb(node, mover, options, hint, rng)
        return action, child, False


def next_mover(state: State, rng: Any) -> int:
    """Who acts next in ``state``: a seat, or :data:`CHANCE`.  In a simultaneous step the first
    seat still due; where any of several seats may act, one drawn uniformly (as the simulation
    driver does)."""
    cur = state.current
    if cur >= 0 or cur == CHANCE:
        return cur
    seats = state.acting_seats()
    if cur == SIMULTANEOUS:
        return seats[0]
    if cur == ANY:
        return seats[int(rng.random() * len(seats))]
    return cur


def _ucb(node: _Node, mover: int, options: Sequence[int], hint: int | None, rng: Any) -> tuple[int, _Node]:
    """The child of ``node`` among ``options`` (all tried) with the highest UCB1 value for the
    seat that chooses it, the heuristic's ``hint`` with its progressive bias; equal values are
    broken at random (in a simultaneous step, seats breaking ties alike would always pick the
    same door as each other)."""
    best: list[int] = []
    best_value = -math.inf
    for a in options:
        child = node.children[(mover, a)]
        value = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits) if child.visits else math.inf
        if a == hint:
            value += PRIOR_WEIGHT / math.sqrt(child.visits + 1)
        if value > best_value:
            best, best_value = [a], value
        elif value == best_value:
            best.append(a)
    action = best[0] if len(best) == 1 else best[int(rng.random() * len(best))]
    return action, node.children[(mover, action)]


def _rewards(state: State, cooperative: bool, low: float, high: float) -> list[float]:
    """Each seat's reward in 0..1 for the end of a roll-out (see the module docstring)."""
    scores = state.returns()
    span = (high - low) or 1.0
    if cooperative or state.current != TERMINAL:
        return [min(1.0, max(0.0, (s - low) / span)) for s in scores]
    winners = state.winners()
    share = 1.0 / len(winners) if winners else 0.0
    return [share if s in winners else 0.0 for s in range(len(scores))]


def ismcts_bot(name: str, prior: Bot | None = None) -> IsmctsBot | None:
    """The bot a name asks for: ``ismcts`` or ``ismcts:N``, guided by ``prior`` (the game's
    heuristic bot); None for another name.

    Raises:
        ParameterError: ``ismcts:`` followed by something that is not a number in range.
    """
    iterations = search_budget(name, "ismcts", DEFAULT_ITERATIONS, "the iterations a decision", 200)
    return None if iterations is None else IsmctsBot(iterations, prior)
