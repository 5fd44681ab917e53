"""The vector icon set: deckpress's own (``generator/icons/*.yaml``) and a game's own
(``icons/`` in its folder), drawn with reportlab paths.

Icons are data: shapes in a 100 x 100 box, y downward, one file per family of icons
(``common.yaml``, one per game).  Every file is validated against ``schemas/icons.schema.json``
when first used, and an icon name defined in two files is an error.

A game adds icons of its own in the folder ``icons/`` beside its ``game.yaml``: each
``NAME.svg`` (converted to the same shapes by :mod:`deckpress.generator.render.svgicon`) or
``*.yaml`` file of the shipped files' shape.  They are used exactly like the shipped ones
(``{type: icon, icon: NAME}``, ``:NAME:`` in a text with ``inline_icons``), take the element's
colour, and may not take a shipped icon's name.  ``deckpress icons GAME`` lists them all.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.schema import validate
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.paths import ICONS_DIR

#: The folder of a game's own icons, beside its game.yaml.
GAME_ICONS = "icons"
#: An icon's name, as a layout writes it (``schemas/common.schema.json#/$defs/id``).
_ICON_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
#: At most this many icon files in a game's icons/ folder.
MAX_GAME_ICON_FILES = 500

Icons = Mapping[str, list[dict]]


@lru_cache(maxsize=1)
def _shipped() -> tuple[dict[str, list[dict]], dict[str, str], dict[str, str]]:
    """``(icons by name, file by name, icon name by character it depicts)`` of every file in
    ``generator/icons/``.

    Raises:
        ContentErrors: a file is malformed, or two files define the same icon.
    """
    icons: dict[str, list[dict]] = {}
    where: dict[str, str] = {}
    depicts: dict[str, str] = {}
    errors = []
    for path in sorted(ICONS_DIR.glob("*.yaml")):
        doc, errs = load_yaml(path)
        if doc is not None:
            errs = validate(doc, "icons.schema.json")
        errors += errs
        if errs or doc is None:  # no document comes with its errors
            continue
        for name, shapes in doc.data["icons"].items():
            if name in icons:
                errors.append(doc.error(("icons", name), f"icon '{name}' is already defined in {where[name]}", key=True))
            icons[name], where[name] = shapes, path.name
        for name, chars in doc.data.get("characters", {}).items():
            depicts.update({ch: name for ch in chars})
    if errors:
        raise ContentErrors(errors)
    return icons, where, depicts


def icon_set() -> dict[str, list[dict]]:
    """deckpress's own icons by name (shapes in a 100 x 100 box), from every file in
    ``generator/icons/``.

    Raises:
        ContentErrors: a file is malformed, or two files define the same icon (every error,
            with its line).
    """
    return _shipped()[0]


def shipped_family(name: str) -> str | None:
    """The file of ``generator/icons/`` that defines the shipped icon ``name`` (``common.yaml``),
    or None."""
    return _shipped()[1].get(name)


def depicting(ch: str) -> str | None:
    """The name of an icon that depicts the character ``ch`` (``star`` for ``★``), from the
    ``characters`` of the shipped icon files, or None."""
    return _shipped()[2].get(ch)


def characters_of() -> dict[str, str]:
    """The characters each shipped icon depicts, by icon name (``{"star": "★"}``)."""
    out: dict[str, str] = {}
    for ch, name in _shipped()[2].items():
        out[name] = out.get(name, "") + ch
    return out


def family_of(source: str) -> str:
    """The heading an icon is listed under in ``deckpress icons``: its file for a family of icons
    in one YAML file, the folder (``mygame/icons/``) for a game's SVG icons, one file each."""
    return source.rsplit("/", 1)[0] + "/" if source.lower().endswith(".svg") and "/" in source else source


def icon_hint(name: str, names: list[str] | set[str] | Mapping[str, object]) -> str:
    """What to say after an unknown icon ``name``: the nearest names (``did you mean 'bolt'?``),
    else where the whole list is (never a list cut short)."""
    close = difflib.get_close_matches(str(name), sorted(names), n=3)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    return f"{len(names)} icons: 'deckpress icons GAME' lists every one, with a picture sheet (--out icons.pdf)"


def game_icons(folder: Path | None) -> Icons:
    """The icons a game can use: deckpress's own and those of the game's ``icons/`` folder, by
    name (read-only).  ``folder`` None, or a game with no ``icons/``: the shipped set alone.

    Read again when a file of ``icons/`` changes (its name, size or time), so the studio sees a
    new icon as soon as it is saved.

    Raises:
        ContentErrors: an icon file the gate refuses, not valid, too large, or naming an icon
            that is already there (every error, at its file and line).
    """
    return _read_game_icons(folder)[0]


