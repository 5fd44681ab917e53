"""The 50 Missions condition language: quoted missions on hand-made rows (known answers), the
printed wording, errors, and exact odds checked against an independent count."""
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckpress.generator.content import load_game
from deckpress.generator.content.fifty_missions import mission_conditions, symbol_deck
from deckpress.generator.content.fifty_missions_conditions import (
    ConditionError,
    OddsTooCostly,
    SymbolDeck,
    card_text,
    compile_condition,
    count_displays,
    odds,
)

DECK = SymbolDeck(symbols=("lighter", "binoculars", "knife", "compass"),
                  colours={"lighter": "red", "binoculars": "blue", "knife": "yellow", "compass": "green"},
                  names={"lighter": "lighter", "binoculars": "binoculars", "knife": "knife", "compass": "compass"},
                  values=tuple(range(1, 8)), copies=2, aliases={"orange": "yellow"})
SYMBOL = {"R": "lighter", "B": "binoculars", "Y": "knife", "G": "compass"}
ALL_ROWS = 56 * 55 * 54 * 53


def row(text: str) -> tuple:
    """'R3 B5 G7 Y2' -> ((lighter, 3), (binoculars, 5), (compass, 7), (knife, 2)), left to right."""
    return tuple((SYMBOL[c[0]], int(c[1:])) for c in text.split())


def cond(spec):
    return compile_condition(spec, DECK)


# Each mission quoted in docs/card-facts.md (50 Missions), as missions.yaml writes it, with
# a row that meets it and one that does not.
QUOTED = [
    ("all values >= 5", {"every": {"value": {"at_least": 5}}}, "R5 B7 G6 Y5", "R5 B7 G4 Y5"),
    ("all values < 4", {"every": {"value": {"at_most": 3}}}, "R1 B3 G2 Y3", "R1 B3 G4 Y3"),
    ("all values even", {"every": {"parity": "even"}}, "R2 B4 G6 Y2", "R2 B4 G6 Y1"),
    ("total = 20", {"sum": {"equals": 20}}, "R7 B6 G4 Y3", "R7 B6 G4 Y4"),
    ("total = 16", {"sum": {"equals": 16}}, "R1 B5 G5 Y5", "R1 B5 G5 Y6"),
    ("two red cards adjacent", {"adjacent": [{"colour": "red"}, {"colour": "red"}]}, "B1 R5 R2 G3", "R1 B5 R2 G3"),
    ("two blue cards not adjacent", {"apart": [{"colour": "blue"}, {"colour": "blue"}]}, "B1 R5 G2 B3", "R1 B5 B2 G3"),
    ("sum of red = sum of orange", {"sum": {"of": {"colour": "red"}, "equals": {"sum": {"colour": "yellow"}}}}, "R2 R5 Y7 G1", "R2 R5 Y6 G1"),
    ("a run of consecutive values", {"run": {"length": 4, "order": "any"}}, "R5 B3 G6 Y4", "R5 B3 G6 Y2"),
    ("all four cards blue and/or green", {"every": {"colour": ["blue", "green"]}}, "B1 G5 B2 B3", "B1 G5 B2 R3"),
    ("three cards of one colour", {"same": {"of": "colour", "at_least": 3}}, "G1 G5 R2 G3", "G1 G5 R2 B3"),
    ("exactly three red cards", {"count": {"of": {"colour": "red"}, "equals": 3}}, "R1 R5 G2 R3", "R1 R5 R2 R3"),
    ("sum of blue = 11", {"sum": {"of": {"colour": "blue"}, "equals": 11}}, "B4 R5 B7 G3", "B4 R5 B6 G3"),
    ("sum of yellow = 11", {"sum": {"of": {"colour": "yellow"}, "equals": 11}}, "Y1 Y3 R5 Y7", "Y1 Y3 R5 Y6"),
    ("sum of green = 6", {"sum": {"of": {"colour": "green"}, "equals": 6}}, "G6 R5 B5 Y5", "G6 R5 B5 G1"),
]


@pytest.mark.parametrize("quote, spec, yes, no", QUOTED, ids=[q[0] for q in QUOTED])
def test_quoted_missions_on_hand_made_rows(quote, spec, yes, no):
    c = cond(spec)
    assert c.met(row(yes)) is True
    assert c.met(row(no)) is False


def test_the_shipped_quoted_missions_are_these_conditions():
    content = load_game("fifty-missions")
    shipped = {m["quote"]: m["condition"] for m in content["missions"]["missions"] if m["provenance"] == "reconstructed"}
    assert shipped == {quote: spec for quote, spec, _, _ in QUOTED}


