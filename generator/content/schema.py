"""JSON Schema validation of loaded documents, with errors at ``file:line:column``.

Schemas live in the repository's ``schemas/`` folder (draft 2020-12) and refer to each other by
file name.  They are served from a local registry only: a ``$ref`` to a URL is never fetched.
"""
from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from typing import Any, Callable, Mapping

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.safetext import choices, excerpt, numeric
from deckpress.generator.content.yamlsafe import (  # dotted: re-exported for content modules
    Document,
    dotted,
)
from deckpress.generator.paths import SCHEMAS_DIR


@lru_cache(maxsize=1)
def registry() -> Registry:
    """Every schema in ``schemas/``, keyed by file name (``'common.schema.json'``)."""
    resources = []
    for path in sorted(SCHEMAS_DIR.glob("*.schema.json")):
        resources.append((path.name, Resource.from_contents(json.loads(path.read_text("utf-8")))))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(schema_name: str) -> Draft202012Validator:
    """A validator for ``schemas/<schema_name>``.

    Raises:
        FileNotFoundError: no such schema file (a programming error, not a content error).
    """
    path = SCHEMAS_DIR / schema_name
    schema = json.loads(path.read_text("utf-8"))
    return Draft202012Validator(schema, registry=registry())


def schema_exists(schema_name: str) -> bool:
    """Whether ``schemas/<schema_name>`` exists."""
    return (SCHEMAS_DIR / schema_name).is_file()


def validate(doc: Document, schema_name: str) -> list[ContentError]:
    """All schema errors of ``doc`` against ``schemas/<schema_name>``, each at its line and column,
    with the path inside the document and what was expected."""
    return _errors(doc, validator(schema_name))


def schema_error_paths(data, schema_name: str) -> list[tuple]:
    """Where in ``data`` each error of :func:`validate` lies, as paths of keys and indices (an
    unknown key's path ends with the key; a missing key's is its parent mapping's).  Used to
    leave the failing parts out of later checks while the rest is still checked."""
    paths = []
    for err in validator(schema_name).iter_errors(data):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = err.schema.get("properties", {})
            paths += [path + (k,) for k in err.instance if k not in allowed]
        else:
            paths.append(path)
    return paths


def validate_with(doc: Document, schema: dict, resources: Mapping[str, dict] | None = None) -> list[ContentError]:
    """All errors of ``doc`` against ``schema`` (a dict), located as :func:`validate` does.

    ``resources`` adds schemas by URI (a game's own card schemas) to the local registry of
    deckpress's schemas; nothing is ever fetched: a ``$ref`` to anything else raises.

    Raises:
        referencing.exceptions.Unresolvable: a ``$ref`` names a schema that is not there.
    """
    if not resources:  # a simple shape (a card file's: a list of records) is checked without jsonschema when it holds
        quick = quick_check(schema)
        if quick is not None and quick(doc.data):
            return []
    reg = registry().with_resources(
        (uri, Resource.from_contents(s, default_specification=DRAFT202012)) for uri, s in (resources or {}).items())
    return _errors(doc, Draft202012Validator(schema, registry=reg))


def validate_items(doc: Document, key: str, schema: dict) -> list[ContentError]:
    """Every item of the list ``doc.data[key]`` against ``schema`` (a game's own schema for one
    card), located as :func:`validate` does.  One validator, applied item by item: no ``$ref``
    indirection per card.  Nothing is fetched: a ``$ref`` to another file raises.

    In a table of cards (a CSV file, whose header cells the reader records under
    ``("columns", name)`` in ``doc.positions``) a fault of the header is one error at its cell,
    with how many cards it touches, not one per card: a column the schema does not know (with the
    nearest field it does, ``did you mean 'title'?``) and a field the schema requires that no
    column holds.

    Raises:
        referencing.exceptions.Unresolvable: a ``$ref`` names a schema that is not there.
    """
    item_validator = Draft202012Validator(schema, registry=registry())
    columns: dict | None = None  # a table's header cells, looked up at the first card that fails
    errors = []
    unknown: dict[str, int] = {}  # a column the schema refuses -> cards that fill it
    missing: dict[str, int] = {}  # a required field no column holds -> cards that lack it
    quick = quick_check(schema)
    for i, item in enumerate(doc.data[key]):
        if quick is not None and quick(item):
            continue  # valid for certain: jsonschema would find nothing
        found = list(item_validator.iter_errors(item))
        if columns is None:
            columns = {path[1]: at for path, at in doc.positions.items() if len(path) == 2 and path[0] == "columns"}
        if columns:
            found = _header_faults(found, columns, unknown, missing)
        errors += [_named(e, dotted((key, i)), item) for e in _errors(doc, found, (key, i))]
    if columns and (unknown or missing):
        errors += _column_errors(doc, key, schema, columns, unknown, missing)
    return sorted(set(errors))


