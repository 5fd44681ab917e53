"""Tabletop Simulator decks: for each deck, sheets of card faces (at most 10 x 7 slots and
:data:`MAX_SHEET_PX` each way, the last slot holding the image TTS shows for a hidden card: the
shared back, or a plain grey card when each card has its own back), the back (one image, or a
sheet of backs when the cards' backs differ), and a saved-object JSON that TTS loads from its
Saved Objects folder (``Documents/My Games/Tabletop Simulator/Saves/Saved Objects``).

The JSON follows TTS's ``DeckCustom`` object: ``CustomDeck`` entries (``FaceURL``, ``BackURL``,
``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``), ``DeckIDs`` and one ``Card`` per
card in ``ContainedObjects``, ``CardID`` = sheet number x 100 + slot (the layout TTS's own deck
builder saves; see for example ZONT3/tts-deck-generator, tts_deckgen/save_data.py).  Image paths
are ``file://`` URLs of the files written, so the deck opens on the machine that exported it;
to share a deck, upload the images (to Steam Cloud from TTS), or host them online and export
with a base URL (``--base-url``): each image's URL is then that address and the file's name.
"""
from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import quote, urlsplit

from PIL import Image

from deckpress.generator.export import MM_PER_INCH, trim_of
from deckpress.generator.export.images import rasterise
from deckpress.generator.output import write_atomic
from deckpress.generator.render.oneup import Page

#: TTS's largest deck sheet, in cards across and down.
MAX_COLUMNS, MAX_ROWS = 10, 7
#: The largest sheet image TTS takes well, in px each way: "keep the dimensions of your images under
#: 4096x4096", a custom deck 4096 x 4096 (Tabletop Simulator Knowledge Base, "Asset Creation",
#: kb.tabletopsimulator.com/custom-content/asset-creation/).  At 150 dpi a full 10 x 7 sheet of
#: poker cards is 3,720 x 3,640 px; at a higher resolution a sheet holds fewer cards.
MAX_SHEET_PX = 4096


class SheetTooLarge(ValueError):
    """At this resolution not even one card and the hidden-card slot fit a sheet of
    :data:`MAX_SHEET_PX`; the message names the card size and the highest dpi that fits."""


