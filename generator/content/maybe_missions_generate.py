"""Generate a balanced Maybe Missions card set as YAML (seeded, reproducible).

    python -m deckpress.generator.content.maybe_missions_generate --seed 7 --out content/maybe-missions

writes ``votes.yaml``, ``missions.yaml``, ``masters.yaml``, ``public-identities.yaml``,
``secret-identities.yaml`` and ``shop.yaml``.
The committed YAML is this script's output for the seed it names; after that the YAML is the
source of truth and may be edited by hand (running the script again overwrites such edits).

Balance model (``docs/card-facts.md``; the numbers are designed for this project):

* Missions and Master cards: the green side has 1 to 4 icons (Master cards 2 to 4, a reward for
  the active player) with each resource used equally often over the deck; the red side has one or
  two icons fewer (at least one), taken from the green side's resources, about 90 % of them
  crossed out.
* Master cards: the 19 rule kinds of the vocabulary with their printed variants (27 in all, the
  publisher's pool per card-facts); one variant of every kind and one more, drawn at random.
* Identities: each card pairs a helpful and a harmful power of different kinds that name
  different resources; every variant appears once before any appears twice.
* Shop: each reward variant has a strength 1 to 3 (designer's judgement); its cost is that many
  resource icons, each resource used equally often over the deck.
"""
from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Any

RESOURCES = ("gold", "reputation", "weapons", "intelligence")
DEFAULT_SEED = 7
VOTES = 60

MISSION_TITLES = (
    "Crack the hotel safe", "Bribe the border guard", "Swap the briefcases", "Bug the embassy phone",
    "Steal the prototype", "Rig the village election", "Forge the passports", "Tail the courier",
    "Sabotage the satellite", "Smuggle the crown jewels", "Hack the bank mainframe", "Kidnap the parrot",
    "Fake a royal wedding", "Blackmail the mayor", "Rescue the double agent", "Spike the punch bowl",
    "Switch the museum painting", "Bluff at the casino", "Raid the weapons depot", "Decode the radio chatter",
    "Crash the gala", "Plant false evidence", "Hijack the night train", "Buy off the press",
    "Map the secret tunnels", "Flood the server room", "Impersonate the general", "Fix the horse race",
    "Steal the launch codes", "Bury the scandal", "Trade secrets at the opera", "Free the captured spy",
    "Stage a fake defection", "Snatch the ledger", "Jam the enemy radar", "Charm the ambassador",
    "Loot the shipwreck", "Start a rumour", "Photograph the blueprints", "Escape by hot-air balloon",
)
PUBLIC_NAMES = (
    "The Diplomat", "The Loudmouth", "The Banker", "The Twin", "The Hothead", "The Shadow", "The Courier",
    "The Gossip", "The Judge", "The Insider", "The Mimic", "The General", "The Rookie", "The Fixer",
    "The Heir", "The Pilot", "The Stowaway", "The Archivist",
)
SECRET_NAMES = (
    "The Mole", "The Collector", "The Forger", "The Hoarder", "The Saboteur", "The Sleeper", "The Accountant",
    "The Smuggler", "The Puppeteer", "The Chemist", "The Magpie", "The Ghost", "The Treasurer",
    "The Cartographer", "The Widow", "The Locksmith", "The Cynic", "The Dreamer",
)
GADGETS = (
    "Grappling hook", "Exploding pen", "Invisible ink", "Shoe phone", "Lockpick set", "Smoke bomb",
    "Night-vision goggles", "Bug detector", "Laser watch", "Umbrella dart", "Magnetic cufflinks", "Voice changer",
    "Rocket boots", "Buttonhole camera", "Fake moustache", "Truth serum", "Jetpack", "Decoder ring",
    "Sleeping dart", "Spy satellite", "Pocket parachute", "Remote drone", "Skeleton key", "Bulletproof hat",
    "Folding glider", "Sleeping gas", "Signal jammer", "Hollow coin", "Camera lighter", "X-ray glasses",
    "Radio tooth", "Mini submarine", "Trick briefcase", "Hover skates", "Periscope", "Fingerprint gloves",
    "Codebook", "Laser lipstick", "Pen recorder", "Rubber mask",
)