def icon_sources(folder: Path | None) -> dict[str, str]:
    """Where each icon a game can use is defined, by name, in the order ``deckpress icons`` lists
    them: a shipped family's file (``common.yaml``), then the game's own files
    (``mygame/icons/meeple.svg``).

    Raises:
        ContentErrors: as :func:`game_icons`.
    """
    shipped = {name: f"deckpress: {_shipped()[1][name]}" for name in sorted(icon_set(), key=lambda n: (_shipped()[1][n] != "common.yaml", _shipped()[1][n], n))}
    return {**shipped, **_read_game_icons(folder)[1]}


def _read_game_icons(folder: Path | None) -> tuple[Icons, Mapping[str, str]]:
    if folder is None:
        return MappingProxyType(icon_set()), {}
    own = Path(folder) / GAME_ICONS
    try:
        if not own.is_dir():
            return MappingProxyType(icon_set()), {}
        entries = sorted(p for p in own.iterdir() if p.suffix.lower() in (".svg", ".yaml", ".yml"))
        stamp = tuple((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in entries[:MAX_GAME_ICON_FILES + 1])
    except OSError as exc:
        raise ContentErrors([ContentError(display_path(own), 0, 0, f"the folder of the game's icons cannot be read: {exc.strerror or exc}")]) from None
    return _game_icons(str(Path(folder).resolve()), stamp)


@lru_cache(maxsize=16)
def _game_icons(folder: str, stamp: tuple) -> tuple[Icons, Mapping[str, str]]:
    from deckpress.generator.render.svgicon import svg_icon

    root = Path(folder)
    own = root / GAME_ICONS
    if len(stamp) > MAX_GAME_ICON_FILES:
        raise ContentErrors([ContentError(display_path(own), 0, 0, f"more than {MAX_GAME_ICON_FILES} icon files: keep a game's icons fewer")])
    shipped = icon_set()
    icons: dict[str, list[dict]] = {}
    where: dict[str, str] = {}
    errors: list[ContentError] = []

    def add(name: str, shapes: list[dict], shown: str, error) -> None:
        if name in shipped:
            errors.append(error(f"icon '{name}' is already one of deckpress's icons ({shipped_family(name)}): give yours another name"))
        elif name in icons:
            errors.append(error(f"icon '{name}' is already defined in {where[name]}"))
        else:
            icons[name], where[name] = shapes, shown

    for name, _, _ in stamp:
        path = own / name
        shown = display_path(path)
        if path.suffix.lower() == ".svg":
            if not _ICON_NAME.fullmatch(path.stem):
                suggestion = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
                errors.append(ContentError(shown, 0, 0, f"'{path.name}' does not name an icon: a name is lowercase letters, digits and dashes, "
                                                        f"starting with a letter" + (f" (rename it {suggestion}.svg)" if _ICON_NAME.fullmatch(suggestion) else "")))
                continue
            shapes, errs = svg_icon(path, root, shown)
            errors += errs
            if shapes is not None:
                add(path.stem, shapes, shown, lambda message, shown=shown: ContentError(shown, 1, 1, message))
            continue
        doc, errs = load_yaml(path, shown, root=root)
        if doc is not None:
            errs = validate(doc, "icons.schema.json")
        errors += errs
        if doc is None or errs:
            continue
        for icon, shapes in doc.data["icons"].items():
            add(icon, shapes, shown, lambda message, doc=doc, icon=icon: doc.error(("icons", icon), message, key=True))
    if errors:
        raise ContentErrors(errors)
    return MappingProxyType({**shipped, **icons}), MappingProxyType(where)


def draw_icon(c: Canvas, name: str, x_pt: float, y_top_pt: float, size_pt: float, colour, knockout, forms: set[str],
              icons: Icons | None = None) -> None:
    """Draw icon ``name`` with its box's top-left at ``(x_pt, y_top_pt)`` (PDF points, y up),
    ``size_pt`` wide and high, from ``icons`` (:func:`game_icons`; default: the shipped set).

    Each (icon, colour, knockout) is drawn once per document as a PDF form XObject and placed by
    reference afterwards, which keeps big decks small and fast; ``forms`` records the forms the
    document already has.

    Raises:
        KeyError: no icon of that name (the caller names the card and element).
    """
    form = f"icon-{name}-{colour.hexval()}-{knockout.hexval()}"
    if form not in forms:
        shapes = (icons if icons is not None else icon_set())[name]
        c.beginForm(form, lowerx=-20, lowery=-20, upperx=120, uppery=120)
        c.transform(1, 0, 0, -1, 0, 100)  # icon box units, y downward
        _paint(c, shapes, colour, knockout)
        c.endForm()
        forms.add(form)
    k = size_pt / 100.0
    c.saveState()
    c.transform(k, 0, 0, k, x_pt, y_top_pt - size_pt)
    c.doForm(form)
    c.restoreState()


def _paint(c: Canvas, shapes: list[dict], colour, knockout) -> None:
    for shape in shapes:
        paint = knockout if shape.get("knockout") else colour
        stroke = shape.get("stroke")
        ends = shape.get("cap") or shape.get("join")
        if ends:  # a game's stroked SVG icon (round ends): kept to this shape
            c.saveState()
            c.setLineCap(_CAPS[shape.get("cap", "butt")])
            c.setLineJoin(_JOINS[shape.get("join", "miter")])
        if stroke:
            c.setStrokeColor(paint)
            c.setLineWidth(stroke)
        else:
            c.setFillColor(paint)
        fill, strk = (0, 1) if stroke else (1, 0)
        if "circle" in shape:
            cx, cy, r = shape["circle"]
            c.circle(cx, cy, r, stroke=strk, fill=fill)
        elif "rect" in shape:
            x, y, w, h = shape["rect"]
            if shape.get("radius"):
                c.roundRect(x, y, w, h, shape["radius"], stroke=strk, fill=fill)
            else:
                c.rect(x, y, w, h, stroke=strk, fill=fill)
        else:
            p = c.beginPath()
            if "polygon" in shape:
                pts = shape["polygon"]
                p.moveTo(*pts[0])
                for pt in pts[1:]:
                    p.lineTo(*pt)
                p.close()
            else:
                for cmd in shape["path"]:
                    op, args = cmd[0], cmd[1:]
                    if op == "M":
                        p.moveTo(*args)
                    elif op == "L":
                        p.lineTo(*args)
                    elif op == "C":
                        p.curveTo(*args)
                    else:
                        p.close()
            if shape.get("fill_rule") == "nonzero":  # an SVG's default; the shipped shapes are drawn even-odd
                c.drawPath(p, stroke=strk, fill=fill, fillMode=FILL_NON_ZERO)
            else:
                c.drawPath(p, stroke=strk, fill=fill)
        if ends:
            c.restoreState()


#: PDF line caps and joins by their SVG names.
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}


