"""``rollout``: the game's heuristic bot improved by Monte Carlo roll-outs, for every game with an
engine (a bot stronger than ``greedy``), on the core's interfaces only.

A decision with two legal actions or more, for each of ``samples`` determinisations:

1. the seat's view samples a full state consistent with what the seat sees
   (:meth:`~deckpress.rules.core.game.View.sample_state`), as :mod:`~deckpress.rules.core.ismcts` does;
2. every legal action is applied to a copy of that state, and the heuristic bot (``greedy``)
   plays every seat from there for :data:`HORIZON` actions (chance events included), or to the
   end if sooner.  Every action's roll-out starts from the same state of the game's generator, so
   the chance events and tie-breaks after each action are drawn alike as far as the games allow
   (common random numbers): the actions are compared on the same luck;
3. the state reached is scored for the seat: in a cooperative game the team's result, scaled to
   0..1 by ``game.score_range()``; in a competitive one the seat's margin over the best other
   seat (``returns()``: points, suitcases, score so far), in the same scale.

The action with the highest total is played: the heuristic bot's own choice, unless another
action scored strictly more.  This is the roll-out algorithm (Tesauro and Galperin, "On-line Policy
Improvement using Monte-Carlo Search", NIPS 9, 1997; truncated roll-outs: Bertsekas, Tsitsiklis and
Wu, "Rollout Algorithms for Combinatorial Optimization", Journal of Heuristics 3, 1997) on
determinised states ("perfect information Monte Carlo": Ginsberg, "GIB: Imperfect Information in
a Computationally Challenging Game", JAIR 14, 2001; Long, Sturtevant, Buro and Furtak, AAAI 2010).

Why short roll-outs: a whole game played on from a decision varies far more than one action
changes it, so full-length roll-outs choose among actions nearly at random.  Measured 2026-11-26
with ``benchmarks/skill.py --bot rollout`` (150 games, seed 5, one ``rollout`` seat against
``greedy`` seats, the search bot in every seat in turn):

* two-seat Mission Emission: 74.7 % of games won (95 % 67.2-81.0 %; even share 50 %);
* three-seat Maybe Missions: 49.5 % (41.6-57.4 %; even share 33.3 %);
* two-seat 50 Missions: 25.14 missions a game against 20.02 with both seats greedy (gain 95 %:
  +2.69 to +7.55); ``rollout:8`` (a third of the cost) gains less but as surely: 240 games
  with seeds 1, 2, 3 and 5 gave +2.47 to +3.09, each interval from at least +0.67;
* Geheime Mission: 50.3 % (42.4-58.2 %), not told apart from greedy: its doors are a guessing game
  the heuristic already plays at its equilibrium, and no roll-out found a better agent to play
  (:mod:`~deckpress.rules.core.ismcts` does no better).  Measured 2026-11-26, seed 1, one
  ``rollout:8`` seat: a horizon of 5 actions 52.0 % of 300 games, 12 actions 47.7 %, 30 actions
  38.5 % (33.2-44.1 %), to the end of the game 24.0 % of 300 (19.5-29.1 %).  Longer roll-outs
  pick by noise, and a noisy pick costs much here (``greedy`` wins 99.1 % of 4,000 games against
  ``random``).  Neither chance events drawn from a stream of their own (to the end: 23.8 % of 200)
  nor 48 determinisations (12 actions: 52.0 % of 200) nor leaving greedy's choice only for an
  action better by twice its paired standard error (24 determinisations, to the end: 52.8 % of
  200) did better than greedy.  How much there is to find (``benchmarks/headroom.py``, 2026-11-26:
  200 agent decisions of greedy games, each legal agent on 400 paired roll-outs to the end, one
  half picking, the other measuring): choosing better than greedy gains +0.22 points of win
  chance a decision (95 % -0.04 to +0.49), against +1.92 (+0.90 to +2.93) in Mission Emission
  (100 decisions, 200 roll-outs).  At 22 such decisions a seat a game that is about 5 points of
  win share, found only with about 0.6 s of roll-outs a decision: no modest budget tells it from
  the noise.  With the other hand seen instead of dealt again, the gain is +0.61 points a decision
  (+0.18 to +1.04): part of this game's skill is reading the other hand from its plays (greedy
  keeps its strong agents), which a uniform re-deal of the unseen agents cannot do.  Even seeing
  it is not enough at a modest budget: ``rollout:24`` given the real other hand (only the pile
  unknown) won 53.7 % of 300 games (95 % +-5.6) with a horizon of 20 actions and 48.8 % with
  roll-outs to the end.

Trials on the way (the same day, 100-300 games each): in 50 Missions, greedy roll-outs to the end
of the game (8 determinisations) completed 4 to 6 missions *fewer* than greedy, a horizon of 12
actions about 1 more, 8 actions with 16 determinisations about 3 more; the same short greedy
roll-outs inside :mod:`~deckpress.rules.core.ismcts`'s tree gained nothing (50 Missions -1.5
missions, Maybe Missions 30 % of 60): a tree spreads its iterations unevenly over the actions,
each on its own luck, where this bot compares every action on the same determinisations.

Every random choice comes from the game's seeded generator, so a game with ``rollout`` seats is
reproduced from its seed like any other.  ``rollout`` has :data:`DEFAULT_SAMPLES` determinisations a
decision; ``rollout:N`` has N.  A decision costs about ``samples x legal actions x HORIZON``
heuristic moves.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from deckpress.rules.core.bots import search_budget
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.game import CHANCE, TERMINAL, State, View
from deckpress.rules.core.ismcts import next_mover

if TYPE_CHECKING:
    from deckpress.rules.core.bots import Bot

#: Determinisations a decision of the plain ``rollout`` bot.
DEFAULT_SAMPLES = 24
#: Most determinisations ``rollout:N`` accepts (a decision stays within seconds).
MAX_SAMPLES = 10_000
#: Actions (moves and chance events) each roll-out plays before its state is scored.
HORIZON = 5


class RolloutBot:
    """The roll-out bot.  ``samples``: determinisations a decision (1 to :data:`MAX_SAMPLES`);
    ``policy``: the bot that chooses by default and plays every seat in the roll-outs (the game's
    heuristic bot).

    Raises:
        ParameterError: samples out of range.
    """

    uses_view = True

    def __init__(self, policy: Bot, samples: int = DEFAULT_SAMPLES):
        if not 1 <= samples <= MAX_SAMPLES:
            raise ParameterError(f"rollout:{samples}: the determinisations a decision are 1 to {MAX_SAMPLES:,}")
        self.policy = policy
        self.samples = samples
        self.name = "rollout" if samples == DEFAULT_SAMPLES else f"rollout:{samples}"

    @property
    def summary(self) -> str:
        """What ``deckpress describe`` says of this bot, in a player's words."""
        return (f"Greedy improved by roll-outs: each legal action is tried on {self.samples} states sampled from what the "
                f"seat sees, then greedy plays every seat for {HORIZON} more actions; the action that scores best is played, "
                f"greedy's own unless another scores more (rollout:N for N states, 1 to {MAX_SAMPLES:,}).")

    def act(self, view: View, legal: Sequence[int], rng: Any) -> int:
        """The legal action whose roll-outs scored most, the policy's own choice unless another
        scored strictly more; a single legal action is played without a roll-out."""
        if len(legal) == 1:
            return legal[0]
        seat, game, policy = view.seat, view.game, self.policy
        default = policy.act(view, legal, rng)
        low, high = game.score_range()
        span = (high - low) or 1.0
        cooperative = game.info.cooperative
        totals = dict.fromkeys(legal, 0.0)
        last = legal[-1]  # played on the determinised state itself, the others on copies
        for _ in range(self.samples):
            determinised = view.sample_state(rng)
            luck = rng.getstate()
            for action in legal:
                rng.setstate(luck)  # common random numbers: every action's roll-out on the same draws
                state = determinised if action == last else determinised.clone()
                state.apply_trusted(action, seat)
                play_on(state, policy, rng, HORIZON)
                scores = state.returns()
                if cooperative:
                    totals[action] += (scores[seat] - low) / span
                else:
                    totals[action] += (scores[seat] - max(scores[:seat] + scores[seat + 1:])) / span
        best = default
        for action in legal:
            if totals[action] > totals[best]:
                best = action
        return best


def play_on(state: State, policy: Bot, rng: Any, actions: int) -> None:
    """A roll-out: ``policy`` plays every seat of ``state`` for ``actions`` more actions (chance
    events included, drawn from ``rng``), or to the end of the game if that comes first."""
    for _ in range(actions):
        if state.current == TERMINAL:
            return
        mover = next_mover(state, rng)
        if mover == CHANCE:
            state.apply_trusted(state.sample_chance(rng.random()), CHANCE)
            continue
        options = state._legal_actions(mover)
        state.apply_trusted(options[0] if len(options) == 1 else policy.act(state.view(mover), options, rng), mover)


def rollout_bot(name: str, policy: Bot) -> RolloutBot | None:
    """The bot a name asks for: ``rollout`` or ``rollout:N``, its roll-outs played by ``policy``;
    None for another name.

    Raises:
        ParameterError: ``rollout:`` followed by something that is not a number in range.
    """
    samples = search_budget(name, "rollout", DEFAULT_SAMPLES, "the determinisations a decision", 48)
    return None if samples is None else RolloutBot(policy, samples)
