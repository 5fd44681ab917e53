"""50 Missions: each mission's odds, counted once per deck and condition.

Checking 50 Missions content counts, for every mission, the displays that meet it
(:func:`~deckpress.generator.content.fifty_missions_conditions.count_displays`): about 1.1 s of
CPU for the 50 shipped missions, paid by every process that loads the game (each ``simulate`` and
``check`` worker).  The count depends only on the deck and the condition, so it is kept by a key
of both (SHA-256 of their JSON):

1. in this process;
2. in ``odds-cache.json`` beside the shipped content (in the wheel): the shipped missions, written
   by ``python -m deckpress.generator.content.fifty_missions_odds``, which a test keeps current;
3. in the user's cache, ``$XDG_CACHE_HOME/deckpress/fifty-missions-odds.json`` (default
   ``~/.cache``): fan decks and missions, written atomically, at most :data:`MAX_ENTRIES`.

A cache file is data deckpress wrote, but read as untrusted: size-checked, and an entry that is
not two whole numbers is ignored.  A cache that cannot be read or written is skipped silently
(the count is then made again): it never changes a result.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping

from deckpress.generator.content.fifty_missions_conditions import (
    Condition,
    SymbolDeck,
    count_displays,
)
from deckpress.generator.paths import CONTENT_DIR

SHIPPED_CACHE = CONTENT_DIR / "fifty-missions" / "odds-cache.json"
MAX_ENTRIES = 10_000
MAX_CACHE_BYTES = 2 * 1024 * 1024
_memo: dict[str, tuple[int, int]] = {}
_files: dict[Path, dict[str, tuple[int, int]]] = {}


def user_cache() -> Path:
    """The user's cache file of counts."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "deckpress" / "fifty-missions-odds.json"


def key(deck: SymbolDeck, spec: Mapping[str, Any]) -> str:
    """The cache key of a condition (its schema-valid data) on a deck."""
    data = {"symbols": list(deck.symbols), "colours": deck.colours, "values": list(deck.values), "copies": deck.copies,
            "aliases": deck.aliases, "condition": spec}
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=True).encode("ascii")).hexdigest()


def counted(deck: SymbolDeck, spec: Mapping[str, Any], condition: Condition) -> tuple[int, int]:
    """``(displays meeting the condition, all displays)``, from a cache or counted (and kept).

    Raises:
        OddsTooCostly: as :func:`count_displays` (never cached: it is found before counting).
    """
    k = key(deck, spec)
    found = _memo.get(k) or _read(SHIPPED_CACHE).get(k) or _read(user_cache()).get(k)
    if found is None:
        found = count_displays(condition, deck)
        _remember(k, found)
    _memo[k] = found
    return found


def _read(path: Path) -> dict[str, tuple[int, int]]:
    if path not in _files:
        entries: dict[str, tuple[int, int]] = {}
        try:
            if path.stat().st_size <= MAX_CACHE_BYTES:
                data = json.loads(path.read_text("utf-8"))
                if isinstance(data, dict):
                    entries = {k: (v[0], v[1]) for k, v in data.items()
                               if isinstance(v, list) and len(v) == 2 and all(type(n) is int and n >= 0 for n in v)}
        except (OSError, ValueError):
            pass
        _files[path] = entries
    return _files[path]


def _remember(k: str, found: tuple[int, int]) -> None:
    """Add an entry to the user's cache (atomically; nothing when it cannot be written)."""
    from deckpress.generator.output import OutputError, write_atomic

    path = user_cache()
    entries = dict(_read(path))
    if len(entries) >= MAX_ENTRIES:
        return
    entries[k] = found
    try:
        write_atomic(path, json.dumps({e: list(v) for e, v in entries.items()}, sort_keys=True).encode("utf-8"))
    except OutputError:
        return
    _files[path] = entries


def shipped_entries() -> dict[str, list[int]]:
    """The counts of the shipped missions, as ``odds-cache.json`` holds them."""
    from deckpress.generator.content import load_game
    from deckpress.generator.content.fifty_missions import compile_missions, symbol_deck

    content = load_game("fifty-missions")
    deck = symbol_deck(content)
    compiled, _ = compile_missions(deck, content.documents["missions"])
    return {key(deck, mission["condition"]): list(count_displays(condition, deck)) for mission, condition in compiled}


if __name__ == "__main__":
    SHIPPED_CACHE.write_text(json.dumps(shipped_entries(), sort_keys=True, indent=1) + "\n", "utf-8")
    print(f"wrote {SHIPPED_CACHE}")
