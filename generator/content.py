"""Loading a game's content folder: every file parsed safely, schema-checked and semantically
checked, all errors collected.

A game folder ``content/<game>/`` holds ``game.yaml``, ``layout.yaml`` and the game's own card
files.  Each file's schema follows from its name: ``game.yaml`` → ``schemas/game.schema.json``,
``layout.yaml`` → ``schemas/layout.schema.json``, any other ``<stem>.yaml`` →
``schemas/<game>.<stem>.schema.json``.  The first line of each file names the same schema for
editors (``# yaml-language-server: $schema=../../schemas/...``); a mismatch is an error, so what an
editor checks while a person types is what ``deckpress validate`` checks.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from deckpress.generator import checks
from deckpress.generator.errors import ContentError, ContentErrors, display_path
from deckpress.generator.games import game_module, known_games
from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.schema import schema_exists, validate
from deckpress.generator.yamlsafe import Document, load_yaml

SCHEMA_COMMENT = "# yaml-language-server: $schema="


@dataclass(frozen=True)
class GameContent:
    """A game's validated content: plain data by file stem, with positions for error messages.

    ``content["states"]`` is the parsed data of ``states.yaml``; ``documents`` keeps the
    :class:`Document` (positions included).  ``content_hash`` is a SHA-256 of the canonical JSON of
    all documents' data: the same content gives the same hash, whatever the formatting.
    """

    game_id: str
    root: Path
    documents: Mapping[str, Document]

    def __getitem__(self, stem: str) -> Any:
        return self.documents[stem].data

    @property
    def content_hash(self) -> str:
        """``sha256:<hex>`` of the content's data (comments and formatting do not count)."""
        canonical = json.dumps({k: d.data for k, d in sorted(self.documents.items())}, sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def schema_for(game_id: str, stem: str) -> str:
    """The schema file name for ``<stem>.yaml`` in game ``game_id``."""
    if stem in ("game", "layout"):
        return f"{stem}.schema.json"
    return f"{game_id}.{stem}.schema.json"


def game_dir(game: str | Path, content_dir: Path = CONTENT_DIR) -> Path:
    """The folder of ``game``: a path to a folder, or a shipped game's id."""
    p = Path(game)
    if p.is_dir():
        return p
    return content_dir / str(game)


def check_game(folder: Path) -> tuple[GameContent | None, list[ContentError]]:
    """Load and check one game folder without raising.

    Returns ``(content, [])`` when clean, else ``(None, errors)`` with every error found:
    parse errors and schema errors of every file, then (if those pass) the semantic checks.
    """
    folder = Path(folder)
    shown_dir = display_path(folder)
    game_id = folder.name
    if not folder.is_dir():
        return None, [ContentError(shown_dir, 0, 0, f"no such game folder (known games: {', '.join(known_games())})")]
    module = game_module(game_id)
    if module is None:
        return None, [ContentError(shown_dir, 0, 0, f"unknown game '{game_id}' (known games: {', '.join(known_games())})")]

    errors: list[ContentError] = []
    documents: dict[str, Document] = {}
    present = sorted(folder.glob("*.yaml"))
    for path in present:
        doc, errs = load_file(path, schema_for(game_id, path.stem))
        errors.extend(errs)
        if doc is not None:
            documents[path.stem] = doc
    for stem in module.FILES:
        if not (folder / f"{stem}.yaml").exists():
            errors.append(ContentError(shown_dir, 0, 0, f"missing content file {stem}.yaml (a {game_id} folder needs: {', '.join(f + '.yaml' for f in module.FILES)})"))
    if errors:
        return None, errors

    return check_documents(game_id, folder, documents)


def check_documents(game_id: str, root: Path, documents: dict[str, Document]) -> tuple[GameContent | None, list[ContentError]]:
    """The semantic checks of a game (shared ones, then the game's own) on parsed,
    schema-valid documents.  Returns ``(content, [])`` or ``(None, errors)``."""
    content = GameContent(game_id, root, MappingProxyType(documents))
    errors = checks.game_file(content) + game_module(game_id).check(content)
    if errors:
        return None, errors
    return content, []


def load_game(game: str | Path, content_dir: Path = CONTENT_DIR) -> GameContent:
    """Load and check a game's content.

    Args:
        game: a shipped game's id (``"mission-emission"``) or a path to a game folder.

    Raises:
        ContentErrors: with every error found, when the content is not valid.
    """
    content, errors = check_game(game_dir(game, content_dir))
    if errors:
        raise ContentErrors(errors)
    return content


def load_file(path: Path, schema_name: str) -> tuple[Document | None, list[ContentError]]:
    """Parse one content file safely and validate it against ``schemas/<schema_name>``.

    Also checks that the file's first line names that schema for editors.
    Returns ``(document, [])`` or ``(None, errors)``.
    """
    shown = display_path(path)
    if not schema_exists(schema_name):
        return None, [ContentError(shown, 0, 0, f"unknown content file '{path.name}': there is no schema {schema_name} for it")]
    doc, errors = load_yaml(path, shown)
    if doc is None:
        return None, errors
    errors = _schema_comment(doc, schema_name) + validate(doc, schema_name)
    return (None, errors) if errors else (doc, [])


def _schema_comment(doc: Document, schema_name: str) -> list[ContentError]:
    first = doc.path.read_text("utf-8").split("\n", 1)[0].strip()
    expected = f"{SCHEMA_COMMENT}../../schemas/{schema_name}"
    if first != expected:
        return [ContentError(doc.display, 1, 1, f"the first line must name the file's schema for editors: expected '{expected}'")]
    return []
