"""The studio's card catalogue: every card of every deck of a game folder or
a fan variant, face and back, as PNG images that follow the content as it is edited.

Every image is drawn by the per-card export's path and no other
(``deckpress export --to png``): :func:`deckpress.generator.render.oneup.one_up_pdf` with
:func:`deckpress.generator.render.kit.drawn_as`, then
:func:`deckpress.generator.export.images.rasterise`.  An image is therefore the card's trim plus
its bleed, ``round(mm / 25.4 * dpi)`` pixels a side (a 63 x 88 mm card with 3 mm bleed is 69 x 94
mm: 407 x 555 px at 150 dpi), pixel for pixel the exported PNG at the same dpi.

A refresh reloads the content and redraws only the cards whose *fingerprint* changed: a SHA-256
of the card's kind, side and fields, and of what every card's drawing reads besides its fields
(the layout document's data, the game's font chains and card sizes, and the size and time of
every image, font and icon file in the game's folder).  Identical copies of a card share one drawing.
Content that cannot be loaded never raises: each card keeps its last good image, and the cards
the errors are in are marked stale with their errors attached.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.paths import PACKAGE_DIR

if TYPE_CHECKING:
    from deckpress.generator.kit.translation import Edition

#: Resolution of the card images unless told otherwise, dots per inch of the printed card.
DEFAULT_DPI = 150
#: The resolutions a catalogue accepts (the export's own ceiling is 1,200 dpi).
MIN_DPI, MAX_DPI = 10, 1200
#: Files in a game's folder whose change redraws every card (images and fonts a layout may name).
DRAWN_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".ttf", ".otf", ".svg"})  # .svg: a game's own icons (icons/)
#: At most this many folder entries are looked at for :data:`DRAWN_SUFFIXES` per refresh.
MAX_SCANNED_ENTRIES = 5000
#: Rendering and rasterising hold this lock: PDFium (and reportlab's font registry) are not
#: thread-safe, and every catalogue of the process shares them.
RENDER_LOCK = threading.Lock()

_FAR = 10 ** 9  # the end line of a record that runs to the end of its file
Key = tuple[str, str, int, str]  # (kind, card id, copy, side)


@dataclass
class CardImage:
    """One side of one card as the studio shows it.

    Attributes:
        token: an opaque, URL-safe id: ``c`` and 16 hex digits (a variant's base images: ``b``
            and 16 hex digits), the same for the same (kind, card id, copy, side) across refreshes.
        kind: the deck kind (``cards.<kind>`` of layout.yaml).
        deck: the deck's name for people ("State cards").
        card_id: the card's id.
        name: its ``name``, ``title`` or ``code_name`` field, else its id (as the export names it).
        copy: 1, 2, ... for identical copies of a card.
        side: ``"face"`` or ``"back"``.
        file: the content file the card is written in, relative to the game's folder; for a card
            a variant adds or changes, the variant file's name.
        line: the 1-based line of the card's record (or of the variant's change) in ``file``; 0
            for a card made by a game's code.
        fields: the card's fields as the layout reads them (JSON-ready data).
        png: the last image drawn without error (PNG bytes, the card's trim plus bleed at the
            catalogue's dpi); None until the card has been drawn once.
        version: 0 before the first image; one more each time ``png`` changes.
        stale: True while the card's current data cannot be drawn: ``png`` is then the last good one.
        errors: the :class:`ContentError` on this card (on its record's lines, or its layout errors).
        changed: for a variant, ``{dotted field path: (before, after)}`` against the base game's
            record; ``{}`` otherwise.
        added: for a variant, whether the variant adds this card.
        record: the card's record as its content file writes it (a variant's: as merged), which
            a shipped game's code turns into ``fields`` (Mission Emission's ``colour: forest``
            is drawn as a colour code); ``{}`` for a card made by code.  Read-only.
        guides: where the cut line and the safe area lie on the image
            (:class:`~deckpress.generator.render.oneup.Guides`), for the page's proofing guides.
    """

    token: str
    kind: str
    deck: str
    card_id: str
    name: str
    copy: int
    side: str
    file: str
    line: int
    fields: dict
    png: bytes | None = None
    version: int = 0
    stale: bool = False
    errors: list = field(default_factory=list)
    changed: dict = field(default_factory=dict)
    added: bool = False
    record: dict = field(default_factory=dict)
    guides: Any = None


@dataclass
class Refresh:
    """What one :meth:`CardCatalogue.refresh` did.

    Attributes:
        changed: tokens whose image changed, or that appeared (cards and, for a variant, base images).
        removed: tokens that are gone.
        errors: every current :class:`ContentError`, sorted by file, line, column.
        seconds: wall-clock duration of the refresh, in seconds.
    """

    changed: list[str]
    removed: list[str]
    errors: list
    seconds: float = 0.0


@dataclass
class _Job:
    """One card's drawing (both sides), shared by its identical copies."""

    kind: str
    fields: dict
    fingerprint: str
    place: tuple[str, int]  # (error path, line) for an error that is not the layout's own
    draw: Callable  # the content's drawing: (jobs) -> {side fingerprint: png}

    def side(self, side: str) -> str:
        return f"{self.fingerprint}-{side}"


@dataclass
class _Slot:
    """One image to show: where it comes from and the job that draws it."""

    key: Key
    token: str
    deck: str
    name: str
    file: str
    line: int
    job: _Job
    changed: dict
    added: bool
    base: bool = False
    record: dict = field(default_factory=dict)
    guides: Any = None  # the kind's Guides