def _named(error: ContentError, prefix: str, item) -> ContentError:
    """``error`` (about the item ``prefix``, ``cards[4]``) naming the card by its id, as a
    designer knows it: ``card 'owl': value: ...`` for ``cards[4].value: ...``."""
    card_id = item.get("id") if isinstance(item, dict) else None
    if not isinstance(card_id, (str, int)) or isinstance(card_id, bool) or not error.message.startswith(prefix):
        return error
    rest = error.message[len(prefix):]
    name = f"card '{excerpt(str(card_id), 40)}'"
    return ContentError(error.path, error.line, error.column, f"{name}: {rest[1:]}" if rest.startswith(".") else name + rest)


def _header_faults(found: list[ValidationError], columns: dict[str, tuple[int, int]], unknown: dict[str, int],
                   missing: dict[str, int]) -> list[ValidationError]:
    """``found`` (one card's errors) without those whose cause is the table's header, which are
    counted instead: an unknown key that is a column (``unknown``) and a required key that no
    column holds (``missing``).  What is left is the card's own."""
    kept = []
    for err in found:
        if err.absolute_path or not isinstance(err.instance, dict):
            kept.append(err)
            continue
        if err.validator == "additionalProperties":
            allowed = err.schema.get("properties", {})
            extra = [k for k in err.instance if k not in allowed]
            for k in extra:
                if k in columns:
                    unknown[k] = unknown.get(k, 0) + 1
            if any(k not in columns for k in extra):
                kept.append(err)
            continue
        if err.validator == "required":
            absent = [k for k in err.validator_value if k not in err.instance]
            for k in absent:
                if k not in columns:
                    missing[k] = missing.get(k, 0) + 1
            if any(k in columns for k in absent):
                kept.append(err)
            continue
        kept.append(err)
    return kept


def _column_errors(doc: Document, key: str, schema: dict, columns: dict[str, tuple[int, int]], unknown: dict[str, int],
                   missing: dict[str, int]) -> list[ContentError]:
    """One error per faulty column of a table's header (at its cell) and per required field no
    column holds (at the header, or at the unknown column that is its near miss)."""
    shown = doc.display or str(doc.path)
    header_line = min((at[0] for at in columns.values()), default=1)
    fields = sorted(excerpt(str(k), 40) for k in schema.get("properties", {}))
    errors, explained = [], set()

    def cards(n: int) -> str:
        return f"{n:,} card{'s' * (n != 1)}"

    for name, count in unknown.items():
        near = difflib.get_close_matches(name, [f for f in fields if f not in columns] or fields, n=1)
        line, col = columns[name]
        if near and near[0] in missing:
            explained.add(near[0])
            message = (f"column '{excerpt(name, 40)}' is not a field of a card (did you mean '{near[0]}'? every card needs a "
                       f"'{near[0]}' and no column holds one; it touches {cards(max(count, missing[near[0]]))})")
        else:
            hint = choices(name, fields) if fields else "no fields are allowed"
            message = f"column '{excerpt(name, 40)}' is not a field of a card ({hint}{' ' if hint.endswith('?') else '; '}{cards(count)} fill it)"
        errors.append(ContentError(shown, line, col, message))
    for name, count in missing.items():
        if name in explained:
            continue
        near = difflib.get_close_matches(name, list(columns), n=1)
        hint = f": did you mean the column '{near[0]}'?" if near else f": add a column '{excerpt(name, 40)}'"
        errors.append(ContentError(shown, header_line, 1, f"no column '{excerpt(name, 40)}', which every card needs ({cards(count)} lack it){hint}"))
    return errors


def _errors(doc: Document, found, prefix: tuple = ()) -> list[ContentError]:
    """``found`` (a validator, run on ``doc.data``, or the errors it found in the item at
    ``prefix``) as errors at their lines: every missing key of one mapping in one message."""
    if isinstance(found, Draft202012Validator):
        found = found.iter_errors(doc.data)
    errors = []
    required: dict[tuple, list[ValidationError]] = {}  # by mapping: every missing key in one message
    for err in found:
        if err.context:  # oneOf/anyOf: show the most relevant branch's error
            err = best_match(_of_its_type(err.context))
        if err.validator == "required" and isinstance(err.instance, dict):
            required.setdefault(prefix + tuple(err.absolute_path), []).append(err)
            continue
        errors += _located(doc, err, prefix)
    for path, errs in required.items():
        errors.append(doc.error(path, f"{dotted(path)}: {_required(errs)}"))
    return sorted(set(errors))


