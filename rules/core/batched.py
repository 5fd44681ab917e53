"""What every batched engine shares (:meth:`Game.batched`; ``rules/README.md``, "A batched
engine"): the refusal of bots it does not play, and a played run counted as the reference
engine's simulation counts games.  NumPy is imported here, and this module only by the batched
engines, which their games import when asked for one: the reference engines never load NumPy."""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.simulate import Tally


def require_random(bots: Sequence[str]) -> None:
    """Accept ``bots`` when every one is ``random``, the only bot the batched engines play (a bot
    that reads the cards would break their uniform choices).

    Raises:
        ParameterError: naming the other bots.
    """
    others = sorted({b for b in bots if b != "random"})
    if others:
        raise ParameterError(f"the batched engine plays random bots only, not {', '.join(others)}")


def tally_of(run: Any, players: int, team_won: np.ndarray | None = None) -> Tally:
    """A played run as a :class:`~deckpress.rules.core.simulate.Tally`, counted as ``Tally.add``
    counts the reference engine's games.

    ``run`` holds per-game arrays, by game number (``G`` games, ``n`` seats): ``finished[G]``
    (False: cut off by the move bound, counted in ``cut_off`` only), ``scores[G, n]`` (each
    seat's :meth:`State.returns`), ``moves[G]`` (seat moves), ``actions[G]`` (chance events
    included), ``decisions[G]`` (moves with more than one legal action), and ``events(done)``,
    the game's own counts (:meth:`State.tally`) summed over the finished games ``done[G]``.

    A competitive game (``team_won`` None) counts wins alone, shared best results and draws from
    the scores, as :meth:`State.winners` gives them; a cooperative game counts the games the team
    won (``team_won[G]``) and the histogram of the team's result, ``scores[:, 0]``.
    """
    done = run.finished
    tally = Tally(players, cooperative=team_won is not None)
    tally.games = int(done.sum())
    tally.cut_off = len(done) - tally.games
    scores, moves = run.scores[done], run.moves[done]
    tally.score_sums = [float(s) for s in scores.sum(axis=0)]
    if team_won is None:
        at_best = scores == scores.max(axis=1)[:, None]
        alone = at_best.sum(axis=1) == 1
        tally.wins = np.bincount(scores[alone].argmax(axis=1), minlength=players).tolist()
        tally.shared = at_best[~alone].sum(axis=0).tolist()
        tally.draws = int((~alone).sum())
    else:
        tally.team_wins = int(team_won[done].sum())
        tally.team_results = Counter(scores[:, 0].astype(float).tolist())
    tally.lengths = Counter(moves.tolist())
    tally.moves = int(moves.sum())
    tally.actions = int(run.actions[done].sum())
    tally.decisions = int(run.decisions[done].sum())
    tally.events = run.events(done)
    return tally