def sheet_limits(card_px: tuple[int, int]) -> tuple[int, int]:
    """The most columns and rows of a sheet of cards ``card_px`` (width, height) px: TTS's 10 x 7,
    fewer where the sheet would pass :data:`MAX_SHEET_PX` either way."""
    w, h = card_px
    return min(MAX_COLUMNS, MAX_SHEET_PX // w), min(MAX_ROWS, MAX_SHEET_PX // h)


def sheet_grid(cards: int, limits: tuple[int, int] = (MAX_COLUMNS, MAX_ROWS)) -> tuple[int, int]:
    """Columns and rows of a sheet for ``cards`` cards plus the hidden-card slot, within
    ``limits`` (columns, rows; see :func:`sheet_limits`)."""
    slots = cards + 1
    columns = min(limits[0], slots)
    return columns, math.ceil(slots / columns)


def _card_px(trim_mm: tuple[float, float], dpi: int) -> tuple[int, int]:
    return round(trim_mm[0] / MM_PER_INCH * dpi), round(trim_mm[1] / MM_PER_INCH * dpi)


def check_resolution(pages: list[Page], dpi: int) -> None:
    """Refuse a resolution at which some deck's sheet cannot hold a card and the hidden-card slot
    within :data:`MAX_SHEET_PX` (poker cards above about 825 dpi, 70 x 120 mm tarot cards above
    743).  The advice is the highest dpi at which every deck fits: the lowest of the decks'
    limits, so following it never meets a second refusal for another deck.

    Raises:
        SheetTooLarge: naming the deck (its card kind) that sets that limit, its card's size in
            mm and in px at ``dpi``, and the limit.
    """
    trims: dict[str, tuple[float, float]] = {}
    for page in pages:
        trims.setdefault(page.kind, trim_of(page))
    limits = {kind: highest_dpi(trim, dpi) for kind, trim in trims.items() if _slots(trim, dpi) < 2}
    if limits:
        kind = min(limits, key=limits.__getitem__)  # the first deck of the lowest limit
        trim = trims[kind]
        w, h = _card_px(trim, dpi)
        raise SheetTooLarge(f"at {dpi} dpi a {trim[0]:g} x {trim[1]:g} mm card is {w:,} x {h:,} px, and a Tabletop Simulator sheet "
                            f"holds a card and the hidden-card slot within {MAX_SHEET_PX:,} px each way: use --dpi {limits[kind]} or less, "
                            f"the highest at which every deck fits (set by deck '{kind}')")


#: The most image memory one TTS export holds at once: every card's face and back, 3 bytes a
#: pixel, are kept until its deck's sheets are laid out.  A whole published card database (tens of
#: thousands of cards) at 150 dpi would need tens of GB.
MAX_IMAGE_BYTES = 2 * 1024 ** 3


def check_memory(pages: list[Page], dpi: int) -> None:
    """Refuse an export whose card images at ``dpi`` would take more than :data:`MAX_IMAGE_BYTES`
    of memory together (checked before any page is drawn), with the highest dpi that fits.

    Raises:
        SheetTooLarge: naming the number of card images, the memory they need and the advice.
    """
    need = sum(3 * w * h for w, h in (_card_px(trim_of(page), dpi) for page in pages))
    if need > MAX_IMAGE_BYTES:
        fits = max(1, int(dpi * (MAX_IMAGE_BYTES / need) ** 0.5))
        raise SheetTooLarge(f"{len(pages):,} card images at {dpi} dpi need about {need / 1024 ** 3:.1f} GB of memory at once, more than the "
                            f"{MAX_IMAGE_BYTES // 1024 ** 3} GB a Tabletop Simulator export may take: export fewer cards (--sets) "
                            f"or use --dpi {fits} or less")


def highest_dpi(trim_mm: tuple[float, float], below: int) -> int:
    """The highest resolution (dpi) under ``below`` at which a sheet of cards ``trim_mm`` (width,
    height, mm) holds a card and the hidden-card slot within :data:`MAX_SHEET_PX`; 1 if none."""
    return next((d for d in range(below - 1, 0, -1) if _slots(trim_mm, d) >= 2), 1)


def _slots(trim_mm: tuple[float, float], dpi: int) -> int:
    """Slots of the largest sheet of cards ``trim_mm`` at ``dpi``."""
    columns, rows = sheet_limits(_card_px(trim_mm, dpi))
    return columns * rows


def write_tts(pdf: bytes, pages: list[Page], out: Path, name: str, dpi: int, each: Callable[[int], None] | None = None,
              deck_names: Sequence[str] = (), base_url: str | None = None) -> list[Path]:
    """Write each deck of a one-up PDF (faces and backs, see
    :func:`deckpress.generator.render.oneup.one_up_pdf`) as TTS sheets and one saved object per
    deck: ``out/<name>-<kind>.json`` where one deck has that card kind, else
    ``out/<name>-<deck name>.json`` (two decks that share a layout stay two TTS decks).
    ``deck_names`` are the decks' names for people, by :attr:`Page.deck` (each TTS deck's
    nickname); ``base_url`` (``https://example.org/decks/``), where the images will be hosted
    online, makes every image URL that address plus the file's name, instead of a ``file:///``
    URL of this machine.  Images are cut to the cards' trim.  Returns the JSON paths.

    Raises:
        SheetTooLarge: ``dpi`` too high for a sheet of some deck, or for the memory all the
            images take together (checked before any page is drawn).
        OutputError: a file cannot be written.
    """
    check_resolution(pages, dpi)
    check_memory(pages, dpi)
    faces: dict[int, list[tuple[Page, Image.Image]]] = {}
    backs: dict[int, list[Image.Image]] = {}
    for page, image in rasterise(pdf, pages, dpi, each):
        trimmed = _trim(image, page, dpi)
        if page.side == "face":
            faces.setdefault(page.deck, []).append((page, trimmed))
        else:
            backs.setdefault(page.deck, []).append(trimmed)
    kinds: dict[str, set[int]] = {}
    for page in pages:
        kinds.setdefault(page.kind, set()).add(page.deck)
    written, stems = [], set()
    for deck, cards in faces.items():
        kind = cards[0][0].kind
        label = deck_names[deck] if deck < len(deck_names) else kind
        stem = f"{name}-{kind}" if len(kinds[kind]) == 1 else f"{name}-{_slug(label)}"
        while stem in stems:  # two decks of one name and layout
            stem += f"-{deck + 1}"
        stems.add(stem)
        written.append(_deck(out, stem, cards, backs.get(deck, []), label if deck_names else stem, base_url))
    return written


def _slug(text: str) -> str:
    """A file name's part made of a deck's name: ``Hero cards`` -> ``hero-cards``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "deck"


def image_url(path: Path, base_url: str | None) -> str:
    """The URL TTS loads the image ``path`` from: ``base_url`` joined with the file's name (the
    name escaped for a URL), or the file's own ``file:///`` URL when there is no base URL."""
    if base_url is None:
        return path.resolve().as_uri()
    return base_url.rstrip("/") + "/" + quote(path.name)


