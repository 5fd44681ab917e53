"""A game's own SVG icon turned into deckpress icon shapes (``schemas/icons.schema.json``):
paths in a 100 x 100 box, y downward, one colour and its knockout.

An SVG file is untrusted input.  It is read through the gate (inside the game's folder, a regular
file, at most :data:`MAX_SVG_BYTES`), parsed first by defusedxml (no DTD, so no entity of any kind
and no external one), then its elements are checked: nothing that points outside the file (an
``href`` or ``url(...)`` that is not ``#id``, ``@import``), no ``image``, ``script``,
``foreignObject`` or ``text`` (text is drawn by the font, not the file: convert it to paths), at
most :data:`MAX_ELEMENTS` elements nested at most :data:`MAX_DEPTH` deep.  Only then does
svgelements (MIT) read the shapes, with their transforms, ``use`` and styles applied.

Why svgelements: it turns any SVG shape (paths, rects, circles, arcs, ``use``, transforms,
styles) into plain path segments, pure Python with no dependency, MIT-licensed; an icon then
becomes shapes of deckpress's own icon format, drawn by reportlab as the shipped icons are (one
form per colour, the element's colours applied).  svglib (LGPL-3.0, pulling in lxml) and CairoSVG
(LGPL-3.0, needing the system's cairo library) render a whole picture in its own colours instead,
which is not what an icon in a layout's colour is, and their licence is weaker than this
package's MIT; defusedxml (PSF-2.0) is the usual guard against XML entity attacks.

Colours: the icon takes the element's ``colour``; a shape filled (or outlined) in white takes its
``knockout`` colour, as a shipped icon's ``knockout: true`` shape; a shape with neither fill nor
stroke, or transparent, is left out.  Arcs and quadratic curves become cubic ones.  The file's
viewBox (its width and height when it has none) is fitted into the box, centred.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deckpress.generator.content import gate
from deckpress.generator.content.errors import ContentError

#: The largest SVG icon file read.
MAX_SVG_BYTES = 256 * 1024
#: At most this many XML elements in one SVG icon, nested at most this deep.
MAX_ELEMENTS = 5000
MAX_DEPTH = 32
#: At most this many path commands in one icon, once converted.
MAX_COMMANDS = 20_000
#: Elements an icon may not hold: they draw what is not a shape, or run or load something.
_REFUSED = {"image": "an image inside an icon is not drawn: use an image element for pictures",
            "script": "scripts are not run", "foreignObject": "foreign content is not drawn",
            "text": "text in an SVG icon is not drawn: convert it to paths (Inkscape: Path > Object to Path)",
            "feImage": "filters are not drawn"}
#: The line ends and joins of a stroke an icon keeps (``stroke-linecap``, ``stroke-linejoin``).
_ENDS = {"cap": ("butt", "round", "square"), "join": ("miter", "round", "bevel")}
_URL = re.compile(r"url\(\s*['\"]?([^)'\"]*)", re.IGNORECASE)


def svg_icon(path: Path, root: Path, shown: str) -> tuple[list[dict] | None, list[ContentError]]:
    """The shapes of the SVG icon at ``path`` (inside the game folder ``root``; ``shown`` is its
    name in messages).

    Returns:
        ``(shapes, [])``: a list of ``{"path": [[op, ...], ...], "fill_rule": ..., "knockout"?,
        "stroke"?}`` in a 100 x 100 box, y downward; or ``(None, errors)``: refused by the gate,
        not XML, a DTD or entity, a reference outside the file, an element that is not drawn, too
        many elements or commands, or nothing to draw (every error at its line where it has one).
    """
    try:
        data = gate.read_bytes(path, root, MAX_SVG_BYTES)
    except gate.GateError as exc:
        return None, [ContentError(shown, exc.line, exc.column, f"icon file {exc}")]
    errors = _unsafe(data, shown)
    if errors:
        return None, errors
    import svgelements

    try:
        svg = svgelements.SVG.parse(io.BytesIO(data), reify=True, color="black")
        shapes = _shapes(svg, svgelements)
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, ArithmeticError, RecursionError) as exc:  # svgelements on malformed values: the file's fault
        return None, [ContentError(shown, 0, 0, f"not an SVG icon deckpress can read: {str(exc)[:160] or type(exc).__name__}")]
    if isinstance(shapes, str):
        return None, [ContentError(shown, 0, 0, shapes)]
    return shapes, []


def _unsafe(data: bytes, shown: str) -> list[ContentError]:
    """Every reason not to read ``data`` further, each at its line: not XML, a DTD or entity, an
    element or reference that reaches outside the file or draws what is not a shape, too many
    elements or too deep."""
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as safe_xml
    from defusedxml import DefusedXmlException

    try:
        tree = safe_xml.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        return [ContentError(shown, 1, 1, "an SVG icon may not have a DOCTYPE or entities (<!DOCTYPE ...>, <!ENTITY ...>): remove them")]
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        return [ContentError(shown, line, col + 1 if line else 0, f"not valid XML: {str(exc).split(':')[0]}")]
    if _local(tree.tag) != "svg":
        return [ContentError(shown, 1, 1, f"not an SVG file: its root element is <{_local(tree.tag)[:40]}>, not <svg>")]
    errors: list[ContentError] = []
    count, deepest = 0, 0
    text = data.decode("utf-8", "replace")

    def at(needle: str, message: str) -> ContentError:
        """An error at the first line and column where ``needle`` is written in the file."""
        index = text.find(needle)
        if index < 0:
            return ContentError(shown, 0, 0, message)
        line = text.count("\n", 0, index) + 1
        return ContentError(shown, line, index - (text.rfind("\n", 0, index) + 1) + 1, message)

    def walk(node, depth: int) -> None:
        nonlocal count, deepest
        count, deepest = count + 1, max(deepest, depth)
        if count > MAX_ELEMENTS or depth > MAX_DEPTH:
            return
        tag = _local(node.tag)
        if tag in _REFUSED:
            errors.append(at(f"<{tag}", f"<{tag}>: {_REFUSED[tag]}"))
        for key, value in node.attrib.items():
            name = _local(key)
            if name == "href" and not value.startswith("#"):
                errors.append(at(value, f"<{tag} {name}='{value[:60]}'>: an icon may refer only to its own parts (#id), never to another file or address"))
            for target in _URL.findall(value):
                if not target.strip().startswith("#"):
                    errors.append(at(target, f"<{tag} {name}=...url({target[:60]})>: an icon may refer only to its own parts (url(#id))"))
        if tag == "style" and node.text and ("@import" in node.text or any(not t.strip().startswith("#") for t in _URL.findall(node.text))):
            errors.append(at("<style", "<style>: an icon's style may not load anything (@import, url(...) of a file or address)"))
        for child in node:
            walk(child, depth + 1)

    walk(tree, 1)
    errors += _use_errors(tree, at)
    if count > MAX_ELEMENTS:
        errors.append(ContentError(shown, 0, 0, f"more than {MAX_ELEMENTS:,} elements: an icon is a few shapes"))
    elif deepest > MAX_DEPTH:
        errors.append(ContentError(shown, 0, 0, f"elements nested more than {MAX_DEPTH} deep"))
    return sorted(set(errors))


def _use_errors(tree, at: Callable[[str, str], ContentError]) -> list[ContentError]:
    """``<use>`` elements that would multiply the file: one whose part holds a ``<use>`` itself
    (nested references grow as a power, the "billion laughs" of SVG), or all of them together
    copying more than :data:`MAX_ELEMENTS` elements."""
    ids = {node.attrib.get("id"): node for node in tree.iter() if node.attrib.get("id")}
    errors, copied = [], 0
    for node in tree.iter():
        if _local(node.tag) != "use":
            continue
        ref = next((v for k, v in node.attrib.items() if _local(k) == "href"), "")
        target = ids.get(ref[1:]) if ref.startswith("#") else None
        if target is None:
            continue
        parts = list(target.iter())
        if any(_local(part.tag) == "use" for part in parts):
            errors.append(at(ref, f"<use href='{ref[:60]}'>: it refers to a part that holds a <use> itself: nested references are not followed"))
        copied += len(parts)
    if copied > MAX_ELEMENTS:
        errors.append(at("<use", f"its <use> elements copy more than {MAX_ELEMENTS:,} elements: an icon is a few shapes"))
    return errors


def _local(tag: str) -> str:
    """An XML name without its namespace: ``{http://www.w3.org/2000/svg}path`` -> ``path``."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _shapes(svg, se) -> list[dict] | str:
    """The drawn shapes of a parsed SVG as icon shapes in the 100 x 100 box, or why there are none."""
    found = []
    for element in svg.elements():
        if not isinstance(element, se.Shape):
            continue
        fill, stroke = _paint(element.fill), _paint(element.stroke)
        width = getattr(element, "implicit_stroke_width", None) or element.stroke_width or 0
        if fill is None and (stroke is None or width <= 0):
            continue
        commands = _commands(se.Path(element), se)
        if len(commands) < 2:
            continue
        ends = {key: element.values.get(f"stroke-line{key}") for key in ("cap", "join")}
        found.append((commands, fill, stroke, width, element.values.get("fill-rule", "nonzero"), ends))
    if not found:
        return "has no shape to draw (every shape has no fill and no stroke, or the file is empty)"
    if sum(len(c) for c, *_ in found) > MAX_COMMANDS:
        return f"more than {MAX_COMMANDS:,} path commands: simplify the icon"
    x0, y0, w, h = _frame(svg, found)
    k = 100.0 / max(w, h)
    dx, dy = (100.0 - w * k) / 2 - x0 * k, (100.0 - h * k) / 2 - y0 * k

    def box(cmd: list) -> list:
        return [cmd[0]] + [round(v * k + (dx if i % 2 == 0 else dy), 3) for i, v in enumerate(cmd[1:])]

    shapes: list[dict[str, Any]] = []
    for commands, fill, stroke, width, rule, ends in found:
        path = [box(cmd) for cmd in commands]
        if fill is not None:
            shape: dict[str, Any] = {"path": path, "fill_rule": "evenodd" if rule == "evenodd" else "nonzero"}
            if fill == "knockout":
                shape["knockout"] = True
            shapes.append(shape)
        if stroke is not None and width > 0:
            shape = {"path": path, "stroke": round(width * k, 3)}
            shape.update({key: value for key, value in ends.items() if value in _ENDS[key]})
            if stroke == "knockout":
                shape["knockout"] = True
            shapes.append(shape)
    return shapes


def _paint(colour) -> str | None:
    """``"colour"``, ``"knockout"`` (white) or None (none, or transparent) for an SVG paint."""
    if colour is None or getattr(colour, "value", None) is None:
        return None
    if colour.alpha == 0:
        return None
    return "knockout" if (colour.red, colour.green, colour.blue) == (255, 255, 255) else "colour"


def _commands(path, se) -> list[list]:
    """A svgelements path as icon path commands (M, L, C, Z): arcs and quadratic curves as cubic."""
    out: list[list] = []
    for seg in path.segments():
        if isinstance(seg, se.Move):
            out.append(["M", seg.end.x, seg.end.y])
        elif isinstance(seg, se.Close):
            out.append(["Z"])
        elif isinstance(seg, se.Line):
            out.append(["L", seg.end.x, seg.end.y])
        elif isinstance(seg, se.CubicBezier):
            out.append(["C", seg.control1.x, seg.control1.y, seg.control2.x, seg.control2.y, seg.end.x, seg.end.y])
        elif isinstance(seg, se.QuadraticBezier):
            s, q, e = seg.start, seg.control, seg.end
            out.append(["C", s.x + 2 / 3 * (q.x - s.x), s.y + 2 / 3 * (q.y - s.y), e.x + 2 / 3 * (q.x - e.x), e.y + 2 / 3 * (q.y - e.y), e.x, e.y])
        elif isinstance(seg, se.Arc):
            for cubic in seg.as_cubic_curves():
                out.append(["C", cubic.control1.x, cubic.control1.y, cubic.control2.x, cubic.control2.y, cubic.end.x, cubic.end.y])
    return out


def _frame(svg, found) -> tuple[float, float, float, float]:
    """The area fitted into the icon's box: the viewBox (as the file's viewport after svgelements
    applied it), else the shapes' own bounds."""
    width, height = getattr(svg, "width", None), getattr(svg, "height", None)
    if svg.values.get("viewBox") and width and height and width > 0 and height > 0:
        return 0.0, 0.0, float(width), float(height)
    xs = [v for cmds, *_ in found for cmd in cmds for v in cmd[1::2]]
    ys = [v for cmds, *_ in found for cmd in cmds for v in cmd[2::2]]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    return min(xs), min(ys), max(w, 1e-6), max(h, 1e-6)