def _of_its_type(context: list[ValidationError]) -> list[ValidationError]:
    """The errors of the anyOf/oneOf branches whose type the value has (a text too long is
    told its length, not that a mapping was expected), or all of them where none has it."""
    wrong = {e.relative_schema_path[0] for e in context if e.validator == "type" and not e.relative_path and e.relative_schema_path}
    kept = [e for e in context if e.relative_schema_path and e.relative_schema_path[0] not in wrong]
    return kept or list(context)


def _located(doc: Document, err: ValidationError, prefix: tuple = ()) -> list[ContentError]:
    """``err`` as errors at their lines, worded by :func:`_message`: one per unknown key of a
    mapping (at the key), a key refused by ``propertyNames`` at the key, anything else at its value.
    In a table of cards an unknown key that is a column is the header's fault, told once there."""
    path = prefix + tuple(err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in allowed and (not prefix or err.absolute_path or ("columns", k) not in doc.positions)]
        if extra:
            return [doc.error(path + (k,), f"{dotted(path + (k,))}: unknown key '{excerpt(k, 40)}' ({choices(k, allowed) if allowed else 'no keys are allowed here'})",
                              key=True) for k in extra]
    if "propertyNames" in err.absolute_schema_path and _is_key(doc.data, path, err.instance):
        where = path + (err.instance,)
        return [doc.error(where, f"{dotted(where)}: {_message(err, subject=f'the key {_literal(err.instance)}')}", key=True)]
    message = _message(err)
    if doc.path.suffix.lower() in (".csv", ".tsv", ".xlsx"):  # a cell has no quotes to lose
        from deckpress.generator.content.csvfile import number_hint

        message = message.replace(UNQUOTE_HINT, number_hint(err.instance, doc.path.suffix.lower()))
    return [doc.error(path, f"{dotted(path)}: {message}")]


def _is_key(data, path: tuple, name) -> bool:
    """Whether ``name`` is a key of the mapping at ``path`` in ``data`` (so that a ``propertyNames``
    error can stand at the key it refuses)."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(data, dict) and isinstance(name, str) and name in data


#: JSON Schema type names as people say them.
_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "a mapping (key: value)", "array": "a list", "null": "nothing (null)"}


def _literal(value) -> str:
    """``value`` as it would be written in YAML, short and escaped: ``"text"`` in quotes, ``true``,
    ``null``, ``12``; a mapping or a list by its size."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f'"{excerpt(value)}"'
    if isinstance(value, dict):
        return f"a mapping of {len(value)} key{'s' * (len(value) != 1)}"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    return excerpt(value)


def _found(value) -> str:
    """What a value is, in words, with a short escaped excerpt of it: ``the text "60"``,
    ``the number 5.5``, ``true``, ``nothing (null)``, ``a list of 3 items``."""
    if isinstance(value, str):
        return f"the text {_literal(value)}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {_literal(value)}"
    return "nothing (null)" if value is None else _literal(value)


def _message(err: ValidationError, subject: str | None = None) -> str:
    """A schema error as a person would say it (what was found, what was expected), quoting at
    most a short escaped excerpt of the value: jsonschema's own messages repeat the whole value,
    however long.  ``subject`` names what is wrong (default: the value, as :func:`_found` says it)."""
    say = _SAYINGS.get(err.validator, _fallback)
    return say(err, subject or _found(err.instance))


#: The hint after a number written as text: in YAML it was quoted; a CSV cell has no quotes to
#: lose, and its number is one the CSV reader does not take (1e3, +5, 007, 17 digits or more).
UNQUOTE_HINT = " (write it without quotes)"
CSV_NUMBER_HINT = " (write it as plain digits, such as 12 or 1.5)"


def _type(err: ValidationError, subject: str) -> str:
    """What was expected and what was found; a number in quotes is told to lose them."""
    types = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
    wanted = " or ".join(_TYPE_WORDS.get(t, str(t)) for t in types)
    quoted_number = isinstance(err.instance, str) and numeric(err.instance) and any(t in ("integer", "number") for t in types)
    return f"expected {wanted}, found {subject}" + (UNQUOTE_HINT if quoted_number else "")


