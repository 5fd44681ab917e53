"""The table pages: ``GET /table`` (the set-up forms), ``POST /table`` (a new engine table, see
:mod:`deckpress.rules.core.table`), ``POST /table/free`` (a new free-form table of any game,
:mod:`deckpress.generator.studio.freetable`), ``POST /table/load`` (a table from a game log or a
free-form log, or an engine log's step-by-step trace), ``GET /table/{id}`` (an engine table's
page, or a free-form table watched by the designer with each seat's link), ``POST
/table/{id}/play``, ``POST /table/{id}/attempt`` (an engine table's moves) and ``GET
/table/{id}/log.yaml``.  The seats play a free-form table at their own links (:mod:`.seats`).

A game without a rules engine gets the free-form table; an engine's route answers it with a
clear page, never an error."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from deckpress.generator.content.safetext import excerpt, quoted
from deckpress.generator.studio.app import (
    MAX_ACTION,
    MAX_LOG_BYTES,
    MAX_SEATS,
    SEAT_PREFIX,
    Seated,
    engine_id,
)
from deckpress.generator.studio.freeform import (
    MAX_DEAL,
    FreeTable,
    LogProblem,
    plan_from_game,
)
from deckpress.generator.studio.freeform import MAX_SEATS as MAX_FREE_SEATS
from deckpress.generator.studio.freetable import StudioFreeTable, studio_decks
from deckpress.generator.studio.routes import whole
from deckpress.generator.studio.routes.engine import scene_page

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio
    from deckpress.generator.studio.routes import Pages


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The table pages' routes over ``studio``."""

    def setup_page(request: Request, status: int = 200, problem: str | None = None, free_problem: str | None = None) -> HTMLResponse:
        engine = engine_id(studio)
        choices = _setup_choices(engine, studio) if engine else {"engine": None}
        return pages.page("table-setup.html.j2", request, status=status, problem=problem, free_problem=free_problem,
                          free=_free_choices(studio), max_deal=MAX_DEAL, **choices)

    async def table_setup(request: Request) -> HTMLResponse:
        return setup_page(request)

    async def table_new(request: Request) -> Response:
        from deckpress.rules.core.table import Table, TableError

        engine = engine_id(studio)
        if engine is None:
            return setup_page(request, status=404, problem="This game has no rules engine: play it at a free-form table (below).")
        form = await request.form()
        seats = [str(form.get(f"seat{i}", "")) for i in range(8) if form.get(f"seat{i}")]
        params: dict[str, Any] = {}
        for key in ("mode",):
            if form.get(key):
                params[key] = str(form.get(key))
        extra = str(form.get("params", "")).strip()
        try:
            if extra:
                params.update(_parse_params(extra))
            content = await run_in_threadpool(content_of, studio)
            table = await run_in_threadpool(lambda: Table(engine, seats, content=content, ruleset=str(form.get("ruleset") or "") or None,
                                                          params=params, seed=_seed(form.get("seed"))))
        except (TableError, ValueError) as exc:
            return setup_page(request, status=400, problem=str(exc))
        return RedirectResponse(f"/table/{studio.add_table(table, invite=bool(form.get('invite')))}", status_code=303)

    async def free_new(request: Request) -> Response:
        from deckpress.rules.core.table import TableError

        form = await request.form()
        try:
            seats = whole(form.get("seats"), "seats", 1, MAX_FREE_SEATS, optional=True)
            deal = whole(form.get("deal"), "cards dealt to each seat", 0, MAX_DEAL, optional=True) or 0
            seed = whole(form.get("seed"), "seed", 0, 2**31, optional=True)
            content = await run_in_threadpool(content_of, studio)
            game = dict(content["game"])
            table = await run_in_threadpool(lambda: StudioFreeTable.new(studio, game, seats, random_seed() if seed is None else seed, deal))
        except (TableError, ValueError) as exc:
            return setup_page(request, status=400, free_problem=str(exc))
        return RedirectResponse(f"/table/{studio.add_table(table)}", status_code=303)

    async def table_load(request: Request) -> Response:
        from deckpress.rules.core.table import Table, TableError

        engine = engine_id(studio)
        form = await request.form()
        upload = form.get("log")
        try:
            free = await _uploaded_free_log(upload)
        except TableError as exc:
            return setup_page(request, status=400, problem=str(exc), free_problem=str(exc))
        if free is not None:
            return RedirectResponse(f"/table/{studio.add_table(StudioFreeTable(studio, free))}", status_code=303)
        if engine is None:
            message = "This game has no rules engine: only a free-form table's log loads here (its first lines say table: free-form)."
            return setup_page(request, status=400, free_problem=message)
        try:
            log = await _uploaded_log(upload)
            if log.game != engine:
                raise TableError(f"{log.source}: this is a log of {quoted(str(log.game))}, not of {engine}: "
                                 f"start the studio on {quoted(str(log.game))} to load it")
            content = await run_in_threadpool(content_of, studio)
            if form.get("step"):
                steps = await run_in_threadpool(lambda: Table.trace(log, content=content))
                return pages.page("trace.html.j2", request, steps=steps, source=log.source)
            # seat N as the load form's menu N says, a person where it says nothing; as many seats
            # as the log has players (a log without a sensible count is refused by the replay)
            players = log.params.get("players")
            count = players if isinstance(players, int) and not isinstance(players, bool) and 0 < players <= MAX_SEATS else 1
            seats = [str(form.get(f"seat{i}") or "person") for i in range(count)]
            table = await run_in_threadpool(lambda: Table(log.game, seats, content=content, log=log))
        except (TableError, ValueError) as exc:
            return setup_page(request, status=400, problem=str(exc))
        return RedirectResponse(f"/table/{studio.add_table(table)}", status_code=303)

    async def table_page(request: Request) -> HTMLResponse:
        seated = studio.tables.get(request.path_params["ident"])
        if seated is None:
            return pages.page("message.html.j2", request, status=404, heading="No such table", message="Start a new one from the Table page.")
        if hasattr(seated.table, "scene") or seated.spectator_token:  # played at the seats' own links
            return _watched(request, seated)
        return _table_view(request, seated, problem=None)

    def _watched(request: Request, seated: Seated) -> HTMLResponse:
        # the designer's page of a table played at the seats' links: the table as a spectator sees it, and the links
        where = studio.public_url or str(request.base_url)
        links = [(f"Seat {n + 1}", f"{where.rstrip('/')}{SEAT_PREFIX}{token}") for n, token in enumerate(seated.seat_tokens)
                 if token]  # an engine table's bots have no link
        links.append(("Spectator", f"{where.rstrip('/')}{SEAT_PREFIX}{seated.spectator_token}"))
        count = seated.table.seat_count if hasattr(seated.table, "scene") else len(seated.table.seats)
        return pages.scene_page(request, base=SEAT_PREFIX + seated.spectator_token, viewer=None, seat_count=count,
                                links=links, log_url=f"/table/{request.path_params['ident']}/log.yaml", shared=studio.public_url is not None)

    def _table_view(request: Request, seated: Seated, problem: str | None, status: int = 200) -> HTMLResponse:
        ident = request.path_params["ident"]
        table, last = seated.table, seated.last_person
        shown = table.seat_to_show()
        asked = request.query_params.get("seat")
        if shown is not None and table.handover(last) and asked != str(shown):
            return pages.page("handover.html.j2", request, ident=ident, seat=shown)
        seat = shown if shown is not None else (last if last is not None else 0)
        return scene_page(pages, request, seated, seat, problem, status)

    async def table_play(request: Request) -> Response:
        from deckpress.rules.core.errors import IllegalAction

        seated = studio.tables.get(request.path_params["ident"])
        if seated is None:
            return RedirectResponse("/table", status_code=303)
        if hasattr(seated.table, "scene"):  # played at the seats' links, not here
            return RedirectResponse(f"/table/{request.path_params['ident']}", status_code=303)
        table = seated.table
        form = await request.form()
        attempt = request.url.path.endswith("/attempt")
        try:
            seat = whole(form.get("seat"), "seat", 0, len(table.seats) - 1)
            action = None if attempt else whole(form.get("action"), "action", 0, MAX_ACTION)
        except ValueError as exc:  # not a number the page sends: said with what was sent
            return _table_view(request, seated, problem=str(exc), status=400)
        try:
            if attempt:
                text = str(form.get("text", ""))[:300]
                await run_in_threadpool(table.attempt, seat, text)
            else:
                await run_in_threadpool(table.play, seat, action)
        except IllegalAction as exc:
            return _table_view(request, seated, problem=str(exc), status=422)
        except Exception as exc:  # the table's own errors (bad input from the page): shown, not raised
            return _table_view(request, seated, problem=f"{type(exc).__name__}: {exc}", status=422)
        seated.last_person = seat
        return RedirectResponse(f"/table/{request.path_params['ident']}", status_code=303)

    async def table_log(request: Request) -> Response:
        seated = studio.tables.get(request.path_params["ident"])
        if seated is None:
            return Response("no such table", status_code=404, media_type="text/plain")
        name = seated.table.log_name() if hasattr(seated.table, "log_name") else f"{engine_id(studio)}-t{seated.number}.yaml"
        return Response(seated.table.log_yaml(), media_type="application/x-yaml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return [
        Route("/table", table_setup, methods=["GET"]),
        Route("/table", table_new, methods=["POST"]),
        Route("/table/load", table_load, methods=["POST"]),
        Route("/table/free", free_new, methods=["POST"]),
        Route("/table/{ident:str}", table_page),
        Route("/table/{ident:str}/play", table_play, methods=["POST"]),
        Route("/table/{ident:str}/attempt", table_play, methods=["POST"]),
        Route("/table/{ident:str}/log.yaml", table_log),
    ]