#: Green-side icon counts: missions (100 icons, 25 per resource) and Master cards (60, 15 each).
MISSION_GREEN_COUNTS = (1,) * 6 + (2,) * 15 + (3,) * 12 + (4,) * 7
MASTER_GREEN_COUNTS = (2,) * 6 + (3,) * 8 + (4,) * 6
RED_PLAIN_SHARE = 0.1

#: The printed rule variants (card-facts.md lists the ideas; the numbers are ours where it gives none).
RULE_VARIANTS: tuple[dict[str, Any], ...] = (
    {"kind": "vote_cutoff", "above": 45}, {"kind": "vote_cutoff", "below": 16},
    {"kind": "mission_size", "min": 3}, {"kind": "mission_size", "max": 2},
    {"kind": "votes_per_player", "votes": 2},
    {"kind": "no_voters_collect"},
    {"kind": "unanimous_ends_round"},
    {"kind": "forced_vote", "vote": "YES"}, {"kind": "forced_vote", "vote": "NO"},
    {"kind": "vote_weight", "vote": "YES", "weight": 2}, {"kind": "vote_weight", "vote": "NO", "weight": 2},
    {"kind": "active_vote_weight", "weight": 2},
    {"kind": "reveal_masters", "count": 5},
    {"kind": "pass_votes", "count": 3},
    {"kind": "flip_collected", "count": 1},
    {"kind": "reveal_hand", "vote": "YES"}, {"kind": "reveal_hand", "vote": "NO"},
    {"kind": "success_margin", "yes_lead": 1}, {"kind": "success_margin", "no_lead": 1},
    {"kind": "reverse_collect_order"},
    {"kind": "open_voting"},
    {"kind": "resource_variety", "max": 2}, {"kind": "resource_variety", "min": 3},
    {"kind": "announce_vote", "extreme": "lowest"}, {"kind": "announce_vote", "extreme": "highest"},
    {"kind": "voter_adjusts_mission", "voter": "highest"},
    {"kind": "voter_swaps_collected", "voter": "highest"},
)

