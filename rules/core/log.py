"""Game logs: a header and the ordered events of one game, chance outcomes included.

Two formats hold the same content (``docs/game-logs.md`` documents them with an example):

* YAML (``.yaml``/``.yml``): a mapping with ``game``, optional ``params``, ``seed``,
  ``content_hash``, ``engine``, ``result`` and the list ``events``, one flow mapping per event:
  ``- {seat: 1, play: Karnataka}``.  A person at the table can write one by hand.
* JSON Lines (``.jsonl``): the header object on the first line, one event object per line, and
  optionally a last ``{"result": ...}`` line.

Events use names, never internal numbers; each game documents its event keys.  One shorthand is
shared by all games: an event with ``cards: [a, b, c]`` stands for the same event three times with
``card: a``, ``card: b``, ``card: c`` (a deal written on one line).

Logs are untrusted input: YAML goes through :mod:`deckpress.generator.content.yamlsafe`, JSON Lines through
:func:`json.loads` with byte and line-length limits; every problem is a :class:`LogError` with
the file and line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from deckpress.generator.content import gate
from deckpress.generator.content.errors import display_path
from deckpress.generator.content.safetext import strict_json
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.rules.core.errors import IllegalAction, LogError, Reason

if TYPE_CHECKING:
    from deckpress.rules.core.game import Game

MAX_LOG_BYTES = 5_000_000
MAX_LINE_CHARS = 100_000
HEADER_KEYS = ("game", "engine", "content_hash", "seed", "ruleset", "params", "events", "result", "language")
_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 _.+'()/-]*$")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


@dataclass
class GameLog:
    """One game's record.  ``lines[i]`` is the 1-based line of ``events[i]`` in its file (0 when
    the log was not read from a file); ``source`` is how the file is named in messages."""

    game: str
    events: list[Any]
    params: dict[str, Any] = field(default_factory=dict)
    ruleset: str | None = None
    seed: int | None = None
    content_hash: str | None = None
    engine: str | None = None
    result: dict[str, Any] | None = None
    source: str = "<log>"
    lines: list[int] = field(default_factory=list)
    params_line: int = 0
    result_line: int = 0
    language: str | None = None  # the edition whose printed names the events use (None: the game folder's own language, or ids)

    def line_of(self, index: int) -> int:
        """The line of event ``index`` (0-based), or 0 when unknown."""
        return self.lines[index] if index < len(self.lines) else 0


def expand(event: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The single events an event stands for: ``cards: [a, b]`` becomes ``card: a`` then ``card: b``.

    Raises:
        IllegalAction: ``log.malformed-event`` for a ``cards`` that is not a non-empty list, or
            both ``card`` and ``cards``.
    """
    if "cards" not in event:
        yield event
        return
    cards = event["cards"]
    if "card" in event or not isinstance(cards, list) or not cards:
        raise IllegalAction(Reason.MALFORMED_EVENT, "'cards' must be a non-empty list of card names (and no 'card' beside it)")
    rest = {k: v for k, v in event.items() if k != "cards"}
    for card in cards:
        yield {**rest, "card": card}


def record(game: "Game", history: list[tuple[int, int]], seed: int | None = None) -> GameLog:
    """The log of a game played from ``game.new_state()`` with ``history`` ((seat, action) pairs),
    consecutive single-card events of one kind and seat merged into ``cards`` lists."""
    state = game.new_state()
    events: list[dict[str, Any]] = []
    for seat, action in history:
        event = state.action_to_event(action, seat)
        state.apply_trusted(action, seat)
        previous = events[-1] if events else None
        if previous is not None and "card" in event and _same_but_card(previous, event):
            if "card" in previous:
                previous["cards"] = [previous.pop("card")]
            previous["cards"].append(event["card"])
        else:
            events.append(event)
    result = None
    if state.is_terminal():
        result = {"scores": [_number(x) for x in state.returns()], "winners": state.winners()}
    return GameLog(game=game.info.id, events=events, params=dict(game.params), seed=seed,
                   content_hash=game.content_hash, engine=game.engine_version(), result=result)


def _same_but_card(previous: dict[str, Any], event: dict[str, Any]) -> bool:
    keys = set(event) - {"card"}
    return set(previous) - {"card", "cards"} == keys and all(previous[k] == event[k] for k in keys)


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


