"""The thresholds behind a ``deckpress check`` verdict: documented defaults, overridable by a
YAML file (``--thresholds FILE``, keys as below).

``reject`` — the variant does not work:
* its file cannot be read, breaks the schemas or the game's semantic checks, or names unknown
  parameters or bad values;
* any simulated game is cut off by the move bound (a game that does not end), or the simulation
  hits the check's time or memory limit;
* a simulated game replayed through the validating path is refused, or breaks an invariant.

``review`` — it works, but a person should look (each only when larger than the noise, i.e. the
95 % intervals of base and variant do not overlap, and larger than the threshold):
* ``seat_advantage_pp``: a seat's win rate is further than this many percentage points from a fair
  share (an equal part of the games not drawn), in a competitive game;
* ``length_ratio``: the median game length changes by this factor or more (longer or shorter);
* ``measure_change_pp``: a rate the game reports (a medal reached, an agent's fights won) moves by
  more than this many percentage points.

With ``--skill-games N`` (the skill signal, :mod:`deckpress.rules.core.skill`), also ``review``:

* ``skill_drop_points``: the variant makes skill matter less: the skill signal is more than this
  many points below the base's.  In a competitive game the signal is the win share of one
  ``ismcts`` seat against ``greedy`` seats (percentage points); in a cooperative game, the team's
  gain from one ``ismcts`` seat over all-greedy seats, as a share of the game's result range
  (50 Missions: 1 mission of 50 is 2 points), so one threshold serves every game.  Unlike the
  others it is not weighed against the noise (a few hundred games with a search bot take
  minutes, and their interval is wide), and it may be 0 or negative (a negative value sends
  every variant with a skill signal to review).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path

from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.safetext import quoted
from deckpress.generator.content.yamlsafe import load_yaml


@dataclass(frozen=True)
class Thresholds:
    """Verdict thresholds (see the module docstring)."""

    seat_advantage_pp: float = 5.0
    length_ratio: float = 2.0
    measure_change_pp: float = 15.0
    skill_drop_points: float = 10.0


#: Thresholds that may be 0 or negative (the others must be positive).
ANY_SIGN = frozenset({"skill_drop_points"})


def load_thresholds(path: Path) -> tuple[Thresholds | None, list[ContentError]]:
    """Thresholds from a YAML mapping of the keys above to numbers (others keep their default)."""
    doc, errors = load_yaml(path, max_bytes=10_000)
    if doc is None:
        return None, errors
    known = {f.name for f in fields(Thresholds)}
    if not isinstance(doc.data, dict):
        return None, [doc.error((), f"expected a mapping of thresholds ({', '.join(sorted(known))})")]
    values = {}
    for key, value in doc.data.items():
        if key not in known:
            errors.append(doc.error((key,), f"unknown threshold '{key}' (known: {', '.join(sorted(known))})", key=True))
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            errors.append(doc.error((key,), f"{key}: expected a {'' if key in ANY_SIGN else 'positive '}number, got {quoted(value)}"))
        elif value <= 0 and key not in ANY_SIGN:
            errors.append(doc.error((key,), f"{key}: expected a positive number, got {quoted(value)}"))
        else:
            values[key] = float(value)
    return (None, errors) if errors else (replace(Thresholds(), **values), [])
