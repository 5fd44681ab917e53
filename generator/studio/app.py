"""The studio's web app: a Starlette application over a :class:`CardCatalogue` (the
cards, re-rendered as their files change) and :class:`Table` sessions (games played with the
rules engine), with Jinja2 pages (sandboxed, autoescaped) and a few lines of plain JavaScript.

Routes (every one reads the studio's own state; no path from a request reaches the file system),
one module per page group under :mod:`deckpress.generator.studio.routes`, which
:func:`create_app` assembles behind the guards defined here:

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import RedirectResponse, Response

from deckpress.generator.paths import TEMPLATES_DIR
from deckpress.generator.studio.catalogue import CardCatalogue

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
#: Bytes of randomness in a seat's (or the spectator's) link: 192 bits, more than the 128 a
#: capability URL needs (W3C TAG, "Good Practices for Capability URLs").
SEAT_TOKEN_BYTES = 24
#: Where a seat's link leads: ``/seat/TOKEN`` and below; these paths need the seat's token, not
#: the studio's secret (a friend's device has only the link).
SEAT_PREFIX = "/seat/"
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
    #: The table's scenes, clicks and log in words (:class:`~deckpress.generator.studio.scenes.session.EngineSession`),
    #: made by the first page drawn.
    session: Any = None
    #: For a table served by scenes (:class:`~deckpress.generator.studio.scene.SceneTable`): each
    #: seat's secret link token, in seat order, and the spectator's; never logged.
    seat_tokens: list[str] = field(default_factory=list)
    spectator_token: str = ""
    #: The open pages of this table waiting for its next change (their event streams).
    listeners: set[asyncio.Queue] = field(default_factory=set)
    #: Held while a click is played or a scene drawn: one at a time at each table.
    lock: threading.Lock = field(default_factory=threading.Lock)

    def changed(self) -> None:
        """Tell this table's open pages that it changed (from the event loop)."""
        for queue in list(self.listeners):
            queue.put_nowait({"table": True})


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
        #: (catalogue version, {a card's name, id or field values: its face image's URL}), the table's
        #: card lookup cached per refresh (routes.table.card_urls).
        self.card_names: tuple[int, dict[str, str]] | None = None
        #: The address the seats' links start with when the studio serves beyond this machine
        #: (``http://ADDRESS:PORT``, set by ``deckpress studio --host``); None: the page's own.
        self.public_url: str | None = None
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
        for seated in list(self.tables.values()):  # the cards changed: every table's pages draw them again
            for queue in list(seated.listeners):
                queue.put_nowait(None if event is None else {"cards": True})

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
    def add_table(self, table, invite: bool = False) -> str:
        """Keep ``table`` under a new, unguessable id (``secrets.token_urlsafe``: another user of
        the machine cannot find a table by counting); the oldest table is dropped beyond
        :data:`MAX_TABLES`.  A free-form table gets a secret link per seat and a spectator's; an
        engine's table (:class:`~deckpress.rules.core.table.Table`) gets them when ``invite`` is
        true, for its person seats only (a bot's seat has no link: the bot plays it)."""
        ident = secrets.token_urlsafe(TABLE_ID_BYTES)
        self._tables_made += 1
        seated = self.tables[ident] = Seated(table, number=self._tables_made)
        if hasattr(table, "scene"):  # a table each seat plays from its own link
            table.number = self._tables_made
            seated.seat_tokens = [secrets.token_urlsafe(SEAT_TOKEN_BYTES) for _ in range(table.seat_count)]
            seated.spectator_token = secrets.token_urlsafe(SEAT_TOKEN_BYTES)
        elif invite:  # an engine's table played at its person seats' links
            seated.seat_tokens = [secrets.token_urlsafe(SEAT_TOKEN_BYTES) if entry == "person" else ""
                                  for entry in table.seats]
            seated.spectator_token = secrets.token_urlsafe(SEAT_TOKEN_BYTES)
        while len(self.tables) > MAX_TABLES:
            self.tables.pop(next(iter(self.tables)))
        return ident

    def seat_of(self, token: str) -> tuple[str, Seated, int | None] | None:
        """The table and seat (None: the spectator) a link's ``token`` opens, or None.  Every
        token of every table is compared, each in constant time (``secrets.compare_digest``), so
        the time taken tells nothing of how close a guess came."""
        given = token.encode("utf-8", "replace")
        found = None
        for ident, seated in list(self.tables.items()):
            for seat, known in [*enumerate(seated.seat_tokens), (None, seated.spectator_token)]:
                if known and secrets.compare_digest(given, known.encode("ascii")) and found is None:
                    found = (ident, seated, seat)
        return found


def create_app(studio: Studio, allowed_hosts: list[str] | None = None, watch: bool = True) -> Starlette:
    """The studio's Starlette app over ``studio``.  ``allowed_hosts``: the Host headers accepted
    (default: loopback names only, which also keeps other web sites from reaching the studio by
    DNS rebinding).  ``watch``: re-render when the watched files change (watchfiles)."""
    env = ImmutableSandboxedEnvironment(loader=FileSystemLoader(TEMPLATES_DIR / "studio"), autoescape=True)
    env.filters["tojson_pretty"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False, default=str)

    from deckpress.generator.studio.routes import (
        Pages,
        cards,
        check,
        engine,
        seats,
        table,
    )

    pages = Pages(studio, env)

    routes = [*cards.routes(studio, pages), *check.routes(studio, pages), *table.routes(studio, pages), *seats.routes(studio, pages),
              *engine.routes(studio, pages)]

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
                     middleware=[Middleware(NoReferrer),
                                 Middleware(TrustedHostMiddleware, allowed_hosts=hosts),
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
    that says where to find the address.  A seat's link (:data:`SEAT_PREFIX`) is let through: it
    carries a secret of its own, which its routes check (:mod:`.routes.seats`)."""

    def __init__(self, app, secret: str, refusal):
        self.app, self.secret, self.refusal = app, secret, refusal

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket") or scope["type"] == "http" and scope["path"].startswith(SEAT_PREFIX):
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


class NoReferrer:
    """ASGI middleware: every answer says ``Referrer-Policy: no-referrer``, so that a link or an
    image on a page never sends the page's address (a seat's secret link) to anyone."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"referrer-policy", b"no-referrer")]}
            await send(message)

        await self.app(scope, receive, sending)


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


def engine_id(studio: Studio) -> str | None:
    """The rules engine's game id, or None when the game has none."""
    from deckpress.rules.core.registry import known_games

    game_id = studio.catalogue.game_id
    return game_id if game_id in known_games() else None