@dataclass
class _Loaded:
    """The content of one refresh: what to draw (a variant's merged content), the base a variant
    extends, the variant's document and every error found."""

    content: Any
    base: Any = None
    variant_doc: Any = None
    errors: list = field(default_factory=list)


def is_variant_file(path: Path) -> bool:
    """Whether ``path`` is a fan variant: a ``.yaml``/``.yml`` file whose top level has
    ``extends`` (read within the variant limits; a file that cannot be read as YAML counts as a
    variant, so that its errors are shown).  The CLI's ``is_variant`` decides the same way."""
    from deckpress.generator.content.variant import VARIANT_MAX_BYTES, VARIANT_MAX_DEPTH
    from deckpress.generator.content.yamlsafe import load_yaml

    path = Path(path)
    if not path.is_file() or path.suffix.lower() not in (".yaml", ".yml"):
        return False
    doc, _ = load_yaml(path, max_bytes=VARIANT_MAX_BYTES, max_depth=VARIANT_MAX_DEPTH)
    return doc is None or (isinstance(doc.data, dict) and "extends" in doc.data)  # no document: errors


class CardCatalogue:
    """Every card of a game folder or a fan variant, face and back, as images kept up to date by
    :meth:`refresh`.

    Args:
        target: a game folder (or a file inside one), or a variant file.  A shipped game's id is
            resolved by the caller (:func:`deckpress.generator.content.find_game`).
        base_folder: for a variant, the folder of the game it extends (None: the shipped game
            named by its ``extends``).
        dpi: resolution of the images, dots per inch of the printed card (10 to 1,200).

    Nothing is loaded or drawn until the first :meth:`refresh`; the title and game id are read
    loosely from the files until then.

    Raises:
        ValueError: ``dpi`` out of range.
        ContentErrors: ``target`` is a file that is neither a variant nor inside a game folder.
    """

    def __init__(self, target: Path, base_folder: Path | None = None, dpi: int = DEFAULT_DPI, lang: str | None = None,
                 allow_missing: bool = False):
        from deckpress.generator.content import GAME_FILE, find_game, game_id_of
        from deckpress.generator.content.variant import (
            VARIANT_MAX_BYTES,
            VARIANT_MAX_DEPTH,
        )
        from deckpress.generator.content.yamlsafe import load_yaml

        if not MIN_DPI <= int(dpi) <= MAX_DPI:
            raise ValueError(f"dpi {dpi}: expected {MIN_DPI} to {MAX_DPI}")
        self.target = Path(target)
        self.base_folder = Path(base_folder) if base_folder is not None else None
        self.dpi = int(dpi)
        self.lang, self.allow_missing = lang, allow_missing
        self._edition: Edition | None = None  # the language edition shown (deckpress studio --lang)
        self.is_variant: bool = is_variant_file(self.target)
        self.game_id: str | None = None
        self.title: str = self.target.stem if self.is_variant else self.target.name
        if self.is_variant:
            self.folder = self.target.parent
            doc, _ = load_yaml(self.target, max_bytes=VARIANT_MAX_BYTES, max_depth=VARIANT_MAX_DEPTH)
            data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
            self.game_id = data.get("extends") if isinstance(data.get("extends"), str) else None
            name = data.get("name")
            self.title = name if isinstance(name, str) else self.title
        else:
            self.folder = find_game(self.target) if self.target.is_file() else self.target
            if (self.folder / GAME_FILE).is_file():
                self.game_id = game_id_of(self.folder)
                doc, _ = load_yaml(self.folder / GAME_FILE, root=self.folder.resolve())
                data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
                title = data.get("title")
                self.title = title if isinstance(title, str) else self.folder.resolve().name
        self._lock = threading.RLock()
        self._cards: list[CardImage] = []
        self._base_cards: dict[Key, CardImage] = {}
        self._by_token: dict[str, CardImage] = {}
        self._errors: list[ContentError] = []
        self._pngs: dict[str, bytes] = {}  # side fingerprint -> png, for the images shown
        self._shown: dict[str, str] = {}  # token -> side fingerprint of the image it shows
        self._failing: set[str] = set()  # card fingerprints that could not be drawn last time
        self._draw_errors: dict[str, list[ContentError]] = {}  # token -> why the last good content could not draw it
        self._last_docs: dict[str, tuple[Any, str, str, Path]] = {}  # display -> (document, stem, game id, game root) of the last good content
        self._last_variant_doc = None
        self._stem_files: dict[str, str] = {}  # a card file's stem -> its file name
        self._shipped_bases: dict[str, Any] = {}
        self._base_root: Path | None = None

    # -- what the web app reads ---------------------------------------------------------------
    @property
    def cards(self) -> list[CardImage]:
        """Every card side, in deck order, then card order, then copy, face before back (a list
        replaced, never changed, by each refresh)."""
        return self._cards

    @property
    def errors(self) -> list[ContentError]:
        """Every current error, sorted by file, line, column."""
        return self._errors

    @property
    def base_cards(self) -> dict[Key, CardImage]:
        """For a variant: the base game's images keyed ``(kind, card id, copy, side)``, drawn the
        same way (for the variant's card beside the base's); ``{}`` for a game."""
        return self._base_cards

    def search_example(self) -> str:
        """A ``field=value`` search that finds a card of this game, from its first card's own
        record (``title=Spark``, ``values.forest.value=60``): the studio's search box shows it as
        its hint, so the hint names fields the game has.  Of the first card's fields, the one
        that finds the fewest cards (the most telling example); ``"name=..."`` for a game of no
        records.  Worked out once per refresh."""
        cards = self._cards
        cached = getattr(self, "_example_for", None)
        if cached is not None and cached[0] is cards:
            return cached[1]
        candidates = next((found for card in cards[:1] for found in [_examples(card.record or card.fields, "")] if found), [])
        sample = cards[:2000]
        best = min(candidates[:24], key=lambda q: sum(1 for c in sample if matches(c, q)), default="name=...")
        self._example_for = (cards, best)
        return best

    def decks(self) -> list[tuple[str, str, list[CardImage]]]:
        """``(kind, deck name, card sides)`` per deck, in deck order."""
        out: list[tuple[str, str, list[CardImage]]] = []
        for card in self._cards:
            if not out or (out[-1][0], out[-1][1]) != (card.kind, card.deck):
                out.append((card.kind, card.deck, []))
            out[-1][2].append(card)
        return out

    def card(self, token: str) -> CardImage | None:
        """The card side (or, for a variant, the base image) of ``token``; None if there is none."""
        return self._by_token.get(token)

    def watched(self) -> list[Path]:
        """The files and folders whose change should trigger :meth:`refresh`: the game's folder;
        for a variant, the variant file, and the base folder when it was given and lies outside
        the installed package."""
        if not self.is_variant:
            return [self.folder]
        paths = [self.target]
        if self.base_folder is not None and not _inside(self.base_folder, PACKAGE_DIR):
            paths.append(self.base_folder)
        return paths

    def shown_path(self, error: ContentError) -> str:
        """``error``'s file as the page shows it: relative to the game's folder (a variant's:
        relative to the variant's folder, or to the base game's folder for its files); as the
        error names it when it lies in neither (a shipped file stays ``deckpress/content/...``,
        never the installation's absolute path)."""
        shown = error.path
        candidates = []
        if shown.startswith("deckpress/"):
            candidates.append(PACKAGE_DIR / shown[len("deckpress/"):])
        candidates.append(Path(shown) if os.path.isabs(shown) else Path.cwd() / shown)
        for candidate in candidates:
            relative = self._relative(candidate)
            if relative is not None:
                return relative
        return shown

    def shown(self, error: ContentError) -> str:
        """``file:line:column: message`` (``file: message`` for a whole file) with the file as
        :meth:`shown_path` gives it and the folder's own prefix taken out of paths the message
        quotes; control characters escaped as :class:`ContentError` does."""
        from deckpress.generator.content.safetext import escape

        message = error.message
        for folder in self._folders():
            for prefix in {display_path(folder), str(folder)}:
                if prefix not in (".", ""):
                    message = message.replace(prefix.rstrip("/") + "/", "")
        where = f"{self.shown_path(error)}:{error.line}:{error.column}" if error.line else self.shown_path(error)
        return escape(f"{where}: {message}")

    # -- refresh ------------------------------------------------------------------------------
    def refresh(self) -> Refresh:
        """(Re)load the content and redraw the cards whose fingerprint changed; thread-safe (one
        refresh at a time; drawing holds :data:`RENDER_LOCK`).

        Never raises for the content: load errors keep every card's last good image and mark
        stale the cards whose records the errors are in (every card when none of the errors can
        be placed in a card's record, see :meth:`_attribute`); a card that cannot be laid out is
        stale with its errors, the others are drawn; an unexpected exception while drawing a card
        becomes an error on that card saying it could not be drawn.
        """
        started = time.perf_counter()
        with self._lock:
            try:
                loaded = self._load()
            except Exception as exc:  # a bug or the environment: said in the errors, not raised
                loaded = _Loaded(None, errors=[ContentError(display_path(self.target), 0, 0,
                                                            f"could not be loaded ({type(exc).__name__}: {exc})")])
            try:
                done = self._redraw(loaded) if loaded.content is not None else None
            except Exception as exc:  # a bug: the last good cards stay, the error is said
                loaded = _Loaded(None, errors=loaded.errors + [ContentError(display_path(self.target), 0, 0,
                                                                            f"the cards could not be drawn ({type(exc).__name__}: {exc})")])
                done = None
            if done is None:
                done = self._keep(loaded)
            done.seconds = time.perf_counter() - started
            return done

    def _load(self) -> _Loaded:
        """The content to draw, or None with every error (as ``deckpress check``/``validate`` find them)."""
        from deckpress.generator.content import check_game

        if not self.is_variant:
            content, errors = check_game(self.folder)
            if self.lang and not errors:
                content, errors = self._in_language(content)
            return _Loaded(content if not errors else None, errors=list(dict.fromkeys(errors)))  # validate's order
        from deckpress.generator.content.variant import load_variant, merge

        variant, errors = load_variant(self.target)
        if variant is None:
            return _Loaded(None, errors=sorted(set(errors)))
        self.game_id = variant.game_id
        self.title = variant.doc.data.get("name") if isinstance(variant.doc.data.get("name"), str) else self.target.stem
        base, base_errors = self._base(variant.doc)
        if base_errors:
            return _Loaded(None, variant_doc=variant.doc, errors=sorted(set(errors + base_errors)))
        merged, merge_errors = merge(variant, base)
        errors = sorted(set(errors + merge_errors))
        if self.lang and not errors:
            merged, errors = self._in_language(merged)
        return _Loaded(None if errors else merged, base, variant.doc, errors)

    def _in_language(self, content) -> tuple[Any, list[ContentError]]:
        """``content`` as its ``self.lang`` edition, or the errors of its catalogue (a missing
        translation unless ``allow_missing``: one error listing them all)."""
        from deckpress.generator.kit.translation import edition

        assert self.lang is not None  # called only for a studio showing an edition
        try:
            translated, shown = edition(content, self.lang, self.target if self.is_variant else None)
        except ContentErrors as exc:
            return content, list(exc.errors)
        self._edition = shown
        if shown.missing and not self.allow_missing:
            return content, [shown.missing_error()]
        return translated, []

    def _base(self, vdoc) -> tuple[Any, list[ContentError]]:
        """The game a variant extends (a shipped game is loaded once: it does not change)."""
        from deckpress.generator.content.variant import base_content

        extends = vdoc.data["extends"]
        if self.base_folder is None and extends in self._shipped_bases:
            return self._shipped_bases[extends], []
        base, errors = base_content(vdoc, self.base_folder)
        if self.base_folder is None and base is not None and not errors:
            self._shipped_bases[extends] = base
        return base, errors

    def _redraw(self, loaded: _Loaded) -> Refresh | None:
        """Draw what changed of loaded content; None when its cards cannot even be listed (then
        the refresh keeps the last good cards, as for content that does not load)."""
        content = loaded.content
        if loaded.base is not None:
            self._base_root = Path(loaded.base.root)  # the base game's files are shown relative to it
        try:
            slots = self._slots(content, loaded)
            base_slots = self._slots(loaded.base, None, base=True) if loaded.base is not None else []
        except ContentErrors as exc:  # a font game.yaml declares cannot be used, a card size it does not have
            loaded.errors = sorted(set(exc.errors))
            loaded.content = None
            return None
        except Exception as exc:
            loaded.errors = [ContentError(display_path(self.folder), 0, 0, f"the cards could not be made ({type(exc).__name__}: {exc})")]
            loaded.content = None
            return None
        if not self.is_variant:
            self.game_id = content.game_id
            self.title = content["game"].get("title") or self.title
        jobs: dict[str, _Job] = {}
        for slot in slots + base_slots:
            jobs.setdefault(slot.job.fingerprint, slot.job)
        needed = [j for j in jobs.values() if j.side("face") not in self._pngs or j.side("back") not in self._pngs]
        failed = self._draw_all(needed)

        old = {**{c.token: c for c in self._cards}, **{c.token: c for c in self._base_cards.values()}}
        changed: list[str] = []
        cards, base_cards = [], {}
        shown: dict[str, str] = {}
        for slot in slots + base_slots:
            image, fingerprint = self._image(slot, old.get(slot.token), failed)
            if fingerprint:
                shown[slot.token] = fingerprint
            if slot.token not in old or image.png is not old[slot.token].png:
                changed.append(slot.token)
            if slot.base:
                base_cards[slot.key] = image
            else:
                cards.append(image)
        current = {s.token for s in slots + base_slots}
        removed = [t for t in old if t not in current]
        errors = sorted({e for errs in failed.values() for e in errs})
        self._pngs = {fp: self._pngs[fp] for fp in set(shown.values()) if fp in self._pngs}
        self._shown, self._failing = shown, set(failed)
        self._draw_errors = {s.token: failed[s.job.fingerprint] for s in slots if s.job.fingerprint in failed}
        self._remember(loaded)
        self._cards, self._base_cards, self._errors = cards, base_cards, errors
        self._by_token = {c.token: c for c in cards} | {c.token: c for c in base_cards.values()}
        return Refresh(changed, removed, errors)

    def _image(self, slot: _Slot, old: CardImage | None, failed: dict[str, list]) -> tuple[CardImage, str | None]:
        """The image of ``slot`` after drawing, and the fingerprint of the png it shows."""
        side = slot.key[3]
        fingerprint = slot.job.side(side)
        errors = failed.get(slot.job.fingerprint)
        png: bytes | None
        shows: str | None
        if errors is None:
            png, stale, shows = self._pngs[fingerprint], False, fingerprint
            errors = []
        else:
            png, stale, shows = (old.png if old else None), True, self._shown.get(slot.token)
        version = old.version if old else 0
        if old is not None and old.png is not None and png is not None and png is not old.png and png == old.png:
            png = old.png  # drawn again, the same bytes: the same image
        if png is not None and (old is None or png is not old.png):
            version += 1
        kind, card_id, copy, _ = slot.key
        image = CardImage(slot.token, kind, slot.deck, card_id, slot.name, copy, side, slot.file, slot.line,
                          slot.job.fields, png, version, stale, list(errors), slot.changed, slot.added, slot.record, slot.guides)
        return (old if old == image else image), shows

    def _keep(self, loaded: _Loaded) -> Refresh:
        """Content that cannot be loaded: every card keeps its last good image; the cards whose
        records the errors are on are stale with those errors, every card when none of the errors
        can be placed in a card's record (:meth:`_attribute`).  A card the last good content could not draw stays stale,
        with its drawing errors unless errors are found in its record."""
        on_cards, anywhere = self._attribute(loaded)
        cards = []
        for card in self._cards:
            errors = on_cards.get((str(card.fields.get("source", "")), card.card_id)) or self._draw_errors.get(card.token, [])
            image = replace(card, stale=bool(errors) or anywhere, errors=list(errors))
            cards.append(card if image == card else image)
        self._cards = cards
        self._by_token = {c.token: c for c in cards} | {c.token: c for c in self._base_cards.values()}
        self._errors = list(dict.fromkeys(loaded.errors))  # as the checks list them, as deckpress validate prints them
        if loaded.variant_doc is not None:
            self._last_variant_doc = loaded.variant_doc
        return Refresh([], [], self._errors)

    # -- what is drawn ------------------------------------------------------------------------
    def _slots(self, content, loaded: _Loaded | None, base: bool = False) -> list[_Slot]:
        """Every card side of ``content`` in order, each with the job that draws its card.
        ``loaded`` (the variant's, for its merged content) marks what the variant changed;
        ``base``: the base game's images of a variant (tokens ``b...`` rather than ``c...``).

        Raises:
            ContentErrors: a font game.yaml declares cannot be used (:func:`drawn_as`), or the
                layout names a card size game.yaml does not have (:func:`compile_layout`).
        """
        from deckpress.generator.kit.adapters import kit_module
        from deckpress.generator.kit.translation import building
        from deckpress.generator.render.kit import drawn_as
        from deckpress.generator.render.layout import compile_layout
        from deckpress.generator.render.oneup import guides_of

        with building(self._edition) if self._edition is not None else nullcontext():
            decks = kit_module(content.game_id).decks(content)  # the kit's own texts in the edition's language
        drawing = drawn_as(content)
        guides = {kind: guides_of(card) for kind, card in compile_layout(content.documents["layout"], sizes=drawing["sizes"]).cards.items()}
        draw_hash = self._drawing_hash(content, drawing)
        locate = drawing["locate"]
        draw = self._drawer(content, drawing)
        variant = self._variant_places(content, loaded) if loaded is not None and loaded.variant_doc is not None else {}
        slots: list[_Slot] = []
        copies: dict[tuple[str, str], int] = {}
        jobs: dict[str, _Job] = {}
        for deck in decks:
            for fields in deck.cards:
                card_id = str(fields["id"])
                source = str(fields.get("source", ""))
                copy = copies[(deck.kind, card_id)] = copies.get((deck.kind, card_id), 0) + 1
                place = locate(source, card_id)
                record: dict = {}
                if place is not None:
                    doc, docpath = place
                    line = doc.where(docpath)[0]
                    file, error_at = self._relative(doc.path) or doc.display, (doc.display, line)
                    record = doc.data[docpath[0]][docpath[1]]
                else:
                    line, file, error_at = 0, source, (display_path(Path(content.root) / source), 0)
                changes, added, variant_line = variant.get((source, card_id), ({}, False, 0))
                if variant_line:
                    file, line = self.target.name, variant_line
                fingerprint = _sha256(draw_hash, _canonical([deck.kind, fields, _kind_layout(content, deck.kind_of(fields))]))
                job = jobs.setdefault(fingerprint, _Job(deck.kind, fields, fingerprint, error_at, draw))
                name = str(fields.get("name") or fields.get("title") or fields.get("code_name") or card_id)
                for side in ("face", "back"):
                    key = (deck.kind, card_id, copy, side)
                    token = ("b" if base else "c") + hashlib.sha256(_canonical(list(key))).hexdigest()[:16]
                    slots.append(_Slot(key, token, deck.name, name, file, line, job, changes, added, base, record, guides.get(deck.kind_of(fields))))
        return slots

    def _variant_places(self, merged, loaded: _Loaded) -> dict[tuple[str, str], tuple[dict, bool, int]]:
        """``(card's source file, id) -> (changed fields, added, line of its change in the variant)``."""
        from deckpress.generator.content.variant import diff

        files = {stem: Path(doc.path).name for stem, doc in merged.documents.items()}
        found: dict[tuple[str, str], tuple[dict, bool, int]] = {}
        lines: dict[tuple[str, str], int] = {}
        for _, stem, card_id, line in _change_lines(loaded.variant_doc):
            lines.setdefault((stem, card_id), line)
        content_diff = diff(loaded.base, merged)
        for change in content_diff.changed:
            found[(files.get(change.file, change.file), str(change.id))] = (dict(change.fields), False, lines.get((change.file, change.id), 0))
        for stem, card_id in content_diff.added:
            found[(files.get(stem, stem), str(card_id))] = ({}, True, lines.get((stem, card_id), 0))
        return found

    def _drawing_hash(self, content, drawing: dict) -> str:
        """What every card's drawing reads besides its own fields and its kind's layout
        (:func:`_kind_layout`): the layout's shared parts (palette, fonts, anything but its
        ``cards``), the card sizes, the font chains, and the size and time of each image and font
        file of the folder.  So an edit to one kind's face in layout.yaml redraws that kind only."""
        files = []
        root = Path(content.root)
        seen = 0
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            seen += len(dirs) + len(names)
            for name in sorted(names):
                if Path(name).suffix.lower() in DRAWN_SUFFIXES or os.path.relpath(folder, root) == "icons":  # icons/*.yaml too
                    with _quiet():
                        st = os.stat(os.path.join(folder, name))
                        files.append([os.path.relpath(os.path.join(folder, name), root), st.st_size, st.st_mtime_ns])
            if seen > MAX_SCANNED_ENTRIES:
                break
        sizes = sorted((drawing.get("sizes") or {}).items())
        return _sha256(_canonical(_shared_layout(content)), repr(sizes).encode(), repr(drawing["fonts"]).encode(),
                       _canonical(files), str(self.dpi).encode())

    def _drawer(self, content, drawing: dict) -> Callable[[list[_Job]], dict[str, bytes]]:
        """``draw(jobs) -> {side fingerprint: png}``: the jobs' cards drawn by the export's path in
        one PDF (one deck per kind), rasterised and encoded.

        Raises (the returned function):
            ContentErrors: a card cannot be laid out.
        """
        from deckpress.generator.export.images import rasterise
        from deckpress.generator.kit.printdata import Deck
        from deckpress.generator.render.oneup import one_up_pdf

        layout_doc = content.documents["layout"]
        title = f"{content['game'].get('title', content.game_id)}: studio"

        def draw(jobs: list[_Job]) -> dict[str, bytes]:
            by_kind: dict[str, list[_Job]] = {}
            for job in jobs:
                by_kind.setdefault(job.kind, []).append(job)
            decks = [Deck(kind, kind, [j.fields for j in kind_jobs]) for kind, kind_jobs in by_kind.items()]
            order = [j.side(side) for kind_jobs in by_kind.values() for j in kind_jobs for side in ("face", "back")]
            with RENDER_LOCK:
                pdf, pages = one_up_pdf(layout_doc, decks, title=title, **drawing)
                if len(pages) != len(order):
                    raise RuntimeError(f"{len(pages)} pages drawn for {len(order)} card sides")
                pngs = _encoded(rasterise(pdf, pages, self.dpi), self.dpi)
            return dict(zip(order, pngs, strict=True))

        return draw

    def _draw_all(self, jobs: list[_Job]) -> dict[str, list[ContentError]]:
        """Draw ``jobs`` into :attr:`_pngs`: together (one PDF per content drawn), and where that
        fails one by one, so that a card that cannot be drawn fails alone.  Returns the errors of
        each card that could not be drawn, by card fingerprint."""
        failed: dict[str, list[ContentError]] = {}
        groups: dict[int, list[_Job]] = {}
        for job in jobs:
            groups.setdefault(id(job.draw), []).append(job)
        for group in groups.values():
            alone = [j for j in group if j.fingerprint in self._failing]  # failed last time: drawn alone at once
            together = [j for j in group if j.fingerprint not in self._failing]
            if together:
                try:
                    self._pngs.update(together[0].draw(together))
                except Exception:
                    alone = together + alone
            for job in alone:
                try:
                    self._pngs.update(job.draw([job]))
                except ContentErrors as exc:
                    failed[job.fingerprint] = exc.errors
                except Exception as exc:  # a bug in drawing: this card's error, not the studio's end
                    path, line = job.place
                    failed[job.fingerprint] = [ContentError(path, line, 0, f"{job.kind} card '{job.fields.get('id', '?')}' could not be "
                                                                           f"drawn ({type(exc).__name__}: {exc})")]
        return failed

    # -- where errors are ---------------------------------------------------------------------
    def _remember(self, loaded: _Loaded) -> None:
        """Keep the documents of good content, to find which card an error of a later broken
        version is in."""
        source = loaded.base if loaded.base is not None else loaded.content
        root = Path(source.root).resolve()
        self._last_docs = {doc.display: (doc, stem, source.game_id, root) for stem, doc in source.documents.items()}
        self._stem_files = {stem: Path(doc.path).name for stem, doc in source.documents.items()}
        self._base_root = Path(loaded.base.root) if loaded.base is not None else None
        if loaded.variant_doc is not None:
            self._last_variant_doc = loaded.variant_doc

    def _attribute(self, loaded: _Loaded) -> tuple[dict[tuple[str, str], list[ContentError]], bool]:
        """``({(card's source file, card id): the errors in its record}, whether every card is
        to be marked stale)``.  A record spans from its own line to the line before the next
        record (or the next top-level key), read from the file as it is now when it still parses,
        else from the last good content; a variant's change spans the same way in the variant.

        Every card is stale only when it cannot be told which are: no error lies in the record
        of a card (nor in a new card's, which is not shown yet).  An error elsewhere (game.yaml,
        layout.yaml, a record that is not a card, such as a mission) beside errors in cards'
        records stays in the error list only."""
        known = {(str(c.fields.get("source", "")), c.card_id) for c in self._cards}
        spans: dict[str, list[tuple[int, int, tuple[str, str], bool]]] = {}
        on_cards: dict[tuple[str, str], list[ContentError]] = {}
        told = False
        vdoc = loaded.variant_doc or self._last_variant_doc
        for error in loaded.errors:
            if error.path not in spans:
                spans[error.path] = self._spans(error.path, vdoc)
            for start, end, card, new in spans[error.path]:
                if not error.line or not start <= error.line <= end:
                    continue
                if card in known:
                    on_cards.setdefault(card, []).append(error)
                    told = True
                told = told or new
        return on_cards, bool(loaded.errors) and not told

    def _spans(self, shown: str, vdoc) -> list[tuple[int, int, tuple[str, str], bool]]:
        """The records of the file ``shown`` (as errors name it): ``(first line, last line,
        (card's source file, card id), whether the record is new)``: a record whose id the last
        good content does not have, or a variant's ``add``."""
        from deckpress.generator.content import record_list

        if vdoc is not None and shown == vdoc.display:
            current = self._reparse_variant(vdoc)
            changes = _change_lines(current)
            out = []
            for start, end, index in _list_spans(current, "changes"):
                op, stem, card_id, _ = changes[index]
                out.append((start, end, (self._stem_files.get(stem, f"{stem}.yaml"), card_id), op == "add"))
            return out
        if shown not in self._last_docs:
            return []
        last, stem, game_id, root = self._last_docs[shown]
        last_key = record_list(game_id, stem, last.data)
        before = {_record_id(r, stem, i) for i, r in enumerate(last.data[last_key])} if last_key else set()
        for doc in (self._reparse(last, root), last):
            key = record_list(game_id, stem, doc.data) if doc is not None else None
            if key is None:
                continue
            name = Path(last.path).name
            out = []
            for start, end, index in _list_spans(doc, key):
                card_id = _record_id(doc.data[key][index], stem, index)
                out.append((start, end, (name, card_id), card_id not in before))
            return out
        return []

    def _reparse(self, last, root: Path):
        """The file of document ``last`` read again as it is now, through the gate inside the
        game's folder ``root`` (None when it does not parse)."""
        from deckpress.generator.content.csvfile import load_csv
        from deckpress.generator.content.yamlsafe import load_yaml

        with _quiet():
            if Path(last.path).suffix.lower() == ".csv":
                return load_csv(Path(last.path), last.display, root)[0] or self._loose_csv(last)
            return load_yaml(Path(last.path), last.display, root=root)[0]
        return None

    @staticmethod
    def _loose_csv(last):
        """A CSV file that no longer loads (a refused character, an extra cell): each row's line
        and id read with the csv module alone."""
        import csv

        from deckpress.generator.content.yamlsafe import Document

        with _quiet():
            text = Path(last.path).read_text("utf-8-sig", errors="replace")
            reader = csv.reader(io.StringIO(text))
            header = next(reader)
            doc = Document(Path(last.path), {"cards": []}, display=last.display)
            start = reader.line_num + 1
            for row in reader:
                if any(cell.strip() for cell in row):
                    doc.positions[("cards", len(doc.data["cards"]))] = (start, 1)
                    doc.data["cards"].append({k: v for k, v in zip(header, row) if v.strip()})
                start = reader.line_num + 1
            return doc
        return None

    def _reparse_variant(self, vdoc):
        """The variant file as it is now, within the variant limits (``vdoc`` when it does not parse)."""
        from deckpress.generator.content.variant import (
            VARIANT_MAX_BYTES,
            VARIANT_MAX_DEPTH,
            VARIANT_MAX_NODES,
        )
        from deckpress.generator.content.yamlsafe import load_yaml

        with _quiet():
            doc, _ = load_yaml(self.target, vdoc.display, max_bytes=VARIANT_MAX_BYTES, max_depth=VARIANT_MAX_DEPTH,
                               max_nodes=VARIANT_MAX_NODES)
            if doc is not None:
                return doc
        return vdoc

    # -- paths --------------------------------------------------------------------------------
    def _folders(self) -> list[Path]:
        """The folders paths are shown relative to, nearest first."""
        folders = [Path(os.path.abspath(self.folder))]
        for extra in (self.base_folder, self._base_root):
            if extra is not None:
                folders.append(Path(os.path.abspath(extra)))
        return folders

    def _relative(self, path: Path | str) -> str | None:
        """``path`` relative to the game's (or variant's, or base game's) folder; None outside them."""
        p = Path(os.path.abspath(path))
        for folder in self._folders():
            for a, b in ((p, folder), (p.resolve(), folder.resolve())):
                try:
                    rel = a.relative_to(b).as_posix()
                except ValueError:
                    continue
                return rel if rel != "." else folder.name
        return None