@pytest.mark.parametrize("spec, text", [
    ({"every": {"value": {"at_least": 5}}}, "All 4 values are 5 or more."),
    ({"every": {"value": {"at_least": 3, "at_most": 5}}}, "All 4 values are 3, 4 or 5."),
    ({"sum": {"equals": 20}}, "The 4 cards add up to exactly 20."),
    ({"adjacent": [{"colour": "red"}, {"colour": "red"}]}, "Two red lighter cards side by side."),
    ({"apart": [{"colour": "blue"}, {"colour": "blue"}]}, "Two blue binoculars cards with at least one card between them."),
    ({"sum": {"of": {"colour": "red"}, "equals": {"sum": {"colour": "yellow"}}}}, "The red lighter cards add up to the same as the yellow knife cards, with at least one red lighter card and one yellow knife card showing."),
    ({"count": {"of": {"colour": "red"}, "equals": 3}}, "Exactly 3 red lighter cards."),
    ({"count": {"of": {"colour": "red"}, "equals": 0}}, "No red lighter cards."),
    ({"every": {"colour": ["blue", "green"]}}, "All 4 cards are blue binoculars or green compass cards."),
    ({"not": {"adjacent": {"same": "colour"}}}, "No two cards of the same colour side by side."),
    ({"any": [{"ordered": "increasing"}, {"distinct": {"of": "value", "equals": 4}}]},
     "Either the values rise from left to right, each card higher than the one before, or all 4 values are different."),
])
def test_card_text_is_generated_from_the_condition(spec, text):
    # The printed text names colour and symbol together ("red lighter"): colour is never the only cue.
    assert card_text(cond(spec)) == text


def test_a_colour_that_is_not_there_has_no_sum():
    # Reading chosen for "sum of red = sum of orange" (missions.yaml): with neither colour in the
    # row, 0 = 0 does not count, or the mission would be met by rows without red or yellow.
    c = cond({"sum": {"of": {"colour": "red"}, "equals": {"sum": {"colour": "yellow"}}}})
    assert c.met(row("B1 B2 G3 G4")) is False
    assert cond({"sum": {"of": {"colour": "red"}, "at_most": 5}}).met(row("B1 B2 G3 G4")) is False


def test_runs_in_the_row_count_up_or_down_between_neighbours():
    c = cond({"run": {"length": 3}})
    assert c.met(row("R7 B4 G5 Y6")) and c.met(row("R6 B5 G4 Y1"))
    assert not c.met(row("R4 B6 G5 Y1"))  # 4, 5, 6 are there but not side by side in order
    assert c.order_matters and not cond({"run": {"length": 3, "order": "any"}}).order_matters


def test_at_least_and_exactly():
    assert cond({"same": {"of": "colour", "at_least": 3}}).met(row("R1 R2 R3 R4"))
    assert not cond({"count": {"of": {"colour": "red"}, "equals": 3}}).met(row("R1 R2 R3 R4"))


def test_problems_are_all_reported_with_their_paths():
    spec = {"all": [{"count": {"of": {"colour": "purple"}, "equals": 1, "at_least": 2}},
                    {"sum": {"of": {"colour": "orange", "value": 9}, "equals": 3}},
                    {"every": {}, "ordered": "increasing"}]}
    with pytest.raises(ConditionError) as exc:
        compile_condition(spec, DECK, ("missions", 7, "condition"))
    problems = dict(exc.value.problems)
    base = ("missions", 7, "condition", "all")
    assert problems[base + (0, "count", "of", "colour")] == "unknown colour 'purple' (this deck's colours: red, blue, yellow, green)"
    assert problems[base + (0, "count")].startswith("count: give exactly one comparison")
    assert "'orange' is another name for yellow in some sources: write 'yellow'" in problems[base + (1, "sum", "of", "colour")]
    assert problems[base + (1, "sum", "of", "value")] == "value 9: outside this deck's values 1 to 7"
    assert "a condition has exactly one kind" in problems[base + (2,)] and "list them under 'all'" in problems[base + (2,)]


def test_a_compared_quantity_without_one_kind_is_a_problem_at_its_path():
    # {count: ..., equals: {}} compares with a quantity of no kind: reported with the others
    # (compile_condition raised AttributeError on it, once the problem was found)
    spec = {"count": {"of": {"colour": "red"}, "more_than": {"sum": {"colour": "blue"}, "count": {"colour": "green"}}}}
    with pytest.raises(ConditionError) as exc:
        compile_condition(spec, DECK, ("condition",))
    assert dict(exc.value.problems) == {("condition", "count", "more_than"): "a quantity has exactly one kind (sum, count, distinct, same); found 'sum' and 'count'"}


