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


def _errors(doc: Document, schema_validator: Draft202012Validator) -> list[ContentError]:
    errors = []
    for err in schema_validator.iter_errors(doc.data):
        if err.context:  # oneOf/anyOf: show the most relevant branch's error
            err = best_match(err.context)
        errors.append(_located(doc, err))
    return sorted(set(errors))


def _located(doc: Document, err: ValidationError) -> ContentError:
    path = tuple(err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = set(err.schema.get("properties", {}))
        extra = sorted(k for k in err.instance if k not in allowed)
        if extra:
            expected = ", ".join(sorted(allowed)) or "none"
            return doc.error(path + (extra[0],), f"{dotted(path + (extra[0],))}: unknown key '{extra[0]}' (expected one of: {expected})", key=True)
    return doc.error(path, f"{dotted(path)}: {err.message}")


def dotted(path: tuple) -> str:
    """``('states', 3, 'values')`` as ``states[3].values``; the root as ``(top level)``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
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