#: Fields that say where a fact comes from: no example of a search (they match nearly every card).
_NOT_EXAMPLES = {"id", "source", "provenance", "method", "note", "notes", "confidence", "year", "file"}


def _examples(data: Any, prefix: str) -> list[str]:
    """Every ``path=value`` in ``data`` (depth first, lists through their first item) whose value
    is a number or one short word, in order."""
    if isinstance(data, dict):
        return [found for key, value in data.items()
                if isinstance(key, str) and key not in _NOT_EXAMPLES and not key.startswith("_") for found in _examples(value, f"{prefix}{key}.")]
    if isinstance(data, list):
        return _examples(data[0], prefix) if data else []
    if isinstance(data, bool) or not prefix:
        return []
    if isinstance(data, (int, float)) or (isinstance(data, str) and re.fullmatch(r"[\w+-]{1,24}", data)):
        return [f"{prefix[:-1]}={data}"]
    return []


def matches(card: CardImage, query: str) -> bool:
    """Whether ``card`` is one the search ``query`` asks for.

    ``query`` is words separated by spaces, every one of which must match (an empty query
    matches every card); ``"two words"`` in double quotes is one word.  A plain word matches,
    case-insensitively, part of the card's id, name, deck, kind, file or any of its field values
    (nested values included).  ``field=value`` (or ``field:value``; ``field="two words"``) matches
    part of that field's value in the card's fields or in its record as written
    (:attr:`CardImage.record`: Mission Emission's ``colour=forest``); ``field`` may be a dotted
    path into nested fields (through lists too: ``missions.value=17``, ``values.forest.value=17``),
    and where neither has such a field, ``id``, ``name``, ``deck``, ``kind``, ``file``, ``side``
    and ``copy`` name the card's own.  A ``field=value`` naming nothing the card has is taken as
    a plain word (which does not search the record: its sources and notes would match nearly
    every card)."""
    for text, plain in _words(query):
        if not _word_matches(card, text, plain):
            return False
    return True