PUBLIC_HELPFUL = (
    {"kind": "own_vote_weight", "weight": 2}, {"kind": "own_vote_weight", "vote": "YES", "weight": 2},
    {"kind": "own_vote_weight", "vote": "NO", "weight": 2}, {"kind": "vote_last"}, {"kind": "collect_first"},
    {"kind": "play_masters"}, {"kind": "vote_shift", "up": 15}, {"kind": "vote_shift", "down": 15},
)
PUBLIC_HARMFUL = (
    *({"kind": "resource_forces_vote", "resource": r, "vote": v} for r in RESOURCES for v in ("YES", "NO")),
    *({"kind": "forbidden_resource", "resource": r} for r in RESOURCES),
    {"kind": "copy_neighbour", "side": "left"}, {"kind": "copy_neighbour", "side": "right"},
    {"kind": "collect_last"}, {"kind": "vote_shift", "up": 15}, {"kind": "vote_shift", "down": 15},
)
_PAIRS = tuple((a, b) for i, a in enumerate(RESOURCES) for b in RESOURCES[i + 1:])
SECRET_HELPFUL = (
    *({"kind": "resource_value", "resource": r, "points": 2} for r in RESOURCES),
    *({"kind": "threshold_bonus", "resource": r, "at_least": 4, "points": 3} for r in RESOURCES),
    {"kind": "threshold_bonus", "at_least": 12, "points": 3},
    *({"kind": "pair_bonus", "first": a, "second": b, "points": 1} for a, b in _PAIRS),
    *({"kind": "parity_bonus", "resource": r, "parity": p, "points": 2} for r in RESOURCES for p in ("odd", "even")),
    {"kind": "card_bonus", "side": "red", "points": 1},
)
SECRET_HARMFUL = (
    *({"kind": "resource_value", "resource": r, "points": -1} for r in RESOURCES),
    *({"kind": "threshold_bonus", "resource": r, "at_least": 4, "points": -3} for r in RESOURCES),
    *({"kind": "pair_bonus", "first": a, "second": b, "points": -1} for a, b in _PAIRS),
    *({"kind": "parity_bonus", "resource": r, "parity": p, "points": -2} for r in RESOURCES for p in ("odd", "even")),
    {"kind": "card_bonus", "side": "green", "points": -1},
)
#: Shop reward variants with their strength (= number of cost icons).
REWARDS = (
    ({"kind": "take_mission", "count": 1}, 2), ({"kind": "take_mission", "count": 2}, 3), ({"kind": "take_master"}, 2),
    ({"kind": "choose_master", "count": 3}, 1), ({"kind": "become_active"}, 1), ({"kind": "choose_active"}, 1),
    ({"kind": "discard_votes", "count": 2}, 1), ({"kind": "draw_votes", "count": 1}, 1), ({"kind": "draw_votes", "count": 2}, 2),
    ({"kind": "renumber_vote", "amount": 15}, 1), ({"kind": "flip_own_card", "count": 1}, 2), ({"kind": "flip_rival_card", "count": 1}, 2),
    ({"kind": "add_to_mission", "count": 1}, 1), ({"kind": "remove_from_mission", "count": 1}, 1), ({"kind": "peek_votes", "count": 2}, 1),
    ({"kind": "swap_votes", "count": 1}, 1), ({"kind": "refresh_market"}, 1), ({"kind": "swap_collected"}, 3),
    ({"kind": "take_played_votes", "count": 1}, 1), ({"kind": "collect_extra"}, 3), ({"kind": "block_collector"}, 2),
)


