"""The variant's check pages: ``GET /check`` (its form, stage and progress), ``POST /check``
(run ``deckpress check`` on demand, off the request loop), ``GET /check/report`` and
``GET /check/preview.pdf`` (fixed routes to the last check's own files)."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from deckpress.generator.studio.app import CHECK_GAMES, CheckJob
from deckpress.generator.studio.routes import whole

if TYPE_CHECKING:
    from deckpress.generator.studio.app import Studio
    from deckpress.generator.studio.routes import Pages


def routes(studio: Studio, pages: Pages) -> list[Route]:
    """The check pages' routes over ``studio``."""

    async def check_page(request: Request) -> HTMLResponse:
        if not studio.catalogue.is_variant:
            return pages.page("message.html.j2", request, status=404, heading="No check here",
                        message="deckpress check judges a variant file: start the studio on one (deckpress studio VARIANT.yaml).")
        return pages.page("check.html.j2", request, job=studio.check, games=CHECK_GAMES)

    async def check_start(request: Request) -> Response:
        if studio.catalogue.is_variant and not studio.check.running:
            form = await request.form()
            try:
                games = whole(form.get("games"), "games a side", *CHECK_GAMES, optional=True)
            except ValueError as exc:
                return pages.page("check.html.j2", request, status=400, job=studio.check, games=CHECK_GAMES, problem=str(exc))
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

    return [
        Route("/check", check_page, methods=["GET"]),
        Route("/check", check_start, methods=["POST"]),
        Route("/check/report", check_report),
        Route("/check/preview.pdf", check_preview),
    ]


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
