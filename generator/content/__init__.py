"""Loading a game's content folder: every file parsed safely, schema-checked and semantically
checked, all errors collected.

A game is what its ``game.yaml`` says, wherever its folder lives: ``deckpress build editions/2026``
and ``deckpress build mission-emission`` (a shipped game, by id) load the same way, and a copy of
Mission Emission in ``me-india/`` is Mission Emission because its ``game.yaml`` says
``id: mission-emission``.  Every file is read through :mod:`deckpress.generator.content.gate`: inside the
game's folder after following links, regular, size-checked.

Two kinds of game:

* **The shipped games with code** (Mission Emission, 50 Missions, Maybe Missions, Geheime
  Mission): their card files are fixed (``generator/content/<game>.py`` ``FILES``), each
  ``<stem>.yaml`` checked by ``schemas/<game-id>.<stem>.schema.json``, plus their own semantic
  checks.
* **Games from data alone**: ``game.yaml`` declares ``decks``, each naming its card file (YAML or
  CSV), an optional JSON Schema for one card (in the game's folder), its card size, its layout
  and copies per card (``generator/content/data.py``).

``game.yaml`` → ``schemas/game.schema.json`` and ``layout.yaml`` → ``schemas/layout.schema.json``
for every game.  A YAML file's first line may name its schema for editors (``# yaml-language-server:
$schema=.../<schema>.json``): when it does, it must name the schema deckpress checks, so what an
editor checks while a person types is what ``deckpress validate`` checks.
"""
from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Mapping

from deckpress.generator.content import semantic
from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.schema import schema_exists, validate
from deckpress.generator.content.yamlsafe import Document, load_yaml
from deckpress.generator.paths import CONTENT_DIR

SCHEMA_COMMENT = "# yaml-language-server: $schema="
GAME_FILE = "game.yaml"
#: The shipped games with code of their own: id -> module name.  The module of that name here
#: holds the game's content model (files, checks, facts the rules engine reads); the one of the
#: same name in :mod:`deckpress.generator.kit.adapters` turns the content into cards to print.
SHIPPED = {
    "mission-emission": "mission_emission",
    "fifty-missions": "fifty_missions",
    "maybe-missions": "maybe_missions",
    "geheime-mission": "geheime_mission",
}


def shipped_games() -> list[str]:
    """The ids of the games whose content ships with deckpress, sorted."""
    return sorted(SHIPPED)


