"""The verdict of a checked variant (stage 7 of :mod:`deckpress.generator.check`):
``reject``, ``review`` or ``accept`` with its reasons, from the simulation and skill figures
against :class:`~deckpress.generator.check.thresholds.Thresholds`; and the skill signal in words."""
from __future__ import annotations

from typing import Any

from deckpress.generator.check.outcome import CheckReport
from deckpress.generator.check.thresholds import Thresholds


def verdict(report: CheckReport, t: Thresholds, engine) -> tuple[str, list[str]]:
    """``reject``, ``review`` or ``accept`` with the reasons, from the simulation figures."""
    sim = report.simulation
    if sim is None:
        return "accept", ["well-formed; not simulated, so its balance is unknown"]
    base, var = sim["base"], sim["variant"]
    rejects = []
    if var["cut_off_by_move_bound"]:
        rejects.append(f"{var['cut_off_by_move_bound']} of {var['games_requested']} variant games did not end within the move bound of {var['move_bound']} actions")
    rejects += [f"validating replay: {p}" for p in sim["validated"]]
    if rejects:
        return "reject", rejects
    reviews = []
    if not engine.info.cooperative and var["games"]:
        fair = (1 - (var["draw_rate"] or 0)) / len(var["seats"])  # an equal part of the games not drawn
        for seat in var["seats"]:
            gap = 100 * (seat["win_rate"] - fair)
            low, high = seat["win_rate_95"]
            if abs(gap) > t.seat_advantage_pp and not (low <= fair + t.seat_advantage_pp / 100 and high >= fair - t.seat_advantage_pp / 100):
                reviews.append(f"seat {seat['seat']} wins {100 * seat['win_rate']:.1f} % of games against a fair share of {100 * fair:.1f} % "
                               f"(an equal part of the {100 * (1 - (var['draw_rate'] or 0)):.1f} % not drawn; more than {t.seat_advantage_pp:g} points beyond the noise)")
    lb, lv = base["length_in_moves"].get("p50"), var["length_in_moves"].get("p50")
    if lb and lv and (lv / lb >= t.length_ratio or lb / lv >= t.length_ratio):
        reviews.append(f"the median game length changes from {lb} to {lv} moves (a factor of {t.length_ratio:g} or more)")
    for d in sim["differences"]:
        if d["significant"] and d["delta"] is not None and ":" in d["what"] and abs(100 * d["delta"]) > t.measure_change_pp:
            reviews.append(f"{d['what']} moves from {100 * d['base']:.1f} % to {100 * d['variant']:.1f} % (beyond the noise and over {t.measure_change_pp:g} points)")
    reviews += _skill_reviews(report.skill, t)
    if reviews:
        return "review", reviews
    return "accept", ["well-formed, ends every game, and no figure moves beyond the thresholds"]


def _skill_reviews(skill: dict[str, Any] | None, t: Thresholds) -> list[str]:
    """The reason for a review when the variant's skill signal is more than
    ``t.skill_drop_points`` points below the base's (see :mod:`.thresholds`).  The threshold is
    not weighed against the noise; when the change's 95 % interval reaches 0, the reason says so."""
    if not skill or skill.get("change_points") is None:
        return []
    drop = -skill["change_points"]
    if not drop > t.skill_drop_points:
        return []
    b, v = skill["base"], skill["variant"]
    interval = skill.get("change_95")
    unsure = drop > 0 and interval is not None and interval[1] >= 0
    noise = (f"; the change's 95 % interval, {interval[0]:+.1f} to {interval[1]:+.1f} points, reaches 0, so it may be noise: "
             "more --skill-games would tell") if unsure and interval is not None else ""
    # A threshold of 0 or below also flags a signal that did not fall: said as it is.
    if drop > 0:
        lead, by = f"the variant {'may make' if unsure else 'makes'} skill matter less: ", f"{drop:.1f} points"
    else:
        lead, by = f"the skill signal is flagged by a threshold of {t.skill_drop_points:g} points: ", f"a change of {-drop:+.1f} points"
    if b["cooperative"]:
        return [f"{lead}one search bot seat changes the team's {b['result']} by {b['gain']:+g} a game in the base game and by "
                f"{v['gain']:+g} in the variant ({by} of the result's range, threshold {t.skill_drop_points:g}{noise})"]
    return [f"{lead}the search bot's win share {'fell' if drop > 0 else 'went'} from {100 * b['win_share']:.1f} % "
            f"to {100 * v['win_share']:.1f} % ({by}, threshold {t.skill_drop_points:g}{noise})"]


def untold_skill(base: dict[str, Any]) -> str | None:
    """A note when the base game's skill signal does not tell the search bot from ``greedy``
    (its 95 % interval reaches the even share, or a gain of 0): a variant that took skill away
    could then not show it.  None when the search bot beats greedy beyond the noise."""
    interval, floor = (base["gain_95"], 0.0) if base["cooperative"] else (base["win_share_95"], base["even_share"])
    if interval is not None and interval[0] > floor:
        return None
    more = "more --skill-games" + ("" if base["bot"].startswith("rollout") else ", or --skill-bot rollout")
    return (f"in the base game the {base['bot']} seat is not told apart from {base['against']} seats over these games, "
            f"so this signal cannot show a variant that takes skill away: {more}")


def skill_figure(s: dict[str, Any]) -> str:
    """One side's skill signal in words."""
    if s["cooperative"]:
        if s["gain"] is None:
            return f"team {s['result']} mean {s['team_mean']} with one {s['bot']} seat (no all-greedy games to compare)"
        low, high = s["gain_95"]
        return (f"one {s['bot']} seat changes the team's {s['result']} from {s['greedy_team_mean']:g} to {s['team_mean']:g} a game "
                f"({s['gain']:+g}, 95 % interval {low:+g} to {high:+g}; {s['signal_points']:+.1f} points of the range)")
    if s["win_share"] is None:
        return "no finished game"
    low, high = s["win_share_95"]
    return (f"the {s['bot']} seat won {100 * s['win_share']:.1f} % of games (95 % interval {100 * low:.1f}–{100 * high:.1f} %) "
            f"against {s['against']} seats; an even share is {100 * s['even_share']:.1f} %")