def slug(text: str) -> str:
    """An id from a title: lowercase words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def two_sided(rng: random.Random, green_counts: tuple[int, ...]) -> list[tuple[list[dict], list[dict]]]:
    """(green icons, red icons) per card, balanced as the module docstring says."""
    counts = list(green_counts)
    rng.shuffle(counts)
    quota = dict.fromkeys(RESOURCES, sum(counts) // len(RESOURCES))
    for r in RESOURCES[: sum(counts) % len(RESOURCES)]:
        quota[r] += 1
    cards = []
    for n in counts:
        green: list[str] = []
        for _ in range(n):
            allowed = [r for r in RESOURCES if green.count(r) < 2 and quota[r] > 0] or [r for r in RESOURCES if quota[r] > 0]
            top = max(quota[r] for r in allowed)
            pick = rng.choice([r for r in allowed if quota[r] == top])
            quota[pick] -= 1
            green.append(pick)
        green.sort(key=RESOURCES.index)
        red = sorted(rng.sample(green, max(1, n - rng.choice((1, 2)))), key=RESOURCES.index)
        cards.append(([{"resource": r} for r in green], [{"resource": r, "crossed": True} for r in red]))
    red_icons = sum(len(red) for _, red in cards)
    for i in rng.sample(range(len(cards)), round(red_icons * RED_PLAIN_SHARE)):
        del cards[i][1][rng.randrange(len(cards[i][1]))]["crossed"]
    return cards


def pick_rules(rng: random.Random, count: int) -> list[dict]:
    """One variant of every rule kind, then more at random from the rest, shuffled."""
    by_kind: dict[str, list[dict]] = {}
    for v in RULE_VARIANTS:
        by_kind.setdefault(v["kind"], []).append(v)
    chosen = [rng.choice(vs) for vs in by_kind.values()]
    rest = [v for v in RULE_VARIANTS if v not in chosen]
    chosen += rng.sample(rest, count - len(chosen))
    rng.shuffle(chosen)
    return chosen


def _cycle(rng: random.Random, variants: tuple, count: int) -> list:
    """``count`` variants: all of them once (shuffled) before any twice."""
    out: list = []
    while len(out) < count:
        batch = list(variants)
        rng.shuffle(batch)
        out += batch
    return out[:count]


def _resources_of(effect: dict) -> set[str]:
    return {v for k, v in effect.items() if k in ("resource", "first", "second")}


def pair_powers(rng: random.Random, helpful: tuple, harmful: tuple, count: int) -> list[tuple[dict, dict]]:
    """``count`` (helpful, harmful) pairs of different kinds that name no resource twice, using
    every kind of both lists at least once: each helpful power takes a random compatible harmful
    one from the pool (every variant once before any twice), retried until all fit."""
    conflicts = {frozenset(("vote_last", "copy_neighbour")), frozenset(("collect_first", "collect_last"))}

    def compatible(g: dict, b: dict) -> bool:
        return (g["kind"] != b["kind"] and frozenset((g["kind"], b["kind"])) not in conflicts
                and not _resources_of(g) & _resources_of(b))

    kinds = {v["kind"] for v in helpful + harmful}
    for _ in range(1000):
        good, pool, pairs = _cycle(rng, helpful, count), _cycle(rng, harmful, count), []
        for g in good:
            options = [b for b in pool if compatible(g, b)]
            if not options:
                break
            b = rng.choice(options)
            pool.remove(b)
            pairs.append((g, b))
        if len(pairs) == count and {e["kind"] for pair in pairs for e in pair} == kinds:
            return pairs
    raise RuntimeError("no conflict-free pairing found in 1000 tries; change the seed")


def shop_cards(rng: random.Random, count: int) -> list[dict]:
    """``count`` shop cards: every reward variant at least once, two different kinds per card,
    costs as long as the reward's strength with each resource equally often."""
    for _ in range(1000):
        sides = _cycle(rng, REWARDS, 2 * count)
        if all(sides[2 * i][0]["kind"] != sides[2 * i + 1][0]["kind"] for i in range(count)):
            break
    else:
        raise RuntimeError("no shop pairing found in 1000 tries; change the seed")
    pool = [RESOURCES[i % len(RESOURCES)] for i in range(sum(s for _, s in sides))]
    rng.shuffle(pool)
    names = list(GADGETS)
    rng.shuffle(names)
    cards = []
    for i in range(count):
        card: dict[str, Any] = {"id": f"shop-{i + 1:02d}"}
        for side, (reward, strength) in zip(("success", "fail"), sides[2 * i: 2 * i + 2]):
            cost = sorted((pool.pop() for _ in range(strength)), key=RESOURCES.index)
            card[side] = {"gadget": names.pop(), "cost": cost, "reward": reward}
        cards.append(card)
    return cards


# ----------------------------------------------------------------------------- YAML output

def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if re.fullmatch(r"[a-z][a-z0-9_-]*", value) and value not in ("true", "false", "null"):
        return value
    return json.dumps(value, ensure_ascii=False)