# --- odds --------------------------------------------------------------------------------------

def falling(n, k):
    return prod(range(n - k + 1, n + 1))


def test_odds_of_simple_missions_match_hand_counts():
    # all 4 of one colour: choose the colour, then 4 of its 14 cards in order
    assert odds(cond({"distinct": {"of": "colour", "equals": 1}}), DECK) == Fraction(4 * falling(14, 4), ALL_ROWS)
    # exactly 3 red: which slot is not red, 3 red cards in order, 1 of the 42 others
    assert odds(cond({"count": {"of": {"colour": "red"}, "equals": 3}}), DECK) == Fraction(4 * falling(14, 3) * 42, ALL_ROWS)
    # all even: 4 symbols x {2, 4, 6} x 2 copies = 24 cards
    assert odds(cond({"every": {"parity": "even"}}), DECK) == Fraction(falling(24, 4), ALL_ROWS)
    assert count_displays(cond({"every": {}}), DECK) == (ALL_ROWS, ALL_ROWS)


def test_a_huge_fan_deck_is_refused_before_counting():
    # Untrusted content: 4 symbols x 60 values, a condition telling every value apart in order.
    big = SymbolDeck(DECK.symbols, DECK.colours, DECK.names, tuple(range(1, 61)), 2)
    with pytest.raises(OddsTooCostly, match="would test 12,960,000 rows of 60 kinds of card"):
        count_displays(compile_condition({"adjacent": {"same": "value"}}, big), big)


@pytest.fixture(scope="module")
def every_kind_sequence():
    """Every ordered row of 4 card kinds with its number of physical rows (2 copies of each
    kind): an independent, brute-force count (614,656 rows of kinds)."""
    kinds = DECK.kinds
    rows = []
    for seq in product(range(len(kinds)), repeat=4):
        weight = prod(2 if m <= 2 else 0 for m in Counter(seq).values())
        if weight:
            rows.append((tuple(kinds[i] for i in seq), weight))
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("spec", [
    {"adjacent": [{"colour": "red"}, {"colour": "blue"}]},
    {"sum": {"of": {"colour": "red"}, "equals": {"sum": {"colour": "yellow"}}}},
    {"run": {"length": 3}},
    {"all": [{"distinct": {"of": "colour", "equals": 4}}, {"sum": {"at_least": 20}}]},
], ids=["adjacent", "colour-sums", "run-in-row", "all-different-and-total"])
def test_odds_agree_with_brute_force(spec, every_kind_sequence):
    c = cond(spec)
    met = sum(w for display, w in every_kind_sequence if c.met(display))
    assert sum(w for _, w in every_kind_sequence) == ALL_ROWS
    assert count_displays(c, DECK) == (met, ALL_ROWS)


@pytest.fixture(scope="module")
def shipped():
    content = load_game("fifty-missions")
    return symbol_deck(content), mission_conditions(content)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data())
def test_cards_of_one_class_are_interchangeable(shipped, data):
    # odds() counts by classes of cards with equal features: swapping a card of a row for another
    # card of its class must never change whether a mission is met.
    deck, conditions = shipped
    c = conditions[data.draw(st.sampled_from(sorted(conditions)))]
    display = list(data.draw(st.lists(st.sampled_from(deck.kinds), min_size=4, max_size=4)))
    slot = data.draw(st.integers(0, 3))
    key = tuple(f(display[slot]) for f in c.features)
    twins = [k for k in deck.kinds if tuple(f(k) for f in c.features) == key]
    swapped = display.copy()
    swapped[slot] = data.draw(st.sampled_from(twins))
    assert c.met(tuple(display)) == c.met(tuple(swapped))


@pytest.mark.slow
def test_the_condition_modules_do_not_load_print_code():
    # The rules engine imports these modules and must never pull in rendering or print-side code.
    code = ("import sys, deckpress.generator.content.fifty_missions, deckpress.generator.content.fifty_missions_conditions; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'reportlab' or m.startswith(('deckpress.generator.render', 'deckpress.generator.kit.adapters'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_a_comparison_of_two_colours_says_both_must_show_as_the_engine_checks():
    # "red 5 and no blue": the engine says not met, so the card must say so too (a player read met).
    c = compile_condition({"sum": {"of": {"colour": "red"}, "more_than": {"sum": {"colour": "blue"}}}}, DECK)
    assert card_text(c).endswith("with at least one red lighter card and one blue binoculars card showing.")
    assert not c.met((("lighter", 5), ("knife", 1), ("knife", 2), ("compass", 3)))  # no blue: not met, as printed
    assert c.met((("lighter", 5), ("binoculars", 1), ("knife", 2), ("compass", 3)))
