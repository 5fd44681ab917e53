"""Content model. Games made from data alone: ``game.yaml`` declares the decks, card files hold the records,
``layout.yaml`` places the elements.  No Python is needed to print a new game (as Squib, nanDECK
and protograf print a deck from a data file and a layout).

A deck in ``game.yaml``::

    decks:
      - id: heroes                 # the deck's id (its cards' documents are content["heroes"])
        name: Hero cards
        file: heroes.csv           # CSV, TSV, JSON, YAML or a spreadsheet (.xlsx), in the game's folder
        path: data                 # optional, JSON or YAML: where the records are (packs[*].white)
        sheet: Heroes              # optional, .xlsx: the sheet of cards (default: the first)
        limits: {megabytes: 200, cards: 200000}  # optional: raise the card file's limits
        schema: hero.schema.json   # optional: a JSON Schema for ONE card, in the game's folder
        layout: hero               # cards.hero in layout.yaml: trim, bleed, face and back
        card_size: poker           # optional: a card_sizes entry; must equal the layout's trim
        copies: 2                  # optional: copies of every card, or the name of a field

A card's fields are its record's; ``id`` is the record's own or ``<deck>-<n>`` (its 1-based
row), and ``source`` names its file.  Card files are read by
:mod:`deckpress.generator.content.cardfiles` (its limits: ``CardLimits``).  Paths are resolved against the game's folder through
:mod:`deckpress.generator.content.gate`.

This module is the content side: the files, the checks and the facts that both the kit and the
rules engine read; the cards to print are made in :mod:`deckpress.generator.kit.adapters.data`.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from referencing.exceptions import Unresolvable

from deckpress.generator.content import gate, semantic
from deckpress.generator.content.cardfiles import FORMATS, load_card_file
from deckpress.generator.content.derived import card_layouts, derive, layouts_named
from deckpress.generator.content.errors import ContentError, display_path
from deckpress.generator.content.layout_kinds import card_kinds, unknown_names
from deckpress.generator.content.safetext import choices, excerpt, quoted, strict_json
from deckpress.generator.content.schema import validate_items, validate_with
from deckpress.generator.content.yamlsafe import Document

#: Reserved document names: a deck may not be called like a game-wide file.

#: Reserved document names: a deck may not be called like a game-wide file.
RESERVED = ("game", "layout")


#: Most copies of one card.
MAX_COPIES = 1000


#: The shape of a YAML card file (its records are checked by the deck's own schema).
CARD_FILE_SCHEMA = {
    "type": "object",
    "properties": {"cards": {"type": "array", "items": {"type": "object"}, "description": "the cards, one mapping each"}},
    "required": ["cards"],
}


def content_files(game_doc: Document):
    """``(stem, path, loader)`` for ``layout.yaml`` and every deck's card file declared in a
    schema-valid ``game.yaml``.  A deck's file that the gate refuses is reported at its line in
    ``game.yaml``."""
    from deckpress.generator.content import load_file

    folder = game_doc.path.parent
    root = folder.resolve()
    files = [("layout", folder / "layout.yaml", lambda path, root: load_file(path, "layout.schema.json", root))]
    for i, deck in enumerate(game_doc.data.get("decks", [])):
        files.append((deck["id"], folder / deck["file"], _deck_loader(game_doc, i, root)))
    return files


def _deck_loader(game_doc: Document, index: int, root: Path):
    deck = game_doc.data["decks"][index]

    def load(_path: Path, _root: Path) -> tuple[Document | None, list[ContentError]]:
        where = ("decks", index, "file")
        try:
            path = gate.resolve(deck["file"], game_doc.path.parent, root, "card file")
        except gate.GateError as exc:
            return None, [game_doc.error(where, f"decks[{index}].file: '{excerpt(deck['file'])}' {exc}")]
        suffix = path.suffix.lower()
        shown = display_path(game_doc.path.parent / deck["file"])
        if suffix not in FORMATS:
            return None, [game_doc.error(where, f"decks[{index}].file: '{excerpt(deck['file'])}' is not a card file deckpress reads "
                                                f"(.csv, .tsv, .json, .yaml or .xlsx)")]
        if "path" in deck and suffix not in (".json", ".yaml", ".yml"):
            return None, [game_doc.error(("decks", index, "path"), f"decks[{index}].path: the records' path is for a JSON or YAML card file, "
                                                                  f"and '{excerpt(deck['file'])}' is {FORMATS[suffix]}")]
        if "sheet" in deck and suffix != ".xlsx":
            return None, [game_doc.error(("decks", index, "sheet"), f"decks[{index}].sheet: a sheet is for a spreadsheet (.xlsx), "
                                                                   f"and '{excerpt(deck['file'])}' is {FORMATS[suffix]}")]
        doc, errors = load_card_file(path, shown, root, deck)
        if doc is None:
            return None, _named_in_game(errors, game_doc, index)
        return doc, _card_file_errors(doc, game_doc, index, root)

    return load


def _named_in_game(errors: list[ContentError], game_doc: Document, index: int) -> list[ContentError]:
    """``errors`` of a deck's card file, where one the gate gives about the whole file (``file
    does not exist``, is a folder, too large) told at the line of ``game.yaml`` that names the
    file, with the nearest file names of the game's folder when it does not exist.  Errors with a
    place of their own in the file (a line, a spreadsheet's cell) stay there."""
    name = game_doc.data["decks"][index]["file"]
    out = []
    for error in errors:
        if error.line or not error.message.startswith("file "):
            out.append(error)
            continue
        reason = error.message.removeprefix("file ")
        hint = ""
        if reason == "does not exist":
            folder = (game_doc.path.parent / name).parent
            try:
                near = sorted(p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))[:2000]
            except OSError:
                near = []
            close = choices(Path(name).name, near) if near else ""
            hint = f" ({close})" if close.startswith("did you mean") else ""
        out.append(game_doc.error(("decks", index, "file"), f"decks[{index}].file: '{excerpt(name)}' {reason}{hint}"))
    return out