_FIELD_WORD = re.compile(r"^([A-Za-z_][\w.-]*)[=:](.*)$", re.DOTALL)
_ATTRIBUTES = {"id": "card_id", "card_id": "card_id", "name": "name", "deck": "deck", "kind": "kind",
               "file": "file", "side": "side", "copy": "copy"}


def _words(query: str) -> list[tuple[str, bool]]:
    """``(word, plain)`` of a search: ``plain`` for a quoted phrase (never ``field=value``)."""
    words = []
    for m in re.finditer(r'([^\s"=:]+[=:])"([^"]*)"?|"([^"]*)"?|(\S+)', query or ""):
        if m.group(1):
            words.append((m.group(1) + m.group(2), False))
        elif m.group(3) is not None:
            words.append((m.group(3), True))
        else:
            words.append((m.group(4), False))
    return words


def _word_matches(card: CardImage, word: str, plain: bool) -> bool:
    if not plain:
        m = _FIELD_WORD.match(word)
        if m:
            values = _field_values(card, m.group(1))
            if values is not None:
                wanted = m.group(2).casefold()
                return any(wanted in v for v in values)
    wanted = word.casefold()
    texts = [card.card_id, card.name, card.deck, card.kind, card.file]
    return any(wanted in t.casefold() for t in texts) or any(wanted in v for v in _flat(card.fields))


