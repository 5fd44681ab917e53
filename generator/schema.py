"""JSON Schema validation of loaded documents, with errors at ``file:line:column``.

Schemas live in the repository's ``schemas/`` folder (draft 2020-12) and refer to each other by
file name.  They are served from a local registry only: a ``$ref`` to a URL is never fetched.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Mapping

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from deckpress.generator.errors import ContentError
from deckpress.generator.safetext import choices, excerpt
from deckpress.generator.paths import SCHEMAS_DIR
from deckpress.generator.yamlsafe import Document


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


def validate_with(doc: Document, schema: dict, resources: Mapping[str, dict] | None = None) -> list[ContentError]:
    """All errors of ``doc`` against ``schema`` (a dict), located as :func:`validate` does.

    ``resources`` adds schemas by URI (a game's own card schemas) to the local registry of
    deckpress's schemas; nothing is ever fetched: a ``$ref`` to anything else raises.

    Raises:
        referencing.exceptions.Unresolvable: a ``$ref`` names a schema that is not there.
    """
    reg = registry().with_resources(
        (uri, Resource.from_contents(s, default_specification=DRAFT202012)) for uri, s in (resources or {}).items())
    return _errors(doc, Draft202012Validator(schema, registry=reg))


def validate_items(doc: Document, key: str, schema: dict) -> list[ContentError]:
    """Every item of the list ``doc.data[key]`` against ``schema`` (a game's own schema for one
    card), located as :func:`validate` does.  One validator, applied item by item: no ``$ref``
    indirection per card.  Nothing is fetched: a ``$ref`` to another file raises.

    Raises:
        referencing.exceptions.Unresolvable: a ``$ref`` names a schema that is not there.
    """
    item_validator = Draft202012Validator(schema, registry=registry())
    errors = []
    for i, item in enumerate(doc.data[key]):
        errors += _errors(doc, item_validator, item, (key, i))
    return sorted(set(errors))


def _errors(doc: Document, schema_validator: Draft202012Validator, instance=None, prefix: tuple = ()) -> list[ContentError]:
    errors = []
    for err in schema_validator.iter_errors(doc.data if not prefix else instance):
        if err.context:  # oneOf/anyOf: show the most relevant branch's error
            err = best_match(err.context)
        errors.append(_located(doc, err, prefix))
    return sorted(set(errors))


def _located(doc: Document, err: ValidationError, prefix: tuple = ()) -> ContentError:
    path = prefix + tuple(err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(k for k in err.instance if k not in allowed)
        if extra:
            where = path + (extra[0],)
            return doc.error(where, f"{dotted(where)}: unknown key '{excerpt(extra[0], 40)}' ({choices(extra[0], allowed) if allowed else 'no keys are allowed here'})", key=True)
    return doc.error(path, f"{dotted(path)}: {_message(err)}")


#: JSON Schema type names as people say them.
_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "a mapping (key: value)", "array": "a list", "null": "nothing (null)"}


def _found(value) -> str:
    """What a value is, in words, with a short escaped excerpt of it."""
    kind = {str: "the text", bool: "", int: "the number", float: "the number", dict: "a mapping", list: "a list", type(None): "nothing"}.get(type(value), "")
    if isinstance(value, (dict, list)):
        return f"{kind} of {len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, str):
        return f"{kind} \"{excerpt(value)}\""
    return f"{kind} {excerpt(value)}".strip() if value is not None else kind


def _message(err: ValidationError) -> str:
    """A schema error as a person would say it, quoting at most a short escaped excerpt of the
    value (jsonschema's own messages repeat the whole value, however long)."""
    v, value, expected = err.validator, err.instance, err.validator_value
    if v == "type":
        types = expected if isinstance(expected, list) else [expected]
        wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        hint = " (write it without quotes)" if isinstance(value, str) and any(t in ("integer", "number") for t in types) and _numeric(value) else ""
        return f"expected {wanted}, found {_found(value)}{hint}"
    if v == "required":
        missing = [k for k in expected if isinstance(value, dict) and k not in value]
        return f"missing key '{missing[0] if missing else '?'}' (required here: {', '.join(expected)})"
    if v == "enum":
        if len(expected) <= 8:
            return f"{_found(value)} is not one of: {', '.join(excerpt(e) for e in expected)}"
        return f"{_found(value)} is not one of the {len(expected)} allowed values ({choices(str(value), [str(e) for e in expected])})"
    if v == "const":
        return f"expected {excerpt(expected)}, found {_found(value)}"
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[v]
        return f"{excerpt(value)} is out of range: it must be {words} {expected}"
    if v in ("minLength", "maxLength"):
        return f"{_found(value)} has {len(value)} characters; {'at least' if v == 'minLength' else 'at most'} {expected} allowed"
    if v in ("minItems", "maxItems"):
        return f"a list of {len(value)}; {'at least' if v == 'minItems' else 'at most'} {expected} items allowed"
    if v == "pattern":
        rule = err.schema.get("description") or f"the pattern {expected}"
        return f"{_found(value)} does not have the required form: {excerpt(rule, 200)}"
    return excerpt(err.message, 200)


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def dotted(path: tuple) -> str:
    """``('states', 3, 'values')`` as ``states[3].values``; the root as ``(top level)``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{excerpt(part, 40)}" if out else excerpt(part, 40))
    return out or "(top level)"



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