def _replay_command(studio: Studio, log_name: str) -> str | None:
    """The command that replays a log downloaded from this studio's table: with ``--content`` the
    variant file or game folder it was played with (none for a shipped game).  None for a variant
    over another game folder than the shipped one (``studio VARIANT --content FOLDER``): ``deckpress
    replay`` takes one ``--content``, and a variant there is played over the shipped game."""
    from deckpress.generator.paths import CONTENT_DIR

    target, shipped = studio.target, (CONTENT_DIR / str(studio.catalogue.game_id)).resolve()
    if studio.catalogue.is_variant and studio.base_folder is not None and Path(studio.base_folder).resolve() != shipped:
        return None
    if studio.catalogue.is_variant or Path(target).resolve() != shipped:
        return f"deckpress replay {log_name} --content {Path(target).name if studio.catalogue.is_variant else target}"
    return f"deckpress replay {log_name}"


def content_of(studio: Studio):
    """The content the table plays: the variant's merged content, the game folder's, or None
    (the shipped game) when the studio shows a shipped game.

    Raises:
        TableError: the content has errors (fix them on the cards page first).
    """
    from deckpress.generator.content import check_game
    from deckpress.generator.content.variant import merged_content
    from deckpress.rules.core.table import TableError

    if studio.catalogue.is_variant:
        content, errors = merged_content(studio.target, studio.base_folder)
    else:
        content, errors = check_game(studio.target)
    if errors or content is None:
        raise TableError(f"the content has {len(errors)} error(s): fix them on the cards page before playing")
    return content