@dataclass(frozen=True)
class GameContent:
    """A game's validated content: plain data by file stem, with positions for error messages.

    ``content["states"]`` is the parsed data of ``states.yaml`` (or ``states.csv``);
    ``documents`` keeps the :class:`Document` (positions included).  ``root`` is the game's
    folder.  ``content_hash`` is a SHA-256 of the canonical JSON of all documents' data: the same
    content gives the same hash, whatever the formatting.
    """

    game_id: str
    root: Path
    documents: Mapping[str, Document]

    def __getitem__(self, stem: str) -> Any:
        return self.documents[stem].data

    @property
    def module(self) -> ModuleType:
        """The content module that knows this game's files and checks (:func:`module_for`)."""
        return module_for(self.game_id)

    @property
    def content_hash(self) -> str:
        """``sha256:<hex>`` of the content's data (comments and formatting do not count)."""
        canonical = json.dumps({k: d.data for k, d in sorted(self.documents.items())}, sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def module_for(game_id: str) -> ModuleType:
    """The content module of ``game_id``: a shipped game's own, else
    :mod:`deckpress.generator.content.data` (games made from data alone)."""
    return importlib.import_module(f"deckpress.generator.content.{SHIPPED.get(game_id, 'data')}")


def schema_for(game_id: str, stem: str) -> str:
    """The deckpress schema file name for ``<stem>.yaml`` in a shipped game ``game_id``."""
    if stem in ("game", "layout"):
        return f"{stem}.schema.json"
    return f"{game_id}.{stem}.schema.json"


def find_game(game: str | Path) -> Path:
    """The folder of ``game``: a path to a game folder, a file inside one (its nearest folder
    holding ``game.yaml``), or a shipped game's id.

    Raises:
        ContentErrors: neither a folder, a file in a game folder, nor a shipped game (the
            message lists the shipped games).
    """
    p = Path(game)
    if p.is_dir():
        return p
    if p.is_file():
        for folder in p.resolve().parents:
            if (folder / GAME_FILE).is_file():
                return folder
        raise ContentErrors([ContentError(display_path(p), 0, 0, f"not in a game folder: no {GAME_FILE} beside it or in a folder above it")])
    if str(game) in shipped_games():
        return CONTENT_DIR / str(game)
    raise ContentErrors([ContentError(str(game), 0, 0, f"no such game folder, and no shipped game of that id (shipped games: {', '.join(shipped_games())})")])


def check_game(folder: Path) -> tuple[GameContent | None, list[ContentError]]:
    """Load and check one game folder without raising.

    Returns ``(content, [])`` when clean, else ``(None, errors)`` with every error found:
    parse errors and schema errors of every file, and, once every file parses, the semantic
    checks as far as the data can be read (:func:`semantic_errors`).
    """
    folder = Path(folder)
    shown_dir = display_path(folder)
    if not folder.is_dir():
        return None, [ContentError(shown_dir, 0, 0, f"no such game folder, and no shipped game of that id (shipped games: {', '.join(shipped_games())})")]
    root = folder.resolve()
    game_path = folder / GAME_FILE
    if not game_path.exists() and not game_path.is_symlink():
        return None, [ContentError(shown_dir, 0, 0, f"not a game folder: it has no {GAME_FILE} (make one with 'deckpress init NAME')")]
    game_doc, errors = load_file(game_path, "game.schema.json", root)
    valid_game = game_doc if not errors else None  # which files a game has is read from a valid game.yaml only
    # A broken game.yaml without an id is checked as a game made from data ("" is no shipped
    # game's id, so module_for gives that module).
    game_id = _game_id(valid_game, game_path, root) or ""
    module = module_for(game_id)
    documents: dict[str, Document] = {"game": game_doc} if game_doc is not None else {}
    if hasattr(module, "content_files"):
        files = module.content_files(valid_game) if valid_game is not None else []
    else:
        files = shipped_files(folder, game_id, module.FILES)
    for stem, path, loader in files:
        if stem == "game":
            continue
        doc, errs = loader(path, root)
        errors.extend(errs)
        if doc is not None:
            documents[stem] = doc
    if not errors:
        return check_documents(game_id, folder, documents)
    if len(documents) == 1 + sum(stem != "game" for stem, _, _ in files):  # every file parsed: check across them too
        errors += new_places(semantic_errors(game_id, folder, documents), errors)
    return None, errors


def game_id_of(folder: Path) -> str | None:
    """The ``id`` a game folder's ``game.yaml`` gives, read loosely (the file need not be valid);
    None when there is none."""
    return _game_id(None, Path(folder) / GAME_FILE, Path(folder).resolve())


def _game_id(game_doc: Document | None, path: Path, root: Path) -> str | None:
    """The game's id from a valid ``game.yaml``, or read loosely from a broken one (to pick the
    right schemas for the other files' errors)."""
    if game_doc is not None:
        return game_doc.data["id"]
    loose, _ = load_yaml(path, root=root)
    data = loose.data if loose is not None else None
    return data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None


def shipped_files(folder: Path, game_id: str, required: tuple[str, ...]):
    """``(stem, path, loader)`` for every ``*.yaml`` in a shipped game's folder (each checked by
    its deckpress schema) and for each ``required`` stem, missing or not (so a missing file is
    reported by the loader)."""
    stems = sorted({p.stem for p in folder.glob("*.yaml")} | set(required))
    return [(stem, folder / f"{stem}.yaml", _yaml_loader(schema_for(game_id, stem))) for stem in stems]


def _yaml_loader(schema_name: str):
    return lambda path, root: load_file(path, schema_name, root)


def document_errors(game_id: str, stem: str, doc: Document, documents: Mapping[str, Document]) -> list[ContentError]:
    """The schema errors of one parsed document of game ``game_id`` (used again on a variant's
    merged copy): the game's content module decides how its files are checked."""
    module = module_for(game_id)
    if hasattr(module, "document_errors"):
        return module.document_errors(stem, doc, documents["game"])
    return validate(doc, schema_for(game_id, stem))


def check_documents(game_id: str, root: Path, documents: dict[str, Document]) -> tuple[GameContent | None, list[ContentError]]:
    """The semantic checks of a game (shared ones, then the game's own) on parsed,
    schema-valid documents.  Returns ``(content, [])`` or ``(None, errors)``."""
    content = GameContent(game_id, Path(root), MappingProxyType(documents))
    errors = semantic.game_file(content) or content.module.check(content) + semantic.printed_off_card(content)  # the game's checks read game.yaml
    if errors:
        return None, errors
    return content, []


def semantic_errors(game_id: str, root: Path, documents: dict[str, Document]) -> list[ContentError]:
    """The semantic checks of :func:`check_documents` on documents that have schema errors, as
    far as their data can be read: errors in parts the schema already refused come out twice or
    stop a check early, so a check that cannot read the data ends with one line saying so.
    Errors of the schema come first in every report; this adds what else can be found."""
    try:
        content = GameContent(game_id, Path(root), MappingProxyType(documents))
        return semantic.game_file(content) + content.module.check(content)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # data the schema refused, read as if valid
        game = documents.get("game")
        shown = game.display if game is not None else display_path(root)
        return [ContentError(shown, 0, 0, "the cross-file checks stopped at data the schema refused: they run in full once "
                                          "the errors above are fixed")]


def new_places(found: list[ContentError], known: list[ContentError]) -> list[ContentError]:
    """The errors of ``found`` on lines that no error of ``known`` is on: a later check's view
    of a mistake an earlier check already reported there is not a second mistake."""
    lines = {(e.path, e.line) for e in known if e.line}
    return [e for e in found if not e.line or (e.path, e.line) not in lines]


#: Record lists of the files every game has: a variant changes the box's counts in game.yaml.
COMMON_RECORD_LISTS = {"game": "components"}


def record_list(game_id: str, stem: str, data: Any) -> str | None:
    """The key of the list of cards (records with an ``id``) in a content file: the game module's
    ``RECORD_LISTS[stem]`` if it declares one (or :data:`COMMON_RECORD_LISTS`), else the file's
    only top-level list of records."""
    if not isinstance(data, dict):
        return None
    declared = {**COMMON_RECORD_LISTS, **getattr(module_for(game_id), "RECORD_LISTS", {})}
    if stem in declared:
        return declared[stem] if isinstance(data.get(declared[stem]), list) else None
    keys = [k for k, v in data.items() if isinstance(v, list) and v and all(isinstance(r, dict) and "id" in r for r in v)]
    return keys[0] if len(keys) == 1 else None


def card_locator(content: GameContent):
    """``locate(source, card_id) -> (document, path) | None``: where the card ``card_id`` of the
    content file named ``source`` (``"states.yaml"``) is written, for errors at the card's own
    line (found by the record's ``id`` in the file's record list; None for a card made by a
    game's code rather than written as a record)."""
    places: dict[tuple[str, str], tuple[Document, tuple]] = {}
    for stem, doc in content.documents.items():
        key = record_list(content.game_id, stem, doc.data)
        if key is None:
            continue
        for index, record in enumerate(doc.data[key]):
            if isinstance(record, dict) and "id" in record:
                places.setdefault((Path(doc.path).name, str(record["id"])), (doc, (key, index)))
    return lambda source, card_id: places.get((source, card_id))


def load_game(game: str | Path) -> GameContent:
    """Load and check a game's content.

    Args:
        game: a shipped game's id (``"mission-emission"``), or a path to a game folder (or to a
            file in one).

    Raises:
        ContentErrors: with every error found, when the content is not valid or not found.
    """
    content, errors = check_game(find_game(game))
    if errors:
        raise ContentErrors(errors)
    assert content is not None, "check_game returns content exactly when it finds no error"
    return content


def load_file(path: Path, schema_name: str, root: Path | None = None) -> tuple[Document | None, list[ContentError]]:
    """Parse one content file safely (through the gate, inside ``root``) and validate it against
    the deckpress schema ``schemas/<schema_name>``.

    Also checks that the file's first line, if it names a schema for editors, names that one.
    Returns ``(document, errors)``: the document is None when the file cannot be read or parsed,
    and comes with its schema errors otherwise (so that later checks can still read it).
    """
    shown = display_path(path)
    if not schema_exists(schema_name):
        return None, [ContentError(shown, 0, 0, f"unknown content file '{path.name}': there is no schema {schema_name} for it")]
    doc, errors = load_yaml(path, shown, root=root)
    if doc is None:
        return None, errors
    return doc, schema_comment(doc, schema_name) + validate(doc, schema_name)


def schema_comment(doc: Document, schema_name: str) -> list[ContentError]:
    """An error if the file's ``$schema`` modeline names another schema than ``schema_name``
    (any folder or URL before the file name is fine: editors outside the checkout point it at
    the folder ``deckpress schemas DIR`` wrote)."""
    first = doc.first_line.strip()
    if not first.startswith(SCHEMA_COMMENT):
        return []
    named = first[len(SCHEMA_COMMENT):].strip().rsplit("/", 1)[-1]
    if named != schema_name:
        return [ContentError(doc.display, 1, 1, f"the first line names the schema '{named}' for editors, but this file is checked by '{schema_name}': "
                                                f"write '{SCHEMA_COMMENT}<folder>/{schema_name}'")]
    return []