def _required(errs: list[ValidationError]) -> str:
    """Every missing key of one mapping in one message, with what the mapping must hold: the keys
    of all its ``required`` errors (a schema may require some keys always and others under a
    condition, ``if``/``then``: each is an error of its own to jsonschema, one fact to a person)."""
    wanted = list(dict.fromkeys(k for err in errs for k in err.validator_value))
    missing = [k for k in wanted if k not in errs[0].instance]
    keys = ", ".join(f"'{excerpt(str(k), 40)}'" for k in missing)
    return f"missing key{'s' * (len(missing) != 1)} {keys} (required here: {excerpt(', '.join(str(k) for k in wanted), 200)})"


def _enum(err: ValidationError, subject: str) -> str:
    """The allowed values, all of them when there are at most 8, else the nearest ones."""
    allowed = err.validator_value
    if len(allowed) <= 8:
        return f"{subject} is not one of: {', '.join(excerpt(e) if isinstance(e, str) else _literal(e) for e in allowed)}"
    return f"{subject} is not one of the {len(allowed)} allowed values ({choices(str(err.instance), [str(e) for e in allowed])})"


def _range(err: ValidationError, subject: str) -> str:
    """The number and the bound it passes."""
    words = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[err.validator]
    return f"{_literal(err.instance)} is out of range: it must be {words} {_literal(err.validator_value)}"


def _size(unit: str, whole: str | None = None):
    """A saying for a ``min*``/``max*`` validator: how many ``unit`` the value has and how many
    are allowed.  ``whole`` names a list or mapping ("the list"); text is named by its subject."""
    def say(err: ValidationError, subject: str) -> str:
        bound = "at least" if err.validator.startswith("min") else "at most"
        keys = err.instance if isinstance(err.instance, dict) and 0 < len(err.instance) <= 8 else ()
        named = f" ({', '.join(excerpt(k, 40) for k in keys)})" if keys else ""
        return f"{whole or subject} has {len(err.instance)} {unit}{named}; {bound} {err.validator_value} allowed"
    return say


def _pattern(err: ValidationError, subject: str) -> str:
    """The schema's own words for the pattern when it has them: ``patternErrorMessage`` (the
    keyword VS Code's schema support shows for a failed pattern: written to follow the value,
    "must be a relative path ..."), else its ``description``; the pattern itself only as a last
    resort."""
    if isinstance(err.schema.get("patternErrorMessage"), str):
        return f"{subject} {excerpt(err.schema['patternErrorMessage'], 200)}"
    rule = err.schema.get("description") or f"the pattern {err.validator_value}"
    return f"{subject} does not have the required form: {excerpt(rule, 200)}"


def _fallback(err: ValidationError, subject: str) -> str:
    """Any other validator: jsonschema's message, with the value it quotes in full replaced by
    ``subject`` and the whole cut short."""
    return excerpt(err.message.replace(repr(err.instance), subject), 200)


#: How each validator's failure is said, by validator name (None: a schema of ``false``); any other
#: validator falls back to :func:`_fallback`.
_SAYINGS = {
    "type": _type,
    "required": lambda err, subject: _required([err]),
    "enum": _enum,
    "const": lambda err, subject: f"expected {_literal(err.validator_value)}, found {subject}",
    "minimum": _range, "maximum": _range, "exclusiveMinimum": _range, "exclusiveMaximum": _range,
    "multipleOf": lambda err, subject: f"{subject} is not a multiple of {err.validator_value}",
    "minLength": _size("characters"), "maxLength": _size("characters"),
    "minItems": _size("items", "the list"), "maxItems": _size("items", "the list"),
    "minProperties": _size("keys", "the mapping"), "maxProperties": _size("keys", "the mapping"),
    "uniqueItems": lambda err, subject: "the list holds the same item twice; each item may appear once",
    "pattern": _pattern,
    "not": lambda err, subject: f"{subject} is not allowed here",
    None: lambda err, subject: f"{subject} is not allowed here",  # a schema of false
}