def _setup_choices(engine: str, studio: Studio) -> dict[str, Any]:
    """What the table's setup form offers: modes, rulesets, bots and the seats, with a variant's
    own ruleset and parameters filled in (its players give the number of seats)."""
    from deckpress.generator.content.variant import load_variant
    from deckpress.rules.core.bots import bot_names
    from deckpress.rules.core.registry import game_class

    info = game_class(engine).info
    modes = list(next((p.choices for p in info.params if p.name == "mode"), None) or [])
    players = info.param("players")
    low, high = int(players.low or 1), int(players.high or 6)
    default = players.default if isinstance(players.default, int) else low
    ruleset, params = None, {}
    if studio.catalogue.is_variant:
        variant, _ = load_variant(studio.target)
        if variant is not None:
            ruleset, params = variant.ruleset, variant.parameters
    if isinstance(params.get("players"), int) and low <= params["players"] <= high:
        default = params["players"]
    lines = "\n".join(f"{k}={json.dumps(v, ensure_ascii=False, separators=(',', ':'))}" for k, v in params.items() if k != "players")
    return {"engine": engine, "modes": modes, "rulesets": sorted(info.rulesets), "bots": bot_names(engine),
            "players": default, "min_players": low, "max_players": min(high, 8), "ruleset": ruleset, "params": lines}