# -- reading ----------------------------------------------------------------------------------
def read_log(path: Path) -> GameLog:
    """Read a YAML or JSON Lines log (by extension: ``.jsonl`` is JSON Lines, anything else YAML).

    Raises:
        LogError: unreadable file, too large, not valid YAML/JSON, or a header that is not a log's
            (every YAML problem of the file listed).
    """
    shown = display_path(path)
    if path.suffix.lower() == ".jsonl":
        return _read_jsonl(path, shown)
    doc, errors = load_yaml(path, shown, max_bytes=MAX_LOG_BYTES)
    if doc is None:
        first = errors[0]
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise LogError(f"{shown}:{first.line}" if first.line else shown, first.message + more)
    data = doc.data
    if not isinstance(data, dict):
        raise LogError(shown, "a game log is a mapping with 'game', 'params' and 'events' (docs/game-logs.md)")
    log = _from_header(data, shown, lambda key: doc.where((key,), key=True)[0])
    log.lines = [doc.where(("events", i))[0] for i in range(len(log.events))]
    log.params_line = doc.where(("params",))[0] if "params" in data else 0
    log.result_line = doc.where(("result",))[0] if "result" in data else 0
    return log


def _read_jsonl(path: Path, shown: str) -> GameLog:
    try:
        text = gate.read_text(path, None, MAX_LOG_BYTES)
    except gate.GateError as exc:
        raise LogError(f"{shown}:{exc.line}" if exc.line else shown, f"file {exc}") from None
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_CHARS:
            raise LogError(f"{shown}:{number}", f"line is longer than {MAX_LINE_CHARS:,} characters")
        try:
            rows.append((number, strict_json(line)))
        except (ValueError, RecursionError) as exc:
            raise LogError(f"{shown}:{number}", f"not valid JSON: {exc}") from None
    if not rows or not isinstance(rows[0][1], dict) or "game" not in rows[0][1]:
        raise LogError(f"{shown}:{rows[0][0] if rows else 1}", "the first line of a JSON Lines log is its header: {\"game\": ..., \"params\": {...}}")
    header_line, header = rows[0]
    result_line = 0
    if len(rows) > 1 and isinstance(rows[-1][1], dict) and set(rows[-1][1]) == {"result"}:
        result_line, last = rows.pop()
        header = {**header, "result": last["result"]}
    header = {**header, "events": [event for _, event in rows[1:]]}
    log = _from_header(header, shown, lambda key: header_line)
    log.lines = [number for number, _ in rows[1:]]
    log.params_line, log.result_line = header_line, result_line
    return log


def _from_header(data: dict[str, Any], shown: str, line_of: Any) -> GameLog:
    unknown = [k for k in data if k not in HEADER_KEYS]
    if unknown:
        raise LogError(f"{shown}:{line_of(unknown[0])}", f"unknown key '{unknown[0]}' in the log's header (known keys: {', '.join(HEADER_KEYS)})")
    for key, kind, what in (("game", str, "a game id"), ("events", list, "a list of events"), ("params", dict, "a mapping"),
                            ("seed", int, "a whole number"), ("content_hash", str, "a string"), ("engine", str, "a string"),
                            ("ruleset", str, "a ruleset's name"), ("language", str, "a language code (fr, de, hi)"),
                            ("result", dict, "a mapping")):
        if key in ("game", "events") and key not in data:
            raise LogError(shown, f"a game log needs '{key}' ({what}): see docs/game-logs.md")
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise LogError(f"{shown}:{line_of(key)}", f"'{key}' must be {what}")
    return GameLog(game=data["game"], events=data["events"] or [], params=data.get("params") or {}, ruleset=data.get("ruleset"), seed=data.get("seed"),
                   content_hash=data.get("content_hash"), engine=data.get("engine"), result=data.get("result"), source=shown,
                   language=data.get("language"))


# -- writing ----------------------------------------------------------------------------------
def to_yaml(log: GameLog) -> str:
    """The log as YAML, one event per line (the format a person would write by hand)."""
    out = ["# deckpress game log (format: docs/game-logs.md)", f"game: {_flow(log.game)}"]
    for key in ("language", "engine", "content_hash", "seed", "ruleset"):
        if getattr(log, key) is not None:
            out.append(f"{key}: {_flow(getattr(log, key))}")
    out.append("params:")
    out.extend(f"  {k}: {_flow(v)}" for k, v in log.params.items())
    out.append("events:" if log.events else "events: []")  # a bare 'events:' reads back as null
    out.extend(f"  - {_flow(e)}" for e in log.events)
    if log.result is not None:
        out.append(f"result: {_flow(log.result)}")
    return "\n".join(out) + "\n"


def to_jsonl(log: GameLog) -> str:
    """The log as JSON Lines: header, events, result."""
    header = {k: v for k, v in (("game", log.game), ("language", log.language), ("engine", log.engine), ("content_hash", log.content_hash),
                                ("seed", log.seed), ("params", log.params)) if v is not None}
    lines = [header, *log.events] + ([{"result": log.result}] if log.result is not None else [])
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def format_event(event: Any) -> str:
    """An event in its one-line log form: ``{seat: 1, play: Karnataka}``."""
    return _flow(event)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str) and _PLAIN.match(value) and value.lower() not in _RESERVED:
        return value
    return json.dumps(value, ensure_ascii=False)