def check_base_url(base_url: str) -> str:
    """``base_url`` as given, when it is an ``http://`` or ``https://`` address of a host.

    Raises:
        ValueError: anything else (a message saying what is expected).
    """
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment or any(c.isspace() for c in base_url):
        raise ValueError(f"'{base_url[:80]}' is not a web address of a folder: expected one such as https://example.org/my-game/tts "
                         "(where the exported images will be hosted)")
    return base_url


def _trim(image: Image.Image, page: Page, dpi: int) -> Image.Image:
    """The card's trim cut out of its page image (edges rounded to the nearest pixel)."""
    left, right, top, bottom = page.bleed_mm
    w, h = page.size_mm
    px = lambda v: round(v / MM_PER_INCH * dpi)
    return image.crop((px(left), px(top), px(w - right), px(h - bottom)))


def _deck(out: Path, stem: str, cards: list[tuple[Page, Image.Image]], backs: list[Image.Image], nickname: str,
          base_url: str | None) -> Path:
    """The sheets, back and saved object of one deck (``nickname``: its name in TTS)."""
    unique_back = len({b.tobytes() for b in backs}) > 1
    custom: dict[str, dict] = {}
    placed: list[tuple[int, int, dict]] = []  # (card's place in the deck, CardID, its object)
    # upright and sideways cards (a deck with a layout per card) on sheets of their own: a sheet's
    # cells are one size
    groups = [[i for i, (_, image) in enumerate(cards) if bool(_sideways(image)) == turned] for turned in (False, True)]
    n = 0
    for group in (g for g in groups if g):
        limits = sheet_limits(cards[group[0]][1].size)
        per_sheet = max(1, limits[0] * limits[1] - 1)  # every slot but the last, which holds the hidden-card image
        for start in range(0, len(group), per_sheet):
            n += 1
            places = group[start:start + per_sheet]
            chunk = [cards[i] for i in places]
            columns, rows = sheet_grid(len(chunk), limits)
            # what other players see of a card in a hand: the shared back, or (backs that differ
            # would give the card away) a plain grey card
            hidden = backs[0] if backs and not unique_back else Image.new("RGB", chunk[0][1].size, (128, 128, 128))
            face_sheet = _sheet([img for _, img in chunk] + [None] * (columns * rows - len(chunk) - 1) + [hidden], columns, rows)
            face_path = _png(out / f"{stem}-{n}.png", face_sheet)
            if unique_back:
                back_images = [backs[i] for i in places if i < len(backs)]
                back_path = _png(out / f"{stem}-{n}-backs.png", _sheet(back_images + [None] * (columns * rows - len(back_images)), columns, rows))
            else:
                back_path = _png(out / f"{stem}-back.png", backs[0] if backs else Image.new("RGB", chunk[0][1].size, "white"))
            custom[str(n)] = {"FaceURL": image_url(face_path, base_url), "BackURL": image_url(back_path, base_url),
                              "NumWidth": columns, "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
            for slot, (place, (page, image)) in enumerate(zip(places, chunk)):
                placed.append((place, n * 100 + slot, {"Name": "Card", "Nickname": page.name, "Description": page.card_id,
                                                       "CardID": n * 100 + slot, "Transform": _transform(), **_sideways(image)}))
    placed.sort(key=lambda p: p[0])  # the deck's own order
    deck = {"Name": "DeckCustom", "Nickname": nickname, "Transform": _transform(), "DeckIDs": [card_id for _, card_id, _ in placed],
            "CustomDeck": custom, "ContainedObjects": [obj for _, _, obj in placed],
            **(_sideways(cards[0][1]) if all(_sideways(image) for _, image in cards) else {})}
    saved = {"SaveName": stem, "GameMode": "", "Date": "", "Gravity": 0.5, "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [deck], "TabStates": {},
             "VersionNumber": ""}
    path = out / f"{stem}.json"
    write_atomic(path, (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return path


def _sideways(image: Image.Image) -> dict[str, bool]:
    """TTS's ``SidewaysCard`` for a card whose face is wider than high (ICE, a base: a layout
    printed sideways), which TTS then shows lying on its side; nothing for an upright card."""
    return {"SidewaysCard": True} if image.width > image.height else {}


def _sheet(images: list[Image.Image | None], columns: int, rows: int) -> Image.Image:
    """Images in reading order on a ``columns`` x ``rows`` grid (None: an empty slot)."""
    w, h = next(i for i in images if i is not None).size
    sheet = Image.new("RGB", (w * columns, h * rows), "white")
    for index, image in enumerate(images):
        if image is not None:
            sheet.paste(image.resize((w, h)) if image.size != (w, h) else image, ((index % columns) * w, (index // columns) * h))
    return sheet


def _png(path: Path, image: Image.Image) -> Path:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    write_atomic(path, buf.getvalue())
    return path


def _transform() -> dict[str, float]:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
