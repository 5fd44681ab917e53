"""The studio's web app: a Starlette application over a :class:`CardCatalogue` (the
cards, re-rendered as their files change) and :class:`Table` sessions (games played with the
rules engine), with Jinja2 pages (sandboxed, autoescaped) and a few lines of plain JavaScript.

Routes (every one reads the studio's own state; no path from a request reaches the file system):

- ``GET /``: every card, face and back, grouped by deck, with its id, file:line and data; the
  content's errors on top; for a variant each card beside its base with the changed fields marked.
- ``GET /card/{token}.png`` and ``GET /base/{token}.png``: a card side's last good image.
- ``GET /events``: server-sent events; one ``cards`` event after every refresh.
- ``GET /check``, ``POST /check``, ``GET /check/report``, ``GET /check/preview.pdf``: the variant's
  ``deckpress check``, run on demand off the request loop, its stage and progress, its HTML report
  and the preview PDF the report links (fixed routes to the last check's own files).
- ``GET /table``, ``POST /table``, ``POST /table/load``, ``GET /table/{id}``, ``POST
  /table/{id}/play``, ``POST /table/{id}/attempt``, ``GET /table/{id}/log.yaml``, ``POST /trace``:
  the table (see :mod:`deckpress.rules.core.table`).

Slow work (rendering, checks, bots) runs in threads, so the server keeps answering while it runs;
a failure of it is shown on the page, never as a traceback.

Every request must carry the studio's secret (:attr:`Studio.secret`, printed at start in the
address it opens, as Jupyter does): ``?token=SECRET`` once, after which a cookie keeps it
(:class:`SecretToken`); a table's id is as unguessable (``secrets.token_urlsafe``).  A request's
body is refused by its ``Content-Length`` before a byte of it is read, and reading stops at the
limit when it has none (:class:`BodyLimit`, :func:`body_limit`).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from deckpress.generator.paths import TEMPLATES_DIR
from deckpress.generator.studio.catalogue import CardCatalogue, matches
from deckpress.generator.content.safetext import excerpt, quoted

#: Largest game log accepted by an upload (bytes): a long game's log is some 100 KB.
MAX_LOG_BYTES = 2_000_000
#: Largest request body of POST /table/load (bytes): the log and the form around it.
MAX_UPLOAD_BYTES = MAX_LOG_BYTES + 64 * 1024
#: Largest request body of any other route (bytes): the table's and the check's forms are a few
#: hundred bytes.
MAX_FORM_BYTES = 64 * 1024
#: Bytes of randomness in the studio's secret and in a table's id (``secrets.token_urlsafe``).
SECRET_BYTES = 32
TABLE_ID_BYTES = 16
#: Most seats a loaded log may have (the setup form offers at most 8).
MAX_SEATS = 64
#: Most tables kept at once; the oldest is dropped beyond it (memory stays bounded).
MAX_TABLES = 32
#: The check form's range of games a side (its field says so too).
CHECK_GAMES = (10, 100_000)
#: Largest action number a move button may send (the engines' are far smaller).
MAX_ACTION = 10**9
#: How often an idle event stream sends a comment line, s (keeps proxies and browsers from timing out).
KEEPALIVE_S = 15.0


@dataclass
class CheckJob:
    """The variant's check run on demand: its stage, progress and result (the report's folder)."""

    running: bool = False
    stage: str = ""
    done: int | None = None
    total: int | None = None
    verdict: str | None = None
    reasons: list[str] = field(default_factory=list)
    failure: str | None = None
    report_html: Path | None = None
    preview_pdf: Path | None = None
    seconds: float = 0.0


@dataclass
class Seated:
    """A table of the studio and the person seat that moved last on it (the hand-over screen
    hides that seat's hand from the next person)."""

    table: Any
    last_person: int | None = None
    #: The table's number in this studio (1, 2, ...): its log downloads as GAME-tNUMBER.yaml.
    number: int = 0


class Studio:
    """The studio's state: one card catalogue, the open tables, the check job, and the listeners
    waiting for the next refresh.

    Args:
        target: a game folder or a variant file.
        base_folder: for a variant, the game folder it extends (None: the shipped game).
        dpi: resolution of the card images (dots per inch of the card's trim plus bleed).
    """

    def __init__(self, target: Path, base_folder: Path | None = None, dpi: int = 150, lang: str | None = None, allow_missing: bool = False):
        self.target = target
        self.base_folder = base_folder
        self.catalogue = CardCatalogue(target, base_folder, dpi=dpi, lang=lang, allow_missing=allow_missing)
        self.version = 0
        self.last_refresh: dict[str, Any] = {"changed": [], "removed": [], "seconds": 0.0}
        self.tables: dict[str, Seated] = {}
        #: The secret every request must carry (``?token=``, then a cookie): printed at start.
        self.secret = secrets.token_urlsafe(SECRET_BYTES)
        self._tables_made = 0
        self.check = CheckJob()
        self._listeners: set[asyncio.Queue] = set()
        self.closing = False
        self._check_dir: Path | None = None
        self._lock = threading.Lock()

    # -- cards --------------------------------------------------------------------------------
    def refresh(self) -> dict[str, Any]:
        """Reload and re-render what changed (in the calling thread); returns the event sent to
        the pages: ``{version, changed, removed, errors, seconds}``."""
        with self._lock:
            done = self.catalogue.refresh()
            self.version += 1
            self.last_refresh = {"version": self.version, "changed": done.changed, "removed": done.removed,
                                 "errors": len(done.errors), "seconds": round(done.seconds, 3)}
            return self.last_refresh

    def error_lines(self) -> list[str]:
        """The content's errors as ``deckpress validate`` prints them (:func:`summarised`): in its
        order (the catalogue keeps the order the checks found them in, the errors of its cards'
        drawing after them), ``file:line:column: message`` with ``file: message`` for a whole file,
        a flood of alike errors summarised; each file named as the cards name it (relative to the
        game's folder), each line escaped."""
        from deckpress.generator.content.errors import ContentError
        from deckpress.generator.content.reporters import summarised
        from deckpress.generator.content.safetext import escape

        cat = self.catalogue
        shown = []
        for e in cat.errors:
            where = cat.shown_path(e)
            prefix = escape(f"{where}:{e.line}:{e.column}: " if e.line else f"{where}: ")
            shown.append(ContentError(where, e.line, e.column, cat.shown(e)[len(prefix):]))  # the message as the cards say it
        return summarised(shown, where_all="deckpress validate --format json lists them all")

    def publish(self, event: dict[str, Any] | None) -> None:
        """Send ``event`` to every open page (from the event loop); None ends their streams."""
        for queue in list(self._listeners):
            queue.put_nowait(event)

    def end_streams(self) -> None:
        """End every open event stream (from the event loop), so that the server stops at once
        instead of waiting for pages that never hang up."""
        self.closing = True
        self.publish(None)

    def stop_children(self) -> None:
        """Kill every child process the studio started (a running check's process and, in its
        process group, its workers: :func:`deckpress.generator.limits.run_in_child`), so that
        none outlives the studio."""
        for child in multiprocessing.active_children():
            if child.pid is None:
                continue
            with contextlib.suppress(OSError, ValueError):  # gone already, or never in a group of its own
                os.killpg(child.pid, signal.SIGKILL)
            with contextlib.suppress(OSError, ValueError):
                child.kill()

    def check_folder(self) -> Path:
        """An empty folder for the next check's report and preview: the last check's folder is
        removed first, and the last one at :meth:`close`, so checks leave nothing behind."""
        self.close()
        self._check_dir = Path(tempfile.mkdtemp(prefix="deckpress-studio-check-"))
        return self._check_dir

    def close(self) -> None:
        """Remove the last check's folder (its report is no longer served)."""
        if self._check_dir is not None:
            shutil.rmtree(self._check_dir, ignore_errors=True)
            self._check_dir = None

    # -- tables -------------------------------------------------------------------------------
    def add_table(self, table) -> str:
        """Keep ``table`` under a new, unguessable id (``secrets.token_urlsafe``: another user of
        the machine cannot find a table by counting); the oldest table is dropped beyond
        :data:`MAX_TABLES`."""
        ident = secrets.token_urlsafe(TABLE_ID_BYTES)
        self._tables_made += 1
        self.tables[ident] = Seated(table, number=self._tables_made)
        while len(self.tables) > MAX_TABLES:
            self.tables.pop(next(iter(self.tables)))
        return ident


def create_app(studio: Studio, allowed_hosts: list[str] | None = None, watch: bool = True) -> Starlette:
    """The studio's Starlette app over ``studio``.  ``allowed_hosts``: the Host headers accepted
    (default: loopback names only, which also keeps other web sites from reaching the studio by
    DNS rebinding).  ``watch``: re-render when the watched files change (watchfiles)."""
    env = ImmutableSandboxedEnvironment(loader=FileSystemLoader(TEMPLATES_DIR / "studio"), autoescape=True)
    env.filters["tojson_pretty"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False, default=str)

    def page(name: str, request: Request, status: int = 200, **values) -> HTMLResponse:
        values.update(studio=studio, title=studio.catalogue.title, engine=_engine_id(studio),
                      is_variant=studio.catalogue.is_variant, path=request.url.path)
        return HTMLResponse(env.get_template(name).render(**values), status_code=status)

    async def cards_page(request: Request) -> HTMLResponse:
        query = request.query_params.get("q", "")[:200]
        cat = studio.catalogue
        decks = [(kind, name, [c for c in cards if not query or matches(c, query)]) for kind, name, cards in cat.decks()]
        base = {c.token: cat.base_cards.get((c.kind, c.card_id, c.copy, c.side)) for c in cat.cards} if cat.is_variant else {}
        return page("cards.html.j2", request, decks=decks, base=base, errors=studio.error_lines(), error_count=len(cat.errors),
                    query=query, version=studio.version, shown=cat.shown)

    async def card_image(request: Request) -> Response:
        card = studio.catalogue.card(request.path_params["token"])
        if request.url.path.startswith("/base/"):
            card = _base_by_token(studio, request.path_params["token"])
        if card is None or card.png is None:
            return Response("no such card image", status_code=404, media_type="text/plain")
        return Response(card.png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def events(request: Request) -> StreamingResponse:
        queue: asyncio.Queue = asyncio.Queue()
        studio._listeners.add(queue)

        async def stream():
            try:
                yield f"event: hello\ndata: {json.dumps({'version': studio.version})}\n\n"
                while not studio.closing:
                    try:
                        event = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if event is None:
                        return
                    yield f"event: cards\ndata: {json.dumps(event)}\n\n"
            finally:
                studio._listeners.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    # -- the variant's check ---------------------------------------------------------------------
    async def check_page(request: Request) -> HTMLResponse:
        if not studio.catalogue.is_variant:
            return page("message.html.j2", request, status=404, heading="No check here",
                        message="deckpress check judges a variant file: start the studio on one (deckpress studio VARIANT.yaml).")
        return page("check.html.j2", request, job=studio.check, games=CHECK_GAMES)

    async def check_start(request: Request) -> Response:
        if studio.catalogue.is_variant and not studio.check.running:
            form = await request.form()
            try:
                games = _whole(form.get("games"), "games a side", *CHECK_GAMES, optional=True)
            except ValueError as exc:
                return page("check.html.j2", request, status=400, job=studio.check, games=CHECK_GAMES, problem=str(exc))
            studio.check = CheckJob(running=True, stage="starting")
            threading.Thread(target=_run_check, args=(studio, games), daemon=True).start()
        return RedirectResponse("/check", status_code=303)

    async def check_report(request: Request) -> Response:
        html = studio.check.report_html
        if html is None or not html.is_file():
            return Response("no report yet", status_code=404, media_type="text/plain")
        return HTMLResponse(html.read_text(encoding="utf-8"))

    async def check_preview(request: Request) -> Response:
        # the report links its preview as "preview.pdf", beside it: /check/report -> /check/preview.pdf
        pdf = studio.check.preview_pdf
        if pdf is None or not pdf.is_file():
            return Response("no preview: the last check drew no added or changed card", status_code=404, media_type="text/plain")
        return Response(pdf.read_bytes(), media_type="application/pdf", headers={"Cache-Control": "no-cache"})

    # -- the table -------------------------------------------------------------------------------
    async def table_setup(request: Request) -> HTMLResponse:
        engine = _engine_id(studio)
        if engine is None:
            return no_engine(request)
        return page("table-setup.html.j2", request, **_setup_choices(engine, studio))

    def no_engine(request: Request) -> HTMLResponse:
        return page("message.html.j2", request, status=404, heading="No table for this game",
                    message="This game has no rules engine: its cards can be printed, not played here.")

    async def table_new(request: Request) -> Response:
        from deckpress.rules.core.table import Table, TableError

        engine = _engine_id(studio)
        if engine is None:
            return no_engine(request)
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
            content = await run_in_threadpool(_engine_content, studio)
            table = await run_in_threadpool(lambda: Table(engine, seats, content=content, ruleset=str(form.get("ruleset") or "") or None,
                                                          params=params, seed=_seed(form.get("seed"))))
        except (TableError, ValueError) as exc:
            return page("table-setup.html.j2", request, status=400, problem=str(exc), **_setup_choices(engine, studio))
        return RedirectResponse(f"/table/{studio.add_table(table)}", status_code=303)

    async def table_load(request: Request) -> Response:
        from deckpress.rules.core.table import Table, TableError

        engine = _engine_id(studio)
        if engine is None:
            return no_engine(request)
        form = await request.form()
        upload = form.get("log")
        try:
            log = await _uploaded_log(upload)
            content = await run_in_threadpool(_engine_content, studio)
            if form.get("step"):
                steps = await run_in_threadpool(lambda: Table.trace(log, content=content))
                return page("trace.html.j2", request, steps=steps, source=log.source)
            # seat N as the load form's menu N says, a person where it says nothing; as many seats
            # as the log has players (a log without a sensible count is refused by the replay)
            players = log.params.get("players")
            count = players if isinstance(players, int) and not isinstance(players, bool) and 0 < players <= MAX_SEATS else 1
            seats = [str(form.get(f"seat{i}") or "person") for i in range(count)]
            table = await run_in_threadpool(lambda: Table(log.game, seats, content=content, log=log))
        except (TableError, ValueError) as exc:
            return page("table-setup.html.j2", request, status=400, problem=str(exc), **_setup_choices(engine, studio))
        return RedirectResponse(f"/table/{studio.add_table(table)}", status_code=303)

    async def table_page(request: Request) -> HTMLResponse:
        seated = studio.tables.get(request.path_params["ident"])
        if seated is None:
            return page("message.html.j2", request, status=404, heading="No such table", message="Start a new one from the Table page.")
        return _table_view(request, seated, problem=None)

    def _table_view(request: Request, seated: Seated, problem: str | None, status: int = 200) -> HTMLResponse:
        ident = request.path_params["ident"]
        table, last = seated.table, seated.last_person
        shown = table.seat_to_show()
        asked = request.query_params.get("seat")
        if shown is not None and table.handover(last) and asked != str(shown):
            return page("handover.html.j2", request, ident=ident, seat=shown)
        seat = shown if shown is not None else (last if last is not None else 0)
        images = _images_by_name(studio)
        observation = table.observation(seat)
        return page("table.html.j2", request, status=status, ident=ident, table=table, seat=seat,
                    observation=observation, moves=table.moves(seat) if shown is not None else [],
                    hand=[(str(n), _image_of(images, n, numbers=True)) for n in observation.get("hand", []) or []
                          if isinstance(n, (str, int))],
                    images={str(v): u for v in _strings(observation) if (u := _image_of(images, v))},
                    recent=table.recent(12, viewer=seat), result=table.result(), problem=problem, seats=table.seats,
                    rules=dict(table.game.params),
                    replay=_replay_command(studio, f"{_engine_id(studio)}-t{seated.number}.yaml"),
                    base_folder=studio.base_folder)

    async def table_play(request: Request) -> Response:
        from deckpress.rules.core.errors import IllegalAction

        seated = studio.tables.get(request.path_params["ident"])
        if seated is None:
            return RedirectResponse("/table", status_code=303)
        table = seated.table
        form = await request.form()
        attempt = request.url.path.endswith("/attempt")
        try:
            seat = _whole(form.get("seat"), "seat", 0, len(table.seats) - 1)
            action = None if attempt else _whole(form.get("action"), "action", 0, MAX_ACTION)
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
        name = f"{_engine_id(studio)}-t{seated.number}.yaml"
        return Response(seated.table.log_yaml(), media_type="application/x-yaml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    routes = [
        Route("/", cards_page),
        Route("/card/{token:str}.png", card_image),
        Route("/base/{token:str}.png", card_image),
        Route("/events", events),
        Route("/check", check_page, methods=["GET"]),
        Route("/check", check_start, methods=["POST"]),
        Route("/check/report", check_report),
        Route("/check/preview.pdf", check_preview),
        Route("/table", table_setup, methods=["GET"]),
        Route("/table", table_new, methods=["POST"]),
        Route("/table/load", table_load, methods=["POST"]),
        Route("/table/{ident:str}", table_page),
        Route("/table/{ident:str}/play", table_play, methods=["POST"]),
        Route("/table/{ident:str}/attempt", table_play, methods=["POST"]),
        Route("/table/{ident:str}/log.yaml", table_log),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await run_in_threadpool(studio.refresh)
        task = asyncio.create_task(_watch(studio)) if watch else None
        try:
            yield
        finally:
            studio.close()
            if task:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def refusal(status: int, heading: str, message: str) -> bytes:
        # shown to whoever asks, the secret's holder or not: nothing of the game, not even its title
        return env.get_template("message.html.j2").render(studio=studio, title="deckpress studio", engine=None, is_variant=False,
                                                          path="", heading=heading, message=message).encode("utf-8")

    hosts = allowed_hosts or ["127.0.0.1", "localhost", "[::1]"]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
                                 Middleware(SecretToken, secret=studio.secret, refusal=refusal),
                                 Middleware(BodyLimit, limit=body_limit, refusal=refusal),
                                 Middleware(SameOriginPosts)])


def body_limit(method: str, path: str) -> int:
    """The largest request body (bytes) the studio reads for ``method`` ``path``: a game log's
    upload (:data:`MAX_UPLOAD_BYTES`) or a form (:data:`MAX_FORM_BYTES`)."""
    return MAX_UPLOAD_BYTES if (method, path) == ("POST", "/table/load") else MAX_FORM_BYTES


class _TooLarge(Exception):
    """Raised by :class:`BodyLimit`'s ``receive`` when a body without a length runs past its limit."""


class BodyLimit:
    """ASGI middleware: a request whose ``Content-Length`` is over ``limit(method, path)`` bytes,
    or is not a number, is refused (413) before a byte of its body is read; one without a length
    (chunked) is read only up to the limit and then refused, so an upload of 1 GB is neither read
    nor written anywhere.  ``refusal(status, heading, message)`` gives the page's bytes."""

    def __init__(self, app, limit, refusal):
        self.app, self.limit, self.refusal = app, limit, refusal

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit(scope["method"], scope["path"])
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and not (length.isdigit() and len(length) <= 18 and int(length) <= limit):
            await self._refuse(scope, send, limit)
            return
        seen, started = 0, False

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        async def sending(message):
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, counted, sending)
        except _TooLarge:
            if started:
                raise
            await self._refuse(scope, send, limit)

    async def _refuse(self, scope, send, limit: int) -> None:
        what = "a game log" if limit == MAX_UPLOAD_BYTES else "a form"
        body = self.refusal(413, "Too large", f"Refused: the request is over {limit:,} bytes, more than {what} needs "
                            f"(a game log is at most {MAX_LOG_BYTES:,} bytes). Nothing was read.")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class SecretToken:
    """ASGI middleware: every request must carry the studio's ``secret``, as Jupyter's server asks
    for its token, so that another user of the machine (or a page in the browser) cannot see the
    cards or drive the tables.  The address the studio prints ends in ``?token=SECRET``; a GET with
    it is answered by a redirect to the same address without it, setting a cookie (HttpOnly,
    SameSite=Lax, named after the port, so two studios keep theirs apart) that carries it after.
    A script may send ``Authorization: token SECRET``.  Anything else is refused (403) with a page
    that says where to find the address."""

    def __init__(self, app, secret: str, refusal):
        self.app, self.secret, self.refusal = app, secret, refusal

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        from urllib.parse import parse_qsl, urlencode

        port = (scope.get("server") or ("", 0))[1]
        cookie_name = f"deckpress-studio-{port}"
        headers = dict(scope["headers"])
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = next((v for k, v in query if k == "token"), None)
        if given is not None and self._right(given):
            if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
                rest = urlencode([(k, v) for k, v in query if k != "token"])
                where = scope["path"] + (f"?{rest}" if rest else "")
                cookie = f"{cookie_name}={self.secret}; Path=/; HttpOnly; SameSite=Lax"
                await RedirectResponse(where, status_code=303, headers={"set-cookie": cookie})(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        cookies = _cookies(headers.get(b"cookie", b"").decode("latin-1"))
        if self._right(cookies.get(cookie_name, "")) or authorization.startswith("token ") and self._right(authorization[6:]):
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = self.refusal(403, "Open the studio from its address",
                            "This studio needs the address it printed when it started, the one that ends in "
                            "?token=…: open that address (copy it from the terminal where deckpress studio runs).")
        await Response(body, status_code=403, media_type="text/html")(scope, receive, send)

    def _right(self, given: str) -> bool:
        return secrets.compare_digest(given.encode("utf-8", "replace"), self.secret.encode("ascii"))


def _cookies(header: str) -> dict[str, str]:
    """The ``name=value`` pairs of a Cookie header (the first of each name)."""
    out: dict[str, str] = {}
    for item in header.split(";"):
        name, sep, value = item.strip().partition("=")
        if sep:
            out.setdefault(name, value)
    return out


class SameOriginPosts:
    """ASGI middleware: a POST whose ``Origin`` names another site than the one it is sent to is
    refused (403), so that a web page elsewhere cannot start tables or checks in the studio.  So is
    one whose ``Origin`` is ``null`` (a sandboxed frame or a ``data:`` page of any site sends that),
    unless the browser says it comes from the studio itself (``Sec-Fetch-Site: same-origin``), and
    one the browser says is cross-site.  A request without either header (curl, a script on the
    machine) is not a web page's and is let through."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = dict(scope["headers"])
            origin = headers.get(b"origin", b"").decode("latin-1")
            host = headers.get(b"host", b"").decode("latin-1")
            site = headers.get(b"sec-fetch-site", b"").decode("latin-1")
            elsewhere = origin.split("://", 1)[-1] != host if origin and origin != "null" else origin == "null" and site != "same-origin"
            if elsewhere or site in ("cross-site", "same-site"):
                await Response("cross-site request refused", status_code=403, media_type="text/plain")(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _watch(studio: Studio) -> None:
    """Refresh the catalogue whenever a watched file changes and tell the open pages (watchfiles;
    an editor's temporary and backup files and ``output/`` are ignored).

    A folder is watched with its subfolders.  A file (a variant) is watched through its folder
    (that folder alone, not below it), for its own name: an editor that saves by writing a new
    file and renaming it over the old one (vim, ``sed -i``, a safe write) replaces the file, and
    a watch on the file itself would end with the first such save."""
    from watchfiles import awatch

    watched = studio.catalogue.watched()
    folders = [p for p in watched if p.is_dir()]
    files = {os.path.abspath(p) for p in watched if not p.is_dir()}
    parents = sorted({p for p in map(os.path.dirname, files) if os.path.isdir(p)})

    def wanted(change, path: str) -> bool:
        name = Path(path).name
        return not (name.startswith(".") or name.endswith(("~", ".swp", ".tmp")) or "/output/" in path.replace("\\", "/"))

    def named(change, path: str) -> bool:
        return os.path.abspath(path) in files

    async def follow(paths: list, recursive: bool, keep) -> None:
        async for _ in awatch(*paths, watch_filter=keep, recursive=recursive, debounce=50, step=20):
            event = await run_in_threadpool(studio.refresh)
            studio.publish(event)

    await asyncio.gather(*([follow(folders, True, wanted)] if folders else []),
                         *([follow(parents, False, named)] if parents else []))


def _run_check(studio: Studio, games: int | None) -> None:
    """Run ``deckpress check`` on the studio's variant (in a thread), recording stage and progress."""
    from deckpress.generator.check import CheckOptions, run_check
    from deckpress.generator.check.report import write_report

    job = studio.check
    started = time.perf_counter()

    def tell(stage: str, done: int | None = None, total: int | None = None) -> None:
        job.stage, job.done, job.total = stage, done, total

    try:
        folder = studio.check_folder()
        options = CheckOptions(games=games, progress=tell, content=studio.base_folder, preview_path=folder / "preview.pdf")
        report = run_check(studio.target, options)
        _, html = write_report(report, folder)
        job.verdict, job.reasons, job.report_html = report.verdict, list(report.reasons), html
        job.preview_pdf = Path(report.preview) if report.preview else None
    except Exception as exc:  # an environment failure or a limit reached: said on the page
        job.failure = f"the check could not finish: {exc}"
    finally:
        job.running, job.seconds = False, time.perf_counter() - started


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


def _base_by_token(studio: Studio, token: str):
    for card in studio.catalogue.base_cards.values():
        if card.token == token:
            return card
    return None


def _engine_id(studio: Studio) -> str | None:
    """The rules engine's game id, or None when the game has none."""
    from deckpress.rules.core.registry import known_games

    game_id = studio.catalogue.game_id
    return game_id if game_id in known_games() else None


def _engine_content(studio: Studio):
    """The content the table plays: the variant's merged content, the game folder's, or None
    (the shipped game) when the studio shows a shipped game.

    Raises:
        TableError: the content has errors (fix them on the cards page first).
    """
    from deckpress.generator.content import check_game
    from deckpress.rules.core.table import TableError
    from deckpress.generator.content.variant import merged_content

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
    from deckpress.rules.core.table import TableError
    from deckpress.rules.core.errors import LogError
    from deckpress.rules.core.log import read_log

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
    cached = getattr(studio, "_names", None)
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
    studio._names = (studio.version, names)
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
    seed = _whole(value, "seed", 0, 2**31, optional=True)
    return 1 if seed is None else seed


def _whole(value, name: str, low: int, high: int, optional: bool = False) -> int | None:
    """A form's whole number from ``low`` to ``high`` (digits only, spaces around allowed); None
    for an empty ``optional`` field.  Never another number than the one sent: no clamping, no
    default in place of text.

    Raises:
        ValueError: anything else, as ``NAME: expected a whole number from LOW to HIGH, got 'TEXT'``
            (the text escaped and cut short).
    """
    text = value.strip() if isinstance(value, str) else "" if value is None else repr(value)
    if optional and not text:
        return None
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None
    if number is None or not low <= number <= high:
        raise ValueError(f"{name}: expected a whole number from {low:,} to {high:,}, got {quoted(text)}")
    return number
