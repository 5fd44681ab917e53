"""Fan variants: a YAML file that ``extends`` a shipped game with parameter overrides and card
changes addressed by id.  The file is untrusted: it is loaded with tighter limits than shipped
content, checked against ``schemas/variant.schema.json``, and merged into a *copy* of the base
content, which then passes the game's own schemas and semantic checks.  Errors in the variant's
changes are reported at the variant's lines.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from deckpress.generator.content import (
    GameContent,
    check_documents,
    check_game,
    document_errors,
    find_game,
    gate,
    load_game,
    new_places,
    record_list,
    semantic_errors,
    shipped_games,
)
from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.safetext import choices, excerpt
from deckpress.generator.content.schema import schema_error_paths, validate
from deckpress.generator.content.yamlsafe import Document, load_yaml

#: Limits for untrusted variant files (shipped content has wider ones).
VARIANT_MAX_BYTES = 256 * 1024
VARIANT_MAX_DEPTH = 16
VARIANT_MAX_NODES = 50_000


@dataclass(frozen=True)
class Variant:
    """A parsed variant file (``doc.data`` is the file's data).  ``unusable`` holds the parts that
    failed the variant schema, as document paths (``("changes", 3)``, ``("parameters",)``, ...):
    they are reported once, by the schema, and left out of every later stage so that the other
    parts are still checked in the same run."""

    doc: Document
    unusable: frozenset[tuple] = frozenset()

    @property
    def game_id(self) -> str:
        """The id of the game the variant extends."""
        return self.doc.data["extends"]

    @property
    def parameters(self) -> dict[str, Any]:
        """Parameter overrides by name (empty if none, or if they failed the schema)."""
        return {} if ("parameters",) in self.unusable else dict(self.doc.data.get("parameters", {}))

    @property
    def ruleset(self) -> str | None:
        """The named ruleset to start from, if any."""
        return None if ("ruleset",) in self.unusable else self.doc.data.get("ruleset")

    def changes(self):
        """``(index, operation, spec)`` of every change that passed the schema."""
        if ("changes",) in self.unusable:
            return
        for i, change in enumerate(self.doc.data.get("changes", [])):
            if ("changes", i) not in self.unusable:
                (op, spec), = change.items()
                yield i, op, spec


def load_variant(path: Path) -> tuple[Variant | None, list[ContentError]]:
    """Stage 1 and the first half of stage 2: safe loading within the variant limits, then the
    variant schema (the game it ``extends`` is found by :func:`deckpress.generator.check.base_content`).
    Returns ``(variant, schema errors)``: the variant is None when the file cannot be read or the
    game it extends cannot be told; otherwise the parts with schema errors are marked unusable
    (:attr:`Variant.unusable`) and the rest can still be merged and checked."""
    doc, errors = load_yaml(Path(path), display_path(path), max_bytes=VARIANT_MAX_BYTES,
                            max_depth=VARIANT_MAX_DEPTH, max_nodes=VARIANT_MAX_NODES)
    if doc is None:
        return None, errors
    return variant_of(doc)


def variant_of(doc: Document) -> tuple[Variant | None, list[ContentError]]:
    """The variant schema's errors of a loaded ``doc``, and the :class:`Variant` made of its usable
    parts (None when ``extends`` itself is unusable: then nothing else can be checked)."""
    errors = validate(doc, "variant.schema.json")
    if not errors:
        return Variant(doc), []
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("extends"), str):
        return None, errors
    unusable = set()
    for path in schema_error_paths(doc.data, "variant.schema.json"):
        if path:  # a missing or unknown top-level key: nothing that later stages use
            unusable.add(tuple(path[:2]) if path[:1] == ("changes",) and len(path) > 1 else tuple(path[:1]))
    return (None, errors) if ("extends",) in unusable else (Variant(doc, frozenset(unusable)), errors)


def base_content(doc, folder: Path | None) -> tuple[GameContent | None, list[ContentError]]:
    """The content a variant document extends: the game folder ``folder`` (whose ``game.yaml`` id
    must be the variant's ``extends``), else the shipped game of that id.  Errors are located at
    the variant's ``extends``, or are the folder's own content errors."""
    extends = doc.data["extends"]
    if folder is None:
        if extends not in shipped_games():
            return None, [doc.error(("extends",), f"extends: '{extends}' is not a shipped game ({', '.join(shipped_games())}): "
                                                  "give the folder of the game it extends with --content")]
        return load_game(extends), []
    try:
        content, errors = check_game(find_game(folder))
    except ContentErrors as exc:
        return None, exc.errors
    if errors:
        return None, errors
    assert content is not None, "check_game returns content exactly when it finds no error"
    if content.game_id != extends:
        return None, [doc.error(("extends",), f"extends: '{extends}', but the game in {display_path(folder)} is '{content.game_id}'")]
    return content, []


def merged_content(path: Path, folder: Path | None = None) -> tuple[GameContent | None, list[ContentError]]:
    """The content of the variant at ``path`` merged into the game it extends (the game folder
    ``folder``, else the shipped game), checked: ``(content, [])``, or ``(None, errors)`` with
    every error :func:`merge` and the variant schema find (as ``deckpress check`` lists them)."""
    _, merged, errors = merged_variant(path, folder)
    return merged, errors


def merged_variant(path: Path, folder: Path | None = None) -> tuple[Variant | None, GameContent | None, list[ContentError]]:
    """:func:`merged_content` with the variant itself (its ruleset and parameters, for a game
    played or replayed on it): ``(variant, content, [])``, or ``(variant or None, None, errors)``."""
    variant, errors = load_variant(path)
    if variant is None:
        return None, None, errors
    base, base_errors = base_content(variant.doc, folder)
    if base_errors:
        return variant, None, errors + base_errors
    assert base is not None, "base_content returns content exactly when it finds no error"
    merged, merge_errors = merge(variant, base)
    errors = sorted(set(errors + merge_errors))
    return (variant, None, errors) if errors else (variant, merged, [])


def merge(variant: Variant, base: GameContent) -> tuple[GameContent, list[ContentError]]:
    """Stage 2: apply the variant's usable changes to a copy of ``base`` and check the result with
    the game's schemas and semantic checks.  Returns ``(merged, errors)``; ``merged`` is
    checked content only when ``errors`` is empty; otherwise it is the merged content without
    the cards the schema refused (see :func:`_without_refused_cards`), for the checks of later
    stages that can still run.

    Every error is listed in one run: changes that cannot apply, schema errors of every merged
    file, and the cross-file checks as far as the merged data can be read.  Since ``base`` is
    valid, every error is the variant's doing: errors in changed or added cards point at the
    variant's lines, and an error the checks find in a base file (a count in ``game.yaml``, a
    card the change made inconsistent) is put at the variant's change of that file, the base
    file's place given as context, with how to fix it in a variant where there is a known way.
    """
    vdoc = variant.doc
    documents = {stem: _copy(doc) for stem, doc in base.documents.items()}
    origins: dict[str, dict[str, list[tuple[tuple, tuple[str, int, int]]]]] = {}
    errors: list[ContentError] = []
    changed: set[str] = set()  # files a change reached: the others are base's, valid as they are
    for i, op, spec in variant.changes():
        at = ("changes", i, op)
        stem = spec["file"]
        problem = card_problem(base.game_id, documents, stem, None if op == "add" else spec["id"])
        if problem:
            where, message = problem
            errors.append(vdoc.error(at + (where,), f"{op}.{where}: {message}"))
            continue
        changed.add(stem)
        doc = documents[stem]
        key = record_list(base.game_id, stem, doc.data)
        assert key is not None, "card_problem found the file's record list"
        records = doc.data[key]
        ids = [r["id"] for r in records]
        file_origins = origins.setdefault(stem, {})
        if op == "add":
            card = spec["card"]
            if card["id"] in ids:
                errors.append(vdoc.error(at + ("card", "id"), f"add.card.id: '{card['id']}' is already a card in {stem}.yaml: use replace to change it"))
                continue
            records.append(copy.deepcopy(card))
            file_origins[card["id"]] = [(p[len(at) + 1:], _origin(vdoc, p)) for p in vdoc.positions if p[:len(at) + 1] == at + ("card",)]
            continue
        index = ids.index(spec["id"])
        if op == "remove":
            del records[index]
            _shift(doc, key, index)
            continue
        for dotted, value in spec["fields"].items():
            refused = _set(records[index], dotted.split("."), copy.deepcopy(value))
            if refused:
                errors.append(vdoc.error(at + ("fields", dotted), f"replace.fields: '{dotted}': {refused}", key=True))
            else:
                file_origins.setdefault(spec["id"], []).append((tuple(dotted.split(".")), _origin(vdoc, at + ("fields", dotted))))
        _mark_unsourced(records[index], list(spec["fields"]), vdoc.data)
    for stem, by_id in origins.items():
        doc = documents[stem]
        key = record_list(base.game_id, stem, doc.data)
        for index, record in enumerate(doc.data[key]):
            for sub, origin in by_id.get(record["id"], []):
                doc.origins[(key, index) + sub] = origin
    # A file's schema may depend on game.yaml (a game's own card schema): a changed game.yaml checks them all again.
    again = documents if "game" in changed else {stem: documents[stem] for stem in changed}
    schema_errors = [e for stem, doc in again.items() for e in document_errors(base.game_id, stem, doc, documents)]
    merged = GameContent(base.game_id, base.root, MappingProxyType(documents))
    found = errors + schema_errors
    if not schema_errors:
        checked, semantic = check_documents(base.game_id, base.root, documents)
        merged = checked or merged
    else:
        readable, left_out = _without_refused_cards(base, documents, schema_errors)
        merged = GameContent(base.game_id, base.root, MappingProxyType(readable))
        semantic = semantic_errors(base.game_id, base.root, readable)
        if left_out:
            found.append(vdoc.error(("changes",), "changes: the cross-file checks ran without the cards the schema refused "
                                                  f"({', '.join(left_out)}): they are checked with the rest once fixed", key=True))
    found += new_places(semantic, found)
    found = [relocate(e, variant, base) for e in found]
    return merged, sorted(set(found))


def card_problem(game_id: str, documents: Mapping[str, Document], stem: str, card_id: str | None = None) -> tuple[str, str] | None:
    """Why card ``card_id`` of the content file ``stem`` (in ``documents``, by file stem) cannot be
    changed: ``("file", message)`` when ``stem`` is no card file of the game, ``("id", message)``
    when it holds no such card (``card_id`` None: the file alone is asked about); None when both
    are there.  The variant's changes and ``deckpress sweep``'s card dimensions ask it."""
    doc = documents.get(stem)
    key = record_list(game_id, stem, doc.data) if doc is not None else None
    if doc is None or key is None:
        files = ", ".join(s for s, d in documents.items() if record_list(game_id, s, d.data))
        return "file", f"'{stem}' is not a card file of {game_id} (card files: {files})"
    ids = [record["id"] for record in doc.data[key]]
    if card_id is not None and card_id not in ids:
        return "id", f"no card '{card_id}' in {stem}.yaml{_suggest(card_id, ids)}"
    return None


def _without_refused_cards(base: GameContent, documents: dict[str, Document], schema_errors: list[ContentError]):
    """A copy of the merged ``documents`` that the cross-file checks can read: each card with a
    schema error is put back as it is in ``base`` (a changed card) or left out (an added card).
    Returns ``(documents, ids of the cards put back or left out)``."""
    refused_at = {(e.path, e.line, e.column) for e in schema_errors}
    readable, left_out = dict(documents), []
    for stem, doc in documents.items():
        key = record_list(base.game_id, stem, doc.data)
        if key is None:
            continue
        places = {}
        for path in list(doc.positions) + list(doc.origins):
            if len(path) >= 2 and path[0] == key and isinstance(path[1], int):
                places[path] = doc.error(path, "")
        bad = {path[1] for path, e in places.items() if (e.path, e.line, e.column) in refused_at}
        if not bad:
            continue
        before = {r["id"]: r for r in base[stem][key]}
        records = []
        for index, record in enumerate(doc.data[key]):
            if index not in bad:
                records.append(record)
                continue
            left_out.append(str(record.get("id", index)))
            if record.get("id") in before:
                records.append(before[record["id"]])
        readable[stem] = Document(doc.path, {**doc.data, key: records}, doc.positions, doc.key_positions, doc.display, doc.origins)
    return readable, left_out


_COUNT = re.compile(r"^([\w-]+): (\d+) records, but game\.yaml \(line \d+\) says the box has \d+ .* \(component '([\w-]+)'\)")


def relocate(error: ContentError, variant: Variant, base: GameContent) -> ContentError:
    """``error`` (found in the merged content of ``variant`` over the valid ``base``) where the
    variant's author can fix it: as it is when it is already in the variant; else at the
    variant's change of the card the message names, or its first change of the file the error is
    in, or its first change, with the base file's place kept as context."""
    vdoc = variant.doc
    if error.path == vdoc.display:
        return error
    touched: dict[str, list[tuple[str, tuple]]] = {}  # file -> (card id, the change's path), in the variant's order
    for i, op, spec in variant.changes():
        touched.setdefault(spec["file"], []).append((spec["card"]["id"] if op == "add" else spec["id"], ("changes", i, op)))
    stem = next((s for s, d in base.documents.items() if d.display == error.path), None)
    candidates = (touched.get(stem, []) if stem is not None else []) or [c for cs in touched.values() for c in cs]
    count = _COUNT.match(error.message)
    if count:  # a count that no longer matches: at the first change that adds or removes a card of that file
        candidates = [c for c in touched.get(count.group(1), []) if c[1][2] in ("add", "remove")] or candidates
    named = [at for card_id, at in candidates if f"'{card_id}'" in error.message]
    where = named[0] if named else candidates[0][1] if candidates else ("changes",) if "changes" in vdoc.data else ()
    line, col = vdoc.where(where)
    message = f"{error.message} (found at {error.path}:{error.line}:{error.column})" if error.line else f"{error.message} ({error.path})"
    if count:
        message += (f"; a variant that adds or removes cards also changes the box's count: "
                    f"- replace: {{file: game, id: {count.group(3)}, fields: {{count: {count.group(2)}}}}}")
    return ContentError(vdoc.display, line, col, message)


def _copy(doc: Document) -> Document:
    return Document(doc.path, copy.deepcopy(doc.data), dict(doc.positions), dict(doc.key_positions), doc.display, dict(doc.origins))


def _origin(vdoc: Document, path: tuple) -> tuple[str, int, int]:
    line, col = vdoc.where(path)
    return (vdoc.display, line, col)


def _shift(doc: Document, key: str, removed: int) -> None:
    """Keep base positions right after record ``removed`` of ``doc.data[key]`` is deleted."""
    for table in (doc.positions, doc.key_positions):
        moved = {}
        for path in list(table):
            if len(path) >= 2 and path[0] == key and isinstance(path[1], int) and path[1] >= removed:
                pos = table.pop(path)
                if path[1] > removed:
                    moved[(key, path[1] - 1) + path[2:]] = pos
        table.update(moved)


def _set(record: dict, parts: list[str], value: Any) -> str | None:
    """Set ``record[parts[0]][parts[1]]... = value``; returns a problem description or None."""
    target = record
    for i, part in enumerate(parts[:-1]):
        nxt = target.get(part)
        if not isinstance(nxt, dict):
            groups = [k for k, v in target.items() if isinstance(v, dict)]
            return f"'{'.'.join(parts[:i + 1])}' is not a group of fields in this card{_suggest(part, groups)}"
        target = nxt
    if parts[-1] == "id":
        return "a card's id cannot be replaced: remove the card and add a new one"
    target[parts[-1]] = value
    return None


#: The ``method`` of a fact a variant changed without saying where the new value comes from.
UNSOURCED = "changed by a variant whose author gave no source for the new value: the variant author's design"
_PROVENANCE_FIELDS = ("provenance", "source", "year", "confidence", "method", "note")


def _mark_unsourced(record: dict, fields: list[str], variant: dict) -> None:
    """Provenance in variants: a value a variant changes keeps no provenance that is
    not its own.  For each changed field (a dotted path into ``record``) the nearest mapping
    around it that records provenance (a fact: ``value``, ``provenance``, ``source``, ...) is
    marked ``designed`` by the variant's author, unless the same change also sets its provenance
    or replaces the whole mapping.  Its ``note`` (about the old value) goes; its year stays; its
    confidence, where it has one, becomes ``low``."""
    for dotted in fields:
        parts = dotted.split(".")
        for depth in range(len(parts) - 1, -1, -1):
            holder: Any = record  # a mapping on the path, or None past its end
            for part in parts[:depth]:
                holder = holder.get(part) if isinstance(holder, dict) else None
            if isinstance(holder, dict) and "provenance" in holder:
                break
        else:
            continue
        prefix = ".".join(parts[:depth])
        own = {f"{prefix}.{f}" if prefix else f for f in _PROVENANCE_FIELDS}
        if parts[-1] in _PROVENANCE_FIELDS or own & set(fields) or any(prefix.startswith(f) for f in fields if f != dotted) or dotted == prefix:
            continue
        holder.update(provenance="designed", method=UNSOURCED, source=f"the variant '{variant.get('name', '?')}' by {variant.get('author', '?')}")
        if "confidence" in holder:
            holder["confidence"] = "low"
        holder.pop("note", None)


def unsourced(content_diff: "ContentDiff") -> list[str]:
    """The facts of ``content_diff`` that :func:`_mark_unsourced` marked, as warnings for the
    report and the verdict's reasons (``states: goa: values.forest: ...``)."""
    return [f"{ch.file}: {ch.id}: {path[:-len('.method')] or '(the card)'}: the new value has no source of its own, so it is marked "
            "'designed' by the variant's author (give provenance, source and method in the variant to keep a source)"
            for ch in content_diff.changed for path, (_, after) in ch.fields.items()
            if after == UNSOURCED and (path == "method" or path.endswith(".method"))]


def _suggest(wrong: str, ids: list[str]) -> str:
    hint = choices(wrong, ids)
    return f" ({hint})" if hint.startswith("did you mean") else ""


@dataclass
class CardChange:
    """How one card differs: its id, content file, and changed fields as
    ``{dotted.path: (before, after)}``."""

    file: str
    id: str
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)