def _parse_params(text: str) -> dict[str, Any]:
    """``KEY=VALUE`` pairs, one a line, values as ``deckpress simulate -p`` reads them (JSON, or
    plain text).

    Raises:
        ValueError: a line that is not ``KEY=VALUE``.
    """
    from deckpress.rules.core.params import parse_value

    out = {}
    for item in (line.strip() for line in text.splitlines()):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"expected KEY=VALUE, got {quoted(item)}")
        out[key.strip()] = parse_value(value.strip())
    return out


async def _uploaded_log(upload):
    """The uploaded game log, read within :data:`MAX_LOG_BYTES` through the same reader as
    ``deckpress replay``, named in every message by the uploaded file's own name (escaped, cut
    short; never the temporary file it is read from).

    Raises:
        TableError: no file, too large, or not a log (the reader's message).
    """
    from deckpress.generator.content.errors import display_path
    from deckpress.rules.core.errors import LogError
    from deckpress.rules.core.log import read_log
    from deckpress.rules.core.table import TableError

    if upload is None or not hasattr(upload, "read"):
        raise TableError("choose a game log file (YAML or JSON lines) to load")
    name = excerpt(str(upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1] or "the log")
    data = await upload.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        raise TableError(f"{name}: the log is over {MAX_LOG_BYTES:,} bytes: not a game log")
    suffix = ".jsonl" if str(upload.filename or "").endswith((".jsonl", ".json")) else ".yaml"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"uploaded{suffix}"
        path.write_bytes(data)
        try:
            log = read_log(path)
        except LogError as exc:
            message = str(exc)
            for temporary in (str(path), display_path(path)):
                message = message.replace(temporary, name)
            raise TableError(message) from None
    log.source = name  # the table's and the replay's messages name the log by its source
    return log


def _images_by_name(studio: Studio) -> dict[str, str]:
    """How an engine names a card -> the URL of that card's face image, for showing the cards an
    observation or a move names.  Engines name cards as people do, which is not always a field:
    Mission Emission's "Forest +3" is the point card of name "Forest" and points "+3", 50 Missions'
    "red lighter 5" the symbol card of label "RED LIGHTER" and value "5", a Maybe Missions vote
    the card of that number.  So a card is known by its name, its id, any one of its text fields
    and any two of them joined by a space (compared without case), where that names only this
    card's image (a name or id first; identical copies are one image); a name that fits several
    different cards shows none.  Cached per refresh."""
    cached = studio.card_names
    if cached is not None and cached[0] == studio.version:
        return cached[1]
    exact: dict[str, dict[bytes, str]] = {}  # key -> {image: its URL}: copies of a card are one image
    loose: dict[str, dict[bytes, str]] = {}
    for card in studio.catalogue.cards:
        if card.side != "face" or card.png is None:
            continue
        url = f"/card/{card.token}.png?v={card.version}"
        exact.setdefault(card.name.lower(), {}).setdefault(card.png, url)
        exact.setdefault(card.card_id.lower(), {}).setdefault(card.png, url)
        values = [str(v).lower() for k, v in card.fields.items()
                  if k not in ("id", "source") and isinstance(v, (str, int)) and not isinstance(v, bool) and len(str(v)) <= 40]
        for a in values:
            loose.setdefault(a, {}).setdefault(card.png, url)
            for b in values:
                if a != b:
                    loose.setdefault(f"{a} {b}", {}).setdefault(card.png, url)
    names = {key: next(iter(urls.values())) for table in (loose, exact) for key, urls in table.items() if len(urls) == 1}
    studio.card_names = (studio.version, names)
    return names