def bundled(schema_name: str) -> dict:
    """``schemas/<schema_name>`` made self-contained: every schema it refers to (``common.schema.json``
    and the like) is embedded under ``$defs`` by file name and each ``$ref`` rewritten to point
    there, so a copy of the file alone works in an editor (``deckpress schemas DIR``).

    Raises:
        FileNotFoundError: no such schema (a programming error).
    """
    def load(name: str) -> dict:
        return json.loads((SCHEMAS_DIR / name).read_text("utf-8"))

    embedded: dict[str, dict] = {}

    def rewrite(node, owner: str):
        if isinstance(node, list):
            return [rewrite(item, owner) for item in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                target, _, fragment = value.partition("#")
                target = target or owner
                if target != schema_name and target not in embedded:
                    embedded[target] = {}
                    part = load(target)
                    part.pop("$schema", None)
                    part.pop("$id", None)
                    embedded[target] = rewrite(part, target)
                out[key] = "#" + fragment if target == schema_name else f"#/$defs/{target}{fragment}"
            else:
                out[key] = rewrite(value, owner)
        return out

    schema = rewrite(load(schema_name), schema_name)
    if embedded:
        schema["$defs"] = {**schema.get("$defs", {}), **dict(sorted(embedded.items()))}
    return schema


def schema_names() -> list[str]:
    """The file names of every deckpress schema, sorted."""
    return sorted(p.name for p in SCHEMAS_DIR.glob("*.schema.json"))


_NOTES = frozenset({"title", "description", "$comment", "default", "examples"})
_TOP = _NOTES | {"$schema", "$id", "type", "required", "properties", "additionalProperties"}
_FIELD = _NOTES | {"type", "pattern", "minLength", "maxLength", "minimum", "maximum", "enum", "items"}
_TYPES = {"string": lambda v: type(v) is str, "integer": lambda v: type(v) is int,
          "number": lambda v: type(v) in (int, float), "boolean": lambda v: type(v) is bool,
          "null": lambda v: v is None, "array": lambda v: type(v) is list, "object": lambda v: type(v) is dict}


def quick_check(schema: dict) -> Callable[[Any], bool] | None:
    """A fast test that a card is valid against ``schema`` (a game's schema for one card), or None
    where the schema uses anything beyond the flat record most card schemas are: an object with
    ``properties`` of simple ``type``, ``pattern``, ``minLength``/``maxLength``,
    ``minimum``/``maximum`` and text ``enum``, lists (``type: array``) whose ``items`` are such
    values or any records, ``required`` and ``additionalProperties`` true or false (a card file's
    own shape, a ``cards`` list of records, is one: :func:`validate_with` takes it).  The test is conservative: True only where jsonschema (draft 2020-12) finds no error,
    False wherever it is unsure (a float where an integer is asked, say), and a card it fails is
    checked by jsonschema itself, which names its errors.  It spares a deck of 20,000 rows
    20,000 walks of the jsonschema validator."""
    if not isinstance(schema, dict) or set(schema) - _TOP or schema.get("type") != "object":
        return None
    props, required, extra = schema.get("properties", {}), schema.get("required", []), schema.get("additionalProperties", True)
    if not isinstance(props, dict) or not isinstance(required, list) or not all(isinstance(r, str) for r in required) \
            or not isinstance(extra, bool):
        return None
    tests: dict[str, Callable[[Any], bool]] = {}
    for name, field in props.items():
        test = _field_test(field)
        if test is None:
            return None
        tests[name] = test

    def check(item: Any) -> bool:
        if type(item) is not dict or any(r not in item for r in required):
            return False
        for k, v in item.items():
            test = tests.get(k)
            if test is None:
                if not extra:
                    return False
            elif not test(v):
                return False
        return True
    return check


def _field_test(field: Any) -> Callable[[Any], bool] | None:
    """A test for one property's value (see :func:`quick_check`), or None for a schema beyond it."""
    if field is True or field == {}:
        return lambda v: True
    if not isinstance(field, dict) or set(field) - _FIELD:
        return None
    kinds = field.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if kinds is not None and not (isinstance(kinds, list) and kinds and all(k in _TYPES for k in kinds)):
        return None
    type_tests = [_TYPES[k] for k in kinds] if kinds else None
    pattern = field.get("pattern")
    try:
        regex = re.compile(pattern) if pattern is not None else None
    except (re.error, TypeError):
        return None
    bounds = [field.get(k) for k in ("minLength", "maxLength", "minimum", "maximum")]
    if any(b is not None and (type(b) not in (int, float)) for b in bounds):
        return None
    min_len, max_len, low, high = bounds
    enum = field.get("enum")
    if enum is not None and not (isinstance(enum, list) and all(type(e) is str for e in enum)):
        return None
    item_test = None
    if "items" in field:  # a list of simple values (or of records, any): only under type array alone
        item_test = _field_test(field["items"])
        if item_test is None or kinds != ["array"]:
            return None

    def test(v: Any) -> bool:
        if type_tests is not None and not any(t(v) for t in type_tests):
            return False
        if item_test is not None and not all(item_test(x) for x in v):  # v is a list: type array
            return False
        if type(v) is str:
            if regex is not None and not regex.search(v):
                return False
            if (min_len is not None and len(v) < min_len) or (max_len is not None and len(v) > max_len):
                return False
        elif type(v) in (int, float) and ((low is not None and v < low) or (high is not None and v > high)):
            return False
        return enum is None or (type(v) is str and v in enum)
    return test