#: The picture sheet of ``deckpress icons --out``: A4, each icon in a cell, its name below it.
_SHEET_MM = (210.0, 297.0)
_MARGIN_MM = 15.0
_CELL_MM = (30.0, 30.0)
_ICON_MM = 15.0


def icon_sheet(sources: Mapping[str, str], icons: Icons, title: str) -> bytes:
    """A PDF (A4 pages) that shows every icon of ``sources`` (name -> where it is defined, in
    order; shapes from ``icons``), each :data:`_ICON_MM` mm square in black with its cut-outs
    white, its name below it, under a heading per file: the set a designer can write, at a glance.
    The same icons give the same bytes."""
    import io

    from reportlab.lib.colors import HexColor, black, white
    from reportlab.lib.units import mm

    from deckpress.generator.render.fonts import register

    register()
    buf = io.BytesIO()
    width, height = _SHEET_MM[0] * mm, _SHEET_MM[1] * mm
    c = Canvas(buf, pagesize=(width, height), invariant=1, initialFontName="Lato", initialFontSize=10)
    c.setTitle(title)
    c.setCreator("deckpress")
    c.setAuthor("deckpress")
    forms: set[str] = set()
    columns = int((_SHEET_MM[0] - 2 * _MARGIN_MM) // _CELL_MM[0])
    left, top, bottom = _MARGIN_MM * mm, height - _MARGIN_MM * mm, _MARGIN_MM * mm
    y = top

    def heading(text: str, size: float) -> None:
        nonlocal y
        c.setFillColor(black)
        c.setFont("Lato-Bold", size)
        y -= size * 1.4
        c.drawString(left, y, text)
        y -= 4 * mm

    heading(title, 16)
    c.setFont("Lato", 8)
    c.drawString(left, y - 1 * mm, "Write an icon by its name: {type: icon, icon: NAME} in layout.yaml, or :NAME: in a text with inline_icons: true.")
    y -= 8 * mm
    families: dict[str, list[str]] = {}
    for name, source in sources.items():
        families.setdefault(family_of(source), []).append(name)
    for source, names in families.items():
        if y - 10 * mm - _CELL_MM[1] * mm < bottom:
            c.showPage()
            y = top
        heading(source, 11)
        for row in range(0, len(names), columns):
            if y - _CELL_MM[1] * mm < bottom:
                c.showPage()
                y = top
            for col, name in enumerate(names[row:row + columns]):
                cx = left + (col + 0.5) * _CELL_MM[0] * mm
                c.setStrokeColor(HexColor("#cccccc"))
                c.setLineWidth(0.3)
                c.rect(cx - _ICON_MM * mm / 2, y - _ICON_MM * mm, _ICON_MM * mm, _ICON_MM * mm, stroke=1, fill=0)  # the icon's box
                draw_icon(c, name, cx - _ICON_MM * mm / 2, y, _ICON_MM * mm, black, white, forms, icons)
                c.setFillColor(black)
                c.setFont("Lato", 7)
                c.drawCentredString(cx, y - _ICON_MM * mm - 4 * mm, name)
            y -= _CELL_MM[1] * mm
        y -= 2 * mm
    c.showPage()
    c.save()
    return buf.getvalue()