def _image_of(names: dict[str, str], value: Any, numbers: bool = False) -> str | None:
    """The image URL of a card an observation names (``numbers``: an integer may name a card, as
    in a hand of Maybe Missions votes), or None."""
    if isinstance(value, str) or (numbers and isinstance(value, int) and not isinstance(value, bool)):
        return names.get(str(value).lower())
    return None


def _strings(value: Any):
    """Every text value inside an observation (nested lists and mappings)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _seed(value) -> int:
    """The table's seed from the setup form: 1 when left empty.

    Raises:
        ValueError: not a whole number from 0 to 2**31 (a seed is never replaced by another
            silently: the same seed must give the same game).
    """
    seed = whole(value, "seed", 0, 2**31, optional=True)
    return 1 if seed is None else seed


def random_seed() -> int:
    """A seed nobody at the table can guess (a free-form table's, when the form leaves it empty:
    a known seed would tell the players the order of every shuffle); the log records it."""
    import secrets

    return secrets.randbelow(2**31)


def _free_choices(studio: Studio) -> dict[str, Any]:
    """What the free-form table's form offers: the seats (game.yaml's ``table: players``, else
    its fewest players, at least 2) and the zones, or the content's errors that keep it from
    starting (said on the form)."""
    from deckpress.rules.core.table import TableError

    try:
        game = dict(content_of(studio)["game"])
        zones, _, seats = plan_from_game(game, studio_decks(studio, game))
    except (TableError, ValueError) as exc:
        return {"seats": 2, "max_seats": MAX_FREE_SEATS, "zones": [], "problem": str(exc)}
    return {"seats": seats, "max_seats": MAX_FREE_SEATS, "zones": [z.label for z in zones], "problem": None,
            "declared": "table" in game}


async def _uploaded_free_log(upload) -> FreeTable | None:
    """The free-form table an uploaded log replays (safe YAML, within :data:`MAX_LOG_BYTES`), or
    None when the upload is not a free-form log (it starts no ``table: free-form`` line): an
    engine's log, read by :func:`_uploaded_log` after.

    Raises:
        TableError: no file, too large, or a free-form log that does not replay (its file:line
            or move number and what is wrong).
    """
    from deckpress.generator.content.yamlsafe import load_yaml
    from deckpress.rules.core.table import TableError

    if upload is None or not hasattr(upload, "read"):
        raise TableError("choose a log file (YAML or JSON lines) to load")
    name = excerpt(str(upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1] or "the log")
    data = await upload.read(MAX_LOG_BYTES + 1)
    await upload.seek(0)
    if len(data) > MAX_LOG_BYTES:
        raise TableError(f"{name}: the log is over {MAX_LOG_BYTES:,} bytes: not a game log")
    text = data.decode("utf-8", "replace")
    if not any(line.strip() == "table: free-form" for line in text.splitlines()[:40]):
        return None
    doc, errors = load_yaml(Path(name), name, text=text, max_bytes=MAX_LOG_BYTES)
    if doc is None:
        raise TableError(str(errors[0]))
    try:
        return FreeTable.from_log(doc.data)
    except LogProblem as exc:
        raise TableError(f"{name}: {exc}") from None