def flow(value) -> str:
    """``value`` in YAML flow style: plain words bare, other strings JSON-quoted (valid YAML)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return _scalar(value)


def _header(stem: str, comment: str, provenance: dict) -> list[str]:
    lines = [f"# yaml-language-server: $schema=../../schemas/maybe-missions.{stem}.schema.json"]
    lines += [f"# {line}" for line in comment.splitlines()]
    lines.append("provenance:")
    lines += [f"  {k}: {flow(v)}" for k, v in provenance.items()]
    return lines


def _records(key: str, records: list[dict]) -> list[str]:
    lines = [f"{key}:"]
    for record in records:
        first = True
        for k, v in record.items():
            lines.append(f"  {'- ' if first else '  '}{k}: {flow(v)}")
            first = False
    return lines


def generate(seed: int) -> dict[str, str]:
    """The YAML text of each generated file by stem, for ``seed`` (same seed, same text)."""
    rng = random.Random(seed)
    how = f"generator/content/maybe_missions_generate.py --seed {seed} (balance model in its docstring)"
    files = {}
    files["votes"] = _header("votes", "Vote cards: numbers 1-60, even YES, odd NO (card-facts.md).",
                             {"provenance": "official", "source": "docs/card-facts.md: 60 vote cards numbered 1-60, even numbers YES, odd NO"}) \
        + ["votes:"] + [f"  - {flow({'number': n, 'vote': 'YES' if n % 2 == 0 else 'NO'})}" for n in range(1, VOTES + 1)]
    missions = [{"id": slug(t), "title": t, "success": g, "fail": r}
                for t, (g, r) in zip(MISSION_TITLES, two_sided(rng, MISSION_GREEN_COUNTS))]
    files["missions"] = _header("missions", "Mission cards: a green SUCCESS side and a red FAIL side; crossed icons score -1.\nGenerated, then the source of truth: edit by hand freely.",
                                {"provenance": "designed", "source": "docs/card-facts.md: 40 mission cards, green side 1-4 resource icons, red side one or two fewer, nearly all crossed",
                                 "method": f"titles written for this project; icons from {how}"}) + _records("missions", missions)
    rules = pick_rules(rng, len(MASTER_GREEN_COUNTS))
    masters = [{"id": f"master-{i + 1:02d}", "rule": rule, "success": g, "fail": r}
               for i, (rule, (g, r)) in enumerate(zip(rules, two_sided(rng, MASTER_GREEN_COUNTS)))]
    files["masters"] = _header("masters", "Master cards: one rule each (a kind of the vocabulary, schemas/maybe-missions.vocabulary.schema.json),\nprinted on both sides; icons on the green and red sides for the active player who wins the card.",
                               {"provenance": "reconstructed", "source": "docs/card-facts.md: 20 Master cards, the publisher's printed rule ideas",
                                "method": f"rule ideas from card-facts, wording and parameters where card-facts gives none designed; icons from {how}"}) \
        + _records("masters", masters)
    for kind, names, helpful, harmful, changes in (("public", PUBLIC_NAMES, PUBLIC_HELPFUL, PUBLIC_HARMFUL, "voting and collecting"),
                                                   ("secret", SECRET_NAMES, SECRET_HELPFUL, SECRET_HARMFUL, "scoring")):
        cards = [{"id": slug(n), "name": n, "helpful": g, "harmful": b} for n, (g, b) in zip(names, pair_powers(rng, helpful, harmful, len(names)))]
        files[f"{kind}-identities"] = _header(f"{kind}-identities", f"{kind.capitalize()} identity cards (Secret Identities expansion): a helpful and a harmful power over {changes}.",
                                              {"provenance": "reconstructed", "source": f"docs/card-facts.md: 18 {kind} identities, powers that change {changes}",
                                               "method": f"power ideas from card-facts; names, parameters and pairings designed with {how}"}) \
            + _records("identities", cards)
    files["shop"] = _header("shop", "Shop cards (Gadget Shopping expansion): each side a gadget, a cost in resources and a reward.",
                            {"provenance": "reconstructed", "source": "docs/card-facts.md: 20 shop cards, each side a cost of 1-3 resources, a reward and a gadget name",
                             "method": f"reward ideas from card-facts; gadget names, strengths and costs designed with {how}"}) \
        + _records("shop", shop_cards(rng, 20))
    return {stem: "\n".join(lines) + "\n" for stem, lines in files.items()}


def main(argv: list[str] | None = None) -> None:
    """Write the generated files into ``--out`` (default: the shipped content folder)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "content" / "maybe-missions")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for stem, text in generate(args.seed).items():
        (args.out / f"{stem}.yaml").write_text(text, "utf-8")
        print(f"wrote {args.out / (stem + '.yaml')}")


if __name__ == "__main__":
    main()
