"""The fast test for flat card schemas (deckpress.generator.content.schema.quick_check) passes a card
only where jsonschema finds no error: a card it fails is checked by jsonschema, which names the
errors, so a deck's errors are the same with or without it."""
from __future__ import annotations

from jsonschema import Draft202012Validator

from deckpress.generator.content.schema import quick_check

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["id", "title", "number"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
        "title": {"type": "string", "minLength": 1, "maxLength": 10},
        "number": {"type": "integer", "minimum": 0, "maximum": 9},
        "cost": {"type": ["integer", "null"]},
        "faction": {"enum": ["red", "blue"]},
        "weight": {"type": "number", "maximum": 2.5},
    },
}
CARDS = [
    {"id": "owl", "title": "Owl", "number": 3},
    {"id": "owl", "title": "Owl", "number": 3, "cost": None, "faction": "red", "weight": 2.5},
    {"id": "Owl", "title": "Owl", "number": 3},           # pattern
    {"id": "owl", "title": "", "number": 3},              # minLength
    {"id": "owl", "title": "Owl" * 5, "number": 3},       # maxLength
    {"id": "owl", "title": "Owl", "number": True},        # a boolean is no integer
    {"id": "owl", "title": "Owl", "number": 10},          # maximum
    {"id": "owl", "title": "Owl", "number": 3.0},         # an integer to jsonschema; quick leaves it to it
    {"id": "owl", "title": "Owl"},                        # required
    {"id": "owl", "title": "Owl", "number": 3, "colour": "red"},  # additionalProperties
    {"id": "owl", "title": "Owl", "number": 3, "faction": "green"},
    {"id": "owl", "title": "Owl", "number": 3, "weight": 3},
    {"id": "owl", "title": "Owl", "number": 3, "cost": "2"},
    ["not", "a", "record"],
]


def test_quick_check_passes_only_cards_jsonschema_finds_valid():
    quick = quick_check(SCHEMA)
    assert quick is not None
    validator = Draft202012Validator(SCHEMA)
    verdicts = [(quick(card), validator.is_valid(card)) for card in CARDS]
    assert all(valid for fast, valid in verdicts if fast)  # never passes an invalid card
    assert [fast for fast, _ in verdicts[:2]] == [True, True]  # and spares the valid flat ones


def test_schemas_beyond_flat_records_take_no_fast_path():
    assert quick_check({**SCHEMA, "if": {"required": ["cost"]}, "then": {"required": ["faction"]}}) is None
    assert quick_check({**SCHEMA, "properties": {"tags": {"type": "array", "items": {"type": "string", "format": "email"}}}}) is None
    assert quick_check({**SCHEMA, "properties": {"tags": {"type": "array", "prefixItems": [{"type": "string"}]}}}) is None
    assert quick_check({**SCHEMA, "properties": {"tags": {"items": {"type": "string"}}}}) is None  # items without type array


def test_lists_of_simple_values_and_a_card_files_shape_take_the_fast_path_only_where_valid():
    lists = {**SCHEMA, "properties": {**SCHEMA["properties"], "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}}}}
    quick, validator = quick_check(lists), Draft202012Validator(lists)
    assert quick is not None
    cards = [{"id": "owl", "title": "Owl", "number": 3, "tags": ["a", "bc"]}, {"id": "owl", "title": "Owl", "number": 3, "tags": []},
             {"id": "owl", "title": "Owl", "number": 3, "tags": ["a", 1]}, {"id": "owl", "title": "Owl", "number": 3, "tags": ["long"]},
             {"id": "owl", "title": "Owl", "number": 3, "tags": "a"}]
    verdicts = [(quick(card), validator.is_valid(card)) for card in cards]
    assert all(valid for fast, valid in verdicts if fast) and [fast for fast, _ in verdicts] == [True, True, False, False, False]
    card_file = {"type": "object", "properties": {"cards": {"type": "array", "items": {"type": "object"}}}, "required": ["cards"]}
    files = [{"cards": [{"id": 1}, {}]}, {"cards": [{"id": 1}, 2]}, {"cards": {}}, {}, []]
    quick, validator = quick_check(card_file), Draft202012Validator(card_file)
    assert [quick(f) for f in files] == [validator.is_valid(f) for f in files] == [True, False, False, False, False]
    assert quick_check({**SCHEMA, "properties": {"id": {"type": "string", "format": "email"}}}) is None