def document_errors(stem: str, doc: Document, game_doc: Document) -> list[ContentError]:
    """The schema errors of one document of a game made from data alone (a variant's merged
    copy is checked again this way): ``game`` and ``layout`` by deckpress's schemas, a deck's
    cards by the card-file shape and the deck's own schema."""
    from deckpress.generator.content.schema import validate

    if stem in RESERVED:
        return validate(doc, f"{stem}.schema.json")
    index = next(i for i, deck in enumerate(game_doc.data["decks"]) if deck["id"] == stem)
    return _card_file_errors(doc, game_doc, index, game_doc.path.parent.resolve())


def _card_file_errors(doc: Document, game_doc: Document, index: int, root: Path) -> list[ContentError]:
    """A card file checked in one pass: its shape (a ``cards`` list of mappings) and, when the
    deck names one, every card against the game's own schema for one card, its derived fields
    added first (:func:`deckpress.generator.content.derived.derive`: the cards change in place)."""
    deck = game_doc.data["decks"][index]
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    derived = [game_doc.error(p, m) for p, m in derive(deck, index, cards)] if isinstance(cards, list) and "derive" in deck else []
    if "schema" not in deck:
        return derived + validate_with(doc, CARD_FILE_SCHEMA)
    return derived + _own_schema_errors(doc, game_doc, index, root)


def _text_as_written(doc: Document, own: dict) -> None:
    """In a table's cards (CSV, TSV, a spreadsheet), a cell whose field the game's schema says is
    text (``type: string``) keeps its text as written when it reads as a number (a title
    ``1984``, a version ``3.10``): a table cannot say which it meant, its schema does."""
    if doc.path is None or doc.path.suffix.lower() not in (".csv", ".tsv", ".xlsx"):
        return
    from deckpress.generator.content.csvfile import written

    props = own.get("properties")
    if not isinstance(props, dict):
        return
    text = [name for name, spec in props.items() if isinstance(spec, dict) and spec.get("type") == "string"]
    for card in doc.data["cards"] if text else ():
        if isinstance(card, dict):
            for name in text:
                if name in card:
                    card[name] = written(card[name])


