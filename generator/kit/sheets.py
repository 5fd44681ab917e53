"""Sheet templates: pre-cut or perforated card stock as data (``deckpress build --sheet FILE``,
``schemas/sheet.schema.json``), as Squib lays cards out by a sheet template file and nanDECK by
its page settings.

Stock sold for printing cards at home (perforated A4 or Letter sheets of business or playing
cards) puts its cards where its maker chose: a fixed grid with fixed gaps and margins, often not
centred.  A template names the paper, the card's size and every card's place, as a list of slots
or a grid; :func:`load_sheet_template` reads it through the safe loader and checks it, and
:func:`deckpress.generator.kit.imposition.template_sheet` turns it into the sheet the kit draws on.
"""
from __future__ import annotations

from pathlib import Path

from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.schema import validate
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.kit.imposition import PAPERS, SheetTemplate

#: A template file is a few lines; 200 slots of one line each stay far below this.
MAX_TEMPLATE_BYTES = 64 * 1024


def load_sheet_template(path: Path) -> SheetTemplate:
    """The sheet template in the YAML file ``path``.

    Raises:
        ContentErrors: the file cannot be read safely, breaks ``schemas/sheet.schema.json``, or
            puts a card past the sheet's edge or over another card (every error at its line).
    """
    doc, errors = load_yaml(Path(path), max_bytes=MAX_TEMPLATE_BYTES)
    if doc is not None and not errors:
        errors = validate(doc, "sheet.schema.json")
    if errors or doc is None:
        raise ContentErrors(errors)
    d = doc.data
    paper = d["paper"]
    if isinstance(paper, str):
        sheet = PAPERS[paper]
    else:
        sheet = (paper["width_mm"], paper["height_mm"])
        paper = f"{sheet[0]:g}x{sheet[1]:g}mm"
    card = (d["card"]["width_mm"], d["card"]["height_mm"])
    if "grid" in d:
        g = d["grid"]
        places = [(g["x_mm"] + c * g["dx_mm"], g["y_mm"] + r * g["dy_mm"]) for r in range(g["rows"]) for c in range(g["cols"])]
        problems = _grid_problems(g, card, sheet, paper)
    else:
        places = [(s["x_mm"], s["y_mm"]) for s in d["slots"]]
        problems = [(("slots", i), message) for i, message in _slot_problems(places, card, sheet, paper)]
    if problems:
        raise ContentErrors([doc.error(where, message) for where, message in problems])
    return SheetTemplate(d.get("name") or Path(path).stem, paper, sheet, card, tuple(places), d.get("bleed_mm", 0.0),
                         d.get("crop_marks", False), doc.display)


def _grid_problems(g: dict, card: tuple[float, float], sheet: tuple[float, float], paper: str) -> list[tuple[tuple, str]]:
    """``(where in the file, message)`` for a grid whose cards overlap or leave the sheet."""
    (w, h), (sw, sh) = card, sheet
    problems = []
    for axis, count, step, size, edge, start, what in (("dx_mm", "cols", g["dx_mm"], w, sw, g["x_mm"], "width"),
                                                       ("dy_mm", "rows", g["dy_mm"], h, sh, g["y_mm"], "height")):
        if g[count] > 1 and step < size - 1e-6:
            problems.append((("grid", axis), f"grid.{axis}: a step of {step:g} mm is less than the card's {what}, {size:g} mm: "
                                             "the cards would overlap"))
        end = start + (g[count] - 1) * step + size
        if end > edge + 1e-6:
            problems.append((("grid", count), f"grid.{count}: the last card ends {end:g} mm from the sheet's "
                                              f"{'left' if axis == 'dx_mm' else 'top'} edge, past the {paper} sheet's {what} "
                                              f"of {edge:g} mm"))
    return problems


def _slot_problems(places: list[tuple[float, float]], card: tuple[float, float], sheet: tuple[float, float],
                   paper: str) -> list[tuple[int, str]]:
    """``(index of the slot, message)`` for every card past the sheet's edge or over another."""
    (w, h), (sw, sh) = card, sheet
    problems = []
    for i, (x, y) in enumerate(places):
        if x + w > sw + 1e-6 or y + h > sh + 1e-6:
            problems.append((i, f"slot {i + 1}: the card at {x:g}, {y:g} mm reaches {x + w:g}, {y + h:g} mm, past the {paper} sheet "
                                f"({sw:g} x {sh:g} mm)"))
        overlapped = next((j for j, (ox, oy) in enumerate(places[:i])
                           if ox < x + w - 1e-6 and x < ox + w - 1e-6 and oy < y + h - 1e-6 and y < oy + h - 1e-6), None)
        if overlapped is not None:
            ox, oy = places[overlapped]
            problems.append((i, f"slot {i + 1}: the card at {x:g}, {y:g} mm overlaps slot {overlapped + 1}'s, at {ox:g}, {oy:g} mm "
                                f"(cards are {w:g} x {h:g} mm)"))
    return problems