def _field_values(card: CardImage, dotted: str) -> list[str] | None:
    """The values (casefolded text, flattened) at ``dotted`` in the card's fields and its record,
    else of the card's own attribute of that name; None when none exists."""
    values: list = [card.fields, card.record]
    for part in dotted.split("."):
        found = []
        for value in values:
            for holder in (value if isinstance(value, list) else [value]):
                if not isinstance(holder, dict):
                    continue
                if part in holder:
                    found.append(holder[part])
                else:
                    found += [v for k, v in holder.items() if str(k).casefold() == part.casefold()]
        values = found
        if not values:
            break
    if values:
        return [text for value in values for text in _flat(value)]
    attribute = _ATTRIBUTES.get(dotted.casefold())
    if attribute is not None:
        return [str(getattr(card, attribute)).casefold()]
    return None


def _flat(value: Any) -> Iterator[str]:
    """Every scalar in ``value`` (dict values, list items, nested) as casefolded text."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _flat(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat(v)
    elif value is not None:
        yield (json.dumps(value) if isinstance(value, bool) else str(value)).casefold()


# -- helpers ------------------------------------------------------------------------------------
def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")


def _sha256(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _encoded(pages, dpi: int) -> list[bytes]:
    """Each rasterised ``(page, PIL image)`` as PNG bytes (``dpi`` recorded, zlib level
    :data:`deckpress.generator.export.images.PNG_COMPRESSION`), in order; encoded by a few
    threads while the next pages are rasterised, with only a few images in memory at once."""
    from deckpress.generator.export.images import PNG_COMPRESSION

    def encode(image) -> bytes:
        buf = io.BytesIO()
        image.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=PNG_COMPRESSION)
        return buf.getvalue()

    out: list[bytes] = []
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        pending: deque[Future] = deque()
        for _, image in pages:
            pending.append(pool.submit(encode, image))
            while len(pending) > 8:
                out.append(pending.popleft().result())
        out += [f.result() for f in pending]
    return out


def _list_spans(doc, key: str) -> list[tuple[int, int, int]]:
    """``(first line, last line, index)`` of each record of the list ``doc.data[key]``, in file
    order: up to the line before the next record or the next top-level key."""
    if doc is None or not isinstance(doc.data, dict) or not isinstance(doc.data.get(key), list):
        return []
    starts = sorted((doc.positions[(key, i)][0], i) for i in range(len(doc.data[key])) if (key, i) in doc.positions)
    tops = sorted(line for path, (line, _) in {**doc.positions, **doc.key_positions}.items() if len(path) == 1)
    spans = []
    for n, (start, index) in enumerate(starts):
        end = starts[n + 1][0] - 1 if n + 1 < len(starts) else min([t - 1 for t in tops if t > start], default=_FAR)
        spans.append((start, max(start, end), index))
    return spans


def _change_lines(vdoc) -> list[tuple[str, str, str, int]]:
    """``(operation, file stem, card id, line)`` of each change of a variant document, in order
    (a change that cannot be read gives empty names, so the list stays aligned with the changes)."""
    changes = vdoc.data.get("changes") if vdoc is not None and isinstance(vdoc.data, dict) else None
    out = []
    for i, change in enumerate(changes if isinstance(changes, list) else []):
        op = stem = card_id = ""
        if isinstance(change, dict) and len(change) == 1:
            (op, spec), = change.items()
            if isinstance(spec, dict):
                stem = str(spec.get("file", ""))
                card = spec.get("card") if op == "add" else spec
                card_id = str(card.get("id", "")) if isinstance(card, dict) else ""
        out.append((str(op), stem, card_id, vdoc.where(("changes", i))[0]))
    return out


def _record_id(record: Any, stem: str, index: int) -> str:
    """The id of a card file's record as its card has it: its ``id``, else ``<deck>-<n>`` (a game
    made from data alone numbers the cards without an id from 1)."""
    return str(record["id"]) if isinstance(record, dict) and "id" in record else f"{stem}-{index + 1}"


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path(folder).resolve())
        return True
    except ValueError:
        return False


class _quiet:
    """``with _quiet():`` swallows an OSError or a parsing failure of a best-effort read."""

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return kind is not None and issubclass(kind, (OSError, ValueError, UnicodeError, StopIteration))


def _shared_layout(content) -> Any:
    """The layout document's data without its per-kind ``cards`` entries (what every kind reads)."""
    data = content.documents["layout"].data
    return {k: v for k, v in data.items() if k != "cards"} if isinstance(data, dict) else data


def _kind_layout(content, kind: str) -> Any:
    """The layout of card kind ``kind`` (``cards.<kind>`` of layout.yaml, what it ``extends`` included), None if it has none."""
    from deckpress.generator.content.layout_kinds import kind_spec

    data = content.documents["layout"].data
    cards = data.get("cards") if isinstance(data, dict) else None
    return kind_spec(cards, kind) if isinstance(cards, dict) and kind in cards else None