def _own_schema_errors(doc: Document, game_doc: Document, index: int, root: Path) -> list[ContentError]:
    """The card file's shape, then its records against the game's own schema for one card."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    name = game_doc.data["decks"][index]["schema"]
    where = ("decks", index, "schema")
    try:
        path = gate.resolve(name, game_doc.path.parent, root, "schema")
        text = gate.read_text(path, root)
    except gate.GateError as exc:
        at = f" (line {exc.line}, column {exc.column})" if exc.line else ""
        return [game_doc.error(where, f"decks[{index}].schema: '{excerpt(name)}' {exc}{at}")]
    shown = display_path(game_doc.path.parent / name)
    try:
        own = strict_json(text)
    except json.JSONDecodeError as exc:
        return [ContentError(shown, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}")]
    if not isinstance(own, dict):
        return [ContentError(shown, 1, 1, "a JSON Schema is an object ({...})")]
    try:
        Draft202012Validator.check_schema(own)
    except SchemaError as exc:
        at = "/".join(str(p) for p in exc.absolute_path) or "(top level)"
        return [ContentError(shown, 0, 0, f"not a valid JSON Schema (draft 2020-12) at {at}: {exc.message[:200]}")]
    errors = validate_with(doc, CARD_FILE_SCHEMA)
    if errors:
        return errors
    _text_as_written(doc, own)
    try:
        return validate_items(doc, "cards", own)
    except Unresolvable as exc:
        return [ContentError(shown, 0, 0, f"refers to a schema that is not there ({str(exc)[:120]}): deckpress never fetches schemas; "
                                          "refer only to definitions in this file or to deckpress's own schemas by file name")]


def check(content) -> list[ContentError]:
    """Deck ids unique and not reserved; each deck names a layout of ``layout.yaml`` and a
    declared card size: the one that layout prints at (its ``card_size``), or, where it names
    none, one equal to its trim; copies are whole numbers from 0 to
    :data:`MAX_COPIES`; card ids (where given) unique within their deck; no deck without cards."""
    game = content.documents["game"]
    layout = content.documents["layout"].data
    decks = game.data.get("decks", [])
    errors = semantic.unique_ids(game, "decks", "deck") if decks else []
    kinds, problems = card_kinds(layout["cards"])  # 'extends' resolved
    errors += [content.documents["layout"].error(path, message) for path, message in problems]
    for i, deck in enumerate(decks):
        if deck["id"] in RESERVED:
            errors.append(game.error(("decks", i, "id"), f"decks[{i}].id: '{deck['id']}' is reserved for {deck['id']}.yaml: choose another deck id"))
            continue
        named = layouts_named(deck)
        missing = [kind for kind in named if kind not in layout["cards"]]
        for kind in missing:
            errors.append(game.error(("decks", i, "layout"), f"decks[{i}].layout: no layout '{kind}' in layout.yaml ({choices(kind, list(layout['cards']))})"))
        if not missing and all(kind in kinds for kind in named):
            errors += _layout_size_errors(game, kinds, deck, i, named)
        doc = content.documents.get(deck["id"])
        if doc is not None:
            unknown = _unknown_copies_field(game, i, doc)
            errors += [unknown] if unknown else _card_errors(doc, deck)
            if not missing and not isinstance(deck["layout"], str):
                errors += [game.error(p, m) for p, m in card_layouts(deck, i, doc.data["cards"])[1]]
            if isinstance(doc.data.get("cards"), list):
                known = set().union(*(c.keys() for c in doc.data["cards"] if isinstance(c, dict))) | {"id", "source"} | set(deck.get("derive") or {})
                found = dict.fromkeys((p, m) for kind in named if kind in kinds  # an element kinds share through extends: once
                                      for p, m in unknown_names(kinds[kind], known, f"deck '{deck['id']}'"))
                errors += [content.documents["layout"].error(p, m) for p, m in found]
            if isinstance(doc.data.get("cards"), list):
                errors += list({str(e): e for kind in named if kind in kinds  # a field two kinds print: once
                                for e in unprintable_errors(doc, deck, kinds[kind].spec, (game, i))}.values())
    return errors + _image_errors(content)


def _layout_size_errors(game: Document, kinds: dict, deck: dict, i: int, named: list[str]) -> list[ContentError]:
    """Deck ``i``'s card size against each layout it names (``named``, its own first): the one
    each prints at (its ``card_size``), or, where it names none, its trim; and a deck of several
    layouts prints at one size, each layout upright or sideways (its trim turned)."""
    errors = []
    first = kinds[named[0]].spec["trim"]
    for kind in named:
        spec = kinds[kind].spec
        trim, prints_at = spec["trim"], spec.get("card_size")
        if kind != named[0] and (trim["width_mm"], trim["height_mm"]) not in ((first["width_mm"], first["height_mm"]), (first["height_mm"], first["width_mm"])):
            errors.append(game.error(("decks", i, "layout"), f"decks[{i}].layout: '{kind}' has a {trim['width_mm']:g} x {trim['height_mm']:g} mm trim and "
                                                              f"'{named[0]}' a {first['width_mm']:g} x {first['height_mm']:g} mm one: the cards of a deck are one "
                                                              "size, upright or sideways (a sideways layout's trim is the other turned)"))
        if "card_size" not in deck:
            continue
        size = game.data["card_sizes"].get(deck["card_size"])
        if size is None:
            errors.append(game.error(("decks", i, "card_size"), f"decks[{i}].card_size: unknown size '{deck['card_size']}' ({choices(deck['card_size'], list(game.data['card_sizes']))})"))
            break
        if prints_at is not None:
            if prints_at != deck["card_size"]:
                errors.append(game.error(("decks", i, "card_size"), f"decks[{i}].card_size: '{deck['card_size']}', but layout '{kind}' prints at "
                                                                     f"card_size '{prints_at}': name the same size in both"))
        elif sorted((size["width_mm"], size["height_mm"])) != sorted((trim["width_mm"], trim["height_mm"])) or (
                kind == named[0] and (size["width_mm"], size["height_mm"]) != (trim["width_mm"], trim["height_mm"])):
            errors.append(game.error(("decks", i, "card_size"), f"decks[{i}].card_size: '{deck['card_size']}' is {size['width_mm']:g} x {size['height_mm']:g} mm, "
                                                                 f"but layout '{kind}' has a {trim['width_mm']:g} x {trim['height_mm']:g} mm trim"))
    return errors


def _image_elements(elements: list, path: tuple):
    """``(path, element)`` of every ``image`` element in a list of layout elements, ``rows`` too."""
    for i, element in enumerate(elements):
        if element["type"] == "image":
            yield path + (i,), element
        elif element["type"] == "rows":
            yield from _image_elements(element["elements"], path + (i, "elements"))


def _image_errors(content) -> list[ContentError]:
    """Every image a layout or a card names passes the gate, whether or not a card draws it: a
    literal path at its layout line, a ``{field}`` path at the card's own cell or line."""
    layout = content.documents["layout"]
    root = Path(content.root).resolve()
    checked: dict[str, str | None] = {}

    def refusal(name: str) -> str | None:
        if name not in checked:
            try:
                gate.check_image(gate.resolve(name, root, root, "image"), root)
                checked[name] = None
            except gate.GateError as exc:
                checked[name] = str(exc) + (_near_files(name, root) if str(exc) == "does not exist" else "")
        return checked[name]

    errors = []
    decks = content["game"].get("decks", [])
    for kind, spec in layout.data["cards"].items():
        for side in ("face", "back"):
            for path, element in _image_elements(spec.get(side, []), ("cards", kind, side)):
                template = element["image"]
                if isinstance(template, dict):  # a map: each literal path it names, at its entry
                    entries = [(("image", "map", k), v) for k, v in template["map"].items()] + [(("image", "default"), template.get("default", "{"))]
                    errors += [layout.error(path + at, f"image '{excerpt(name)}' {refusal(name)}") for at, name in entries if "{" not in name and refusal(name)]
                    continue
                field = re.fullmatch(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", template)
                if field is None:
                    if "{" not in template and refusal(template):
                        errors.append(layout.error(path + ("image",), f"image '{excerpt(template)}' {refusal(template)}"))
                    continue
                for deck in (d for d in decks if kind in layouts_named(d)):
                    doc = content.documents[deck["id"]]
                    for n, card in enumerate(doc.data["cards"]):
                        name = card.get(field.group(1))
                        if isinstance(name, str) and refusal(name):
                            errors.append(doc.error(("cards", n, field.group(1)), f"{card_name(card, n)}: {field.group(1)}: image '{excerpt(name)}' {refusal(name)}"))
    return sorted(set(errors))


def _near_files(name: str, root: Path) -> str:
    """`` (did you mean 'art/a.png'?)`` for an image path that is not there, from the files of
    the folder it names inside the game's folder (at most 1,000 looked at), or nothing."""
    folder = (root / name).parent
    try:
        if not folder.resolve().is_relative_to(root) or not folder.is_dir():
            return ""
        files = [p.relative_to(root).as_posix() for _, p in zip(range(1000), folder.iterdir()) if p.is_file()]
    except (OSError, ValueError):
        return ""
    near = choices(name, files)
    return f" ({near})" if near.startswith("did you mean") else ""


def _unknown_copies_field(game: Document, index: int, doc: Document) -> ContentError | None:
    """One error at ``game.yaml``'s ``copies`` when it names a field that no card of the deck
    has (a typo there, not in every card), with the nearest field the cards do have."""
    copies = game.data["decks"][index].get("copies")
    if not isinstance(copies, str) or not doc.data["cards"] or any(copies in card for card in doc.data["cards"]):
        return None  # (before the header's places: a large file's are worked out only for an error)
    columns = [p[1] for p in doc.positions if len(p) == 2 and p[0] == "columns"]  # a table's header (csvcards)
    if copies in columns:
        return None
    fields = [excerpt(f, 40) for f in columns or dict.fromkeys(k for card in doc.data["cards"] for k in card)]
    what = "a column" if columns else "a field of any card"
    return game.error(("decks", index, "copies"), f"decks[{index}].copies: '{excerpt(copies)}' is not {what} of {doc.display} "
                                                  f"({choices(copies, fields)}); copies is a number, or the field that holds each card's copies")


def card_name(card: dict, n: int, deck: dict | None = None) -> str:
    """How a message names card ``n`` (0-based) of a file: ``card 'owl'`` by its id, else by the
    id it prints with in ``deck`` (``card 'cards-5'``), else by its place, ``card 5``."""
    if card.get("id") not in (None, ""):
        return f"card '{excerpt(str(card['id']))}'"
    return f"card '{deck['id']}-{n + 1}'" if deck is not None else f"card {n + 1}"


#: A ``{field}`` (or ``{group.field}``) placeholder of a layout's text.
_PRINTED = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")


def printed_fields(kind_spec: dict) -> list[tuple[str, ...]]:
    """The field paths a card kind's face and back print as text (``{title}`` -> ``("title",)``,
    ``{stats.attack}`` -> ``("stats", "attack")``), in order, each once; the elements of a
    ``rows`` element read their list's items, not the card, and are left out."""
    found: dict[tuple[str, ...], None] = {}
    for side in ("face", "back"):
        for element in kind_spec.get(side, []):
            if element.get("type") == "text" and isinstance(element.get("text"), str):
                found.update(dict.fromkeys(tuple(m.split(".")) for m in _PRINTED.findall(element["text"])))
    return list(found)


def unprintable_errors(doc: Document, deck: dict, kind_spec: dict, at_deck: tuple[Document, int] | None = None) -> list[ContentError]:
    """An error at the value's own line and column for every printed field (see
    :func:`printed_fields`) of a card of ``doc`` whose value has no printed form: ``true`` or
    ``false``, a list, a group of fields.  Text and numbers print; ``null`` is an absent value
    (as an empty CSV cell), never the text ``None``.  A derived field's value is the deck's
    doing, not the card's: with ``at_deck`` (game.yaml and the deck's index) it is one error at
    its ``derive`` line, with how many cards it touches."""
    paths = printed_fields(kind_spec)
    derived = set(deck.get("derive") or {}) if at_deck else set()
    errors = []
    by_derived: dict[tuple, list] = {}
    for n, card in enumerate(doc.data["cards"] if paths else ()):
        for path in paths:
            value: object = card
            for part in path:
                value = value.get(part) if isinstance(value, dict) else None
            if isinstance(value, (bool, list, dict)):
                what = ("yes/no value" if isinstance(value, bool) else "list" if isinstance(value, list) else "group of fields")
                name = ".".join(path)
                hint = ("test it with when:, or write the text to print" if isinstance(value, bool)
                        else "print its parts by name ({" + name + ".part})" if isinstance(value, dict)
                        else "print its items with a rows element, or write it as one text")
                if path[0] in derived:
                    by_derived.setdefault((path[0], name, what, hint), []).append((card, n, value))
                    continue
                errors.append(doc.error(("cards", n, *path), f"{card_name(card, n, deck)}: {name}: a {what} ({excerpt(json.dumps(value, ensure_ascii=False))}) "
                                                                f"has no printed form, and the layout prints {{{name}}}: {hint}"))
    for (field, name, what, hint), cards in by_derived.items():
        game, i = at_deck  # type: ignore[misc]
        card, n, value = cards[0]
        more = f" (and {len(cards) - 1} more card{'s' if len(cards) > 2 else ''})" if len(cards) > 1 else ""
        errors.append(game.error(("decks", i, "derive", field), f"decks[{i}].derive.{field}: gives {card_name(card, n, deck)}{more} "
                                                                 f"a {what} ({excerpt(json.dumps(value, ensure_ascii=False))}), which has no printed form, "
                                                                 f"and the layout prints {{{name}}}: {hint}"))
    return errors


def _card_errors(doc: Document, deck: dict) -> list[ContentError]:
    if not doc.data["cards"]:  # a file of fields and no cards: the deck would print nothing, silently
        return [doc.error(("cards",), f"deck '{deck['id']}' has no cards: each row after the field names is a card, and a deck "
                                      "holds one at least")]
    errors = []
    copies = deck.get("copies", 1)
    ids: dict[str, int] = {}
    for n, card in enumerate(doc.data["cards"]):
        if isinstance(copies, str):
            value = card.get(copies)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COPIES:
                errors.append(doc.error(("cards", n, copies), f"{card_name(card, n)}: {copies}: expected a whole number of copies from 0 to {MAX_COPIES}, "
                                                        f"found {'nothing (the cell is empty)' if value is None else quoted(value)}"))
        if card.get("id") is not None:  # a null id is no id: the card is '<deck>-<n>'
            cid = str(card["id"])
            if cid in ids:
                errors.append(doc.error(("cards", n, "id"), f"card {n + 1}: duplicate id '{cid}' (first used by card {ids[cid] + 1}): ids must be unique in a deck"))
            ids.setdefault(cid, n)
    return errors
