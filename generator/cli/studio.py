"""``deckpress studio``: the local web app where a designer sees the cards and plays them.

The studio is a front end like the command line, and lives with it: it is the other place that
knows both halves, the cards (:mod:`deckpress.generator.studio.catalogue`, drawn by the export's
path) and the rules (:mod:`deckpress.rules.core.table`).  :mod:`.app` is the Starlette app and its
pages, :mod:`.server` runs it with uvicorn; nothing outside the CLI imports them.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from deckpress.generator import exitcodes
from deckpress.generator.cli.translate import lang_options


@click.command()
@click.argument("game")
@click.option("--content", type=click.Path(path_type=Path), default=None,
              help="For a variant: the game folder it extends [default: the shipped game named by 'extends'].")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback lets other devices join a table: deckpress warns and prints "
                   "one secret link per seat and a spectator's link.")
@click.option("--seats", type=click.IntRange(1, 8), default=None,
              help="With --host: the seats of the free-form table started for the other devices [default: the game's].")
@click.option("--bots", type=click.IntRange(0, 7), default=0, show_default=True,
              help="With --host on a game with a rules engine: bot seats after the person seats (the 'greedy' bot where the game has it).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one, printed).")
@click.option("--dpi", type=click.IntRange(50, 300), default=150, show_default=True, help="Resolution of the card images.")
@click.option("--no-browser", is_flag=True, help="Do not open the studio in a web browser.")
@click.option("--no-watch", is_flag=True, help="Do not re-render when files change.")
@lang_options
def studio(game: str, content: Path | None, host: str, port: int, seats: int | None, bots: int, dpi: int, no_browser: bool, no_watch: bool,
           lang: str | None = None, allow_missing: bool = False) -> None:
    """See GAME's cards change as you edit them, and play it at a table in the browser.

    GAME is a game folder, a shipped game's id or a variant file.  Every card of every deck is
    shown, face and back, drawn as ``deckpress export`` draws it; saving a content, layout or
    variant file re-renders the cards it changes and updates the open page.  Errors show at the
    top with their file:line and on the cards, which keep their last good image until fixed.
    A game with a rules engine gets a table: people (hot seat) and bots, the engine's legal
    actions, and a log that ``deckpress replay`` accepts.  Ctrl-C stops it.

    The address it prints (and opens) ends in a secret token, as Jupyter's does: only a browser
    that opened it may see the cards and use the tables.  Every game gets a free-form table
    (docs/table.md), played by each person at their own seat's link.

    With ``--host ADDRESS`` (anything but loopback) other devices on the network may join: the
    studio starts a free-form table and prints one secret link per seat and a spectator's link;
    each link opens that seat's view only.  Give each link only to its player."""
    from deckpress.generator.cli.content import is_variant
    from deckpress.generator.content import find_game
    from deckpress.generator.content.errors import ContentErrors
    from deckpress.generator.studio.app import Studio
    from deckpress.generator.studio.server import bind, server_for, url_of

    path = Path(game)
    if path.is_file() and is_variant(path):
        target = path
    else:
        try:
            target = find_game(path)
        except ContentErrors as exc:
            raise click.UsageError(str(exc.errors[0])) from None
    shared = host not in LOOPBACK_NAMES
    if shared:
        click.echo(f"warning: listening on {host}: anyone who can reach this machine on the network can open this studio's "
                   "address and its seats' links; the links below are secrets, give each only to its player", err=True)
    try:
        sock = bind(host, port)
    except OSError as exc:
        click.echo(f"cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        sys.exit(exitcodes.USAGE)
    studio_ = Studio(target, content, dpi=dpi, lang=lang, allow_missing=allow_missing)
    allowed, base = None, url_of(sock).rstrip("/")
    if shared:
        allowed, base = host_names(host, sock.getsockname()[1])
        studio_.public_url = base
    url = f"{base}/?token={studio_.secret}"  # the secret every request needs (a cookie keeps it after)
    server = server_for(studio_, sock, watch=not no_watch, allowed_hosts=allowed)
    click.echo(f"deckpress studio: {url} (Ctrl-C stops it)")
    if shared:
        _start_shared_table(studio_, base, seats, bots)
    if not no_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def host_names(host: str, port: int) -> tuple[list[str], str]:
    """The Host headers the studio accepts when it listens on ``host`` (the address given, the
    loopback names, and for a wildcard address (0.0.0.0, ::) this machine's name and its
    addresses), and the base of the links it prints (``http://ADDRESS:PORT``)."""
    import socket

    def bracketed(name: str) -> str:
        return f"[{name}]" if ":" in name else name

    names = [bracketed(host), "127.0.0.1", "localhost", "[::1]"]
    shown = host
    if host in ("0.0.0.0", "::", ""):
        shown = socket.gethostname()
        names.append(shown)
        try:
            names += [bracketed(str(info[4][0])) for info in socket.getaddrinfo(shown, None)]
        except OSError:
            pass
    return sorted(set(names)), f"http://{bracketed(shown)}:{port}"


def _start_shared_table(studio_, base: str, seats: int | None, bots: int = 0) -> None:
    """Start the free-form table the other devices join and print its links (one per seat and a
    spectator's); the content's errors, if any, instead (the table starts from the Table page
    once they are fixed)."""
    from deckpress.generator.studio.freetable import StudioFreeTable
    from deckpress.generator.studio.routes.table import content_of, random_seed
    from deckpress.rules.core.table import TableError

    studio_.refresh()
    from deckpress.generator.studio.app import engine_id

    if engine_id(studio_) is not None:
        _start_engine_table(studio_, base, seats or 2, bots)
        return
    try:
        game = dict(content_of(studio_)["game"])
        table = StudioFreeTable.new(studio_, game, seats, random_seed())
    except (TableError, ValueError) as exc:
        click.echo(f"no table started: {exc}", err=True)
        return
    ident = studio_.add_table(table)
    seated = studio_.tables[ident]
    click.echo(f"a free-form table of {table.seat_count} seats: {base}/table/{ident} (your view, with the studio's address)")
    for n, token in enumerate(seated.seat_tokens):
        click.echo(f"  seat {n + 1}: {base}/seat/{token}")
    click.echo(f"  spectator: {base}/seat/{seated.spectator_token}")


def _start_engine_table(studio_, base: str, persons: int, bots: int) -> None:
    """Start the engine's table the other devices join (``persons`` person seats, then ``bots``
    bot seats, seed random) and print a link per person seat and a spectator's; seats are
    numbered from 1 here, as on the pages (the engine's log and ``deckpress replay`` count from 0)."""
    from deckpress.generator.studio.app import engine_id
    from deckpress.generator.studio.routes.table import content_of, random_seed
    from deckpress.rules.core.bots import bot_names
    from deckpress.rules.core.table import Table, TableError

    engine = str(engine_id(studio_))
    names = bot_names(engine)
    bot = "greedy" if "greedy" in names else names[0]
    try:
        table = Table(engine, ["person"] * persons + [bot] * bots, content=content_of(studio_), seed=random_seed())
    except (TableError, ValueError) as exc:
        click.echo(f"no table started: {exc}", err=True)
        return
    ident = studio_.add_table(table, invite=True)
    seated = studio_.tables[ident]
    click.echo(f"a {engine} table of {persons} people and {bots} bots: {base}/table/{ident} (your view, with the studio's address)")
    for n, token in enumerate(seated.seat_tokens):
        click.echo(f"  seat {n + 1}: {base}/seat/{token}" if token else f"  seat {n + 1}: {bot} bot")
    click.echo(f"  spectator: {base}/seat/{seated.spectator_token}")
