"""The vector icon set (``generator/icons/*.yaml``), drawn with reportlab paths.

Icons are data: shapes in a 100 x 100 box, y downward, one file per family of icons
(``common.yaml``, one per game).  Every file is validated against ``schemas/icons.schema.json``
when first used, and an icon name defined in two files is an error.
"""
from __future__ import annotations

from functools import lru_cache

from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.errors import ContentErrors
from deckpress.generator.paths import ICONS_DIR
from deckpress.generator.schema import validate
from deckpress.generator.yamlsafe import load_yaml


@lru_cache(maxsize=1)
def icon_set() -> dict[str, list[dict]]:
    """All icons by name, from every file in ``generator/icons/``.

    Raises:
        ContentErrors: a file is malformed, or two files define the same icon (every error,
            with its line).
    """
    icons: dict[str, list[dict]] = {}
    where: dict[str, str] = {}
    errors = []
    for path in sorted(ICONS_DIR.glob("*.yaml")):
        doc, errs = load_yaml(path)
        if doc is not None:
            errs = validate(doc, "icons.schema.json")
        errors += errs
        if errs:
            continue
        for name, shapes in doc.data["icons"].items():
            if name in icons:
                errors.append(doc.error(("icons", name), f"icon '{name}' is already defined in {where[name]}", key=True))
            icons[name], where[name] = shapes, path.name
    if errors:
        raise ContentErrors(errors)
    return icons


def draw_icon(c: Canvas, name: str, x_pt: float, y_top_pt: float, size_pt: float, colour, knockout, forms: set[str]) -> None:
    """Draw icon ``name`` with its box's top-left at ``(x_pt, y_top_pt)`` (PDF points, y up),
    ``size_pt`` wide and high.

    Each (icon, colour, knockout) is drawn once per document as a PDF form XObject and placed by
    reference afterwards, which keeps big decks small and fast; ``forms`` records the forms the
    document already has.

    Raises:
        KeyError: no icon of that name (the caller names the card and element).
    """
    form = f"icon-{name}-{colour.hexval()}-{knockout.hexval()}"
    if form not in forms:
        shapes = icon_set()[name]
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
            c.drawPath(p, stroke=strk, fill=fill)