@dataclass
class ContentDiff:
    """Stage 3: what a variant changes in the content, card by card."""

    added: list[tuple[str, str]] = field(default_factory=list)  # (file, id)
    removed: list[tuple[str, str]] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The diff as readable lines: '+ states: ladakh', '- states: goa',
        '~ states: karnataka: values.forest.value: 19 -> 21'."""
        out = [f"+ {f}: {i}" for f, i in self.added] + [f"- {f}: {i}" for f, i in self.removed]
        for ch in self.changed:
            out += [f"~ {ch.file}: {ch.id}: {p}: {_short(a)} -> {_short(b)}" for p, (a, b) in ch.fields.items()]
        return out


def diff(base: GameContent, merged: GameContent) -> ContentDiff:
    """Cards added, removed and changed field by field, per content file."""
    result = ContentDiff()
    for stem in sorted(base.documents):
        key = record_list(base.game_id, stem, base[stem])
        if key is None:
            continue
        before = {r["id"]: r for r in base[stem][key]}
        after = {r["id"]: r for r in merged[stem][key]}
        result.added += [(stem, i) for i in after if i not in before]
        result.removed += [(stem, i) for i in before if i not in after]
        for rid in before:
            if rid in after and before[rid] != after[rid]:
                fields = {p: (a, b) for p, a, b in _field_changes(before[rid], after[rid], "")}
                result.changed.append(CardChange(stem, rid, fields))
    return result


def _field_changes(a: Any, b: Any, prefix: str):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            yield from _field_changes(a.get(k), b.get(k), f"{prefix}.{k}" if prefix else k)
    elif a != b:
        yield prefix, a, b


def _short(value: Any) -> str:
    """``value`` as the CLI writes values: text as it is, anything else as JSON (``null``, ``true``)."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def variant_art(variant: Variant, content: GameContent) -> tuple[dict[str, str], list[ContentError]]:
    """Check the variant's ``art`` map: every card id exists in ``content``; every file passes
    the gate with the variant's folder as its root (a relative path, inside the folder once links
    are followed, a regular file, a whole PNG or JPEG by its content, within
    :data:`deckpress.generator.content.gate.MAX_IMAGE_BYTES` and ``MAX_IMAGE_PIXELS``).  Returns
    ``({card id: resolved path}, errors)``, each error at the art entry's line."""
    doc = variant.doc
    folder = Path(doc.path).resolve().parent
    card_ids = {r["id"] for stem, d in content.documents.items()
                for r in (d.data.get(record_list(content.game_id, stem, d.data)) or [] if isinstance(d.data, dict) else [])}
    found, errors = {}, []
    for card_id, name in doc.data.get("art", {}).items():
        where = ("art", card_id)
        if card_id not in card_ids:
            errors.append(doc.error(where, f"art: no card '{card_id}' in the merged content{_suggest(card_id, sorted(card_ids))}", key=True))
            continue
        try:
            info = gate.check_image(gate.resolve(name, folder, folder, "art", "variant's folder"), folder)
        except gate.GateError as exc:
            errors.append(doc.error(where, f"art.{card_id}: '{excerpt(name)}' {exc}"))
            continue
        found[card_id] = str(info.path)
    return found, errors
