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
              help="Address to listen on. Anything but loopback lets other machines see your cards and tables: deckpress warns.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one, printed).")
@click.option("--dpi", type=click.IntRange(50, 300), default=150, show_default=True, help="Resolution of the card images.")
@click.option("--no-browser", is_flag=True, help="Do not open the studio in a web browser.")
@click.option("--no-watch", is_flag=True, help="Do not re-render when files change.")
@lang_options
def studio(game: str, content: Path | None, host: str, port: int, dpi: int, no_browser: bool, no_watch: bool, lang: str | None = None,
           allow_missing: bool = False) -> None:
    """See GAME's cards change as you edit them, and play it at a table in the browser.

    GAME is a game folder, a shipped game's id or a variant file.  Every card of every deck is
    shown, face and back, drawn as ``deckpress export`` draws it; saving a content, layout or
    variant file re-renders the cards it changes and updates the open page.  Errors show at the
    top with their file:line and on the cards, which keep their last good image until fixed.
    A game with a rules engine gets a table: people (hot seat) and bots, the engine's legal
    actions, and a log that ``deckpress replay`` accepts.  Ctrl-C stops it.

    The address it prints (and opens) ends in a secret token, as Jupyter's does: only a browser
    that opened it may see the cards and use the tables."""
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
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can see these cards and play its tables", err=True)
    try:
        sock = bind(host, port)
    except OSError as exc:
        click.echo(f"cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        sys.exit(exitcodes.USAGE)
    allowed = None if host in ("127.0.0.1", "localhost", "::1") else ["*"]
    studio_ = Studio(target, content, dpi=dpi, lang=lang, allow_missing=allow_missing)
    url = f"{url_of(sock)}?token={studio_.secret}"  # the secret every request needs (a cookie keeps it after)
    server = server_for(studio_, sock, watch=not no_watch, allowed_hosts=allowed)
    click.echo(f"deckpress studio: {url} (Ctrl-C stops it)")
    if not no_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])
