"""Every layout element kind, walked against ``schemas/layout.schema.json``: each kind the schema
accepts is drawn by the renderer (``generator/render/elements.py``) and documented with every key
in ``docs/layout.md``, and the renderer and the page name no kind the schema lacks."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from PIL import Image as PILImage
from pypdf import PdfReader
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.paths import SCHEMAS_DIR
from deckpress.generator.render.elements import (
    ELEMENT_KINDS,
    Element,
    Painter,
    compile_elements,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((SCHEMAS_DIR / "layout.schema.json").read_text("utf-8"))
DEFS = SCHEMA["$defs"]
#: The element kinds the schema accepts: the ``type`` of its ``element``.
SCHEMA_KINDS = DEFS["element"]["properties"]["type"]["enum"]
DOC = (ROOT / "docs" / "layout.md").read_text("utf-8")


def documented_kinds() -> dict[str, str]:
    """``{kind: its section of docs/layout.md}``: the ``### kind`` sections under "Element kinds"."""
    part = DOC.split("\n## Element kinds\n", 1)[1].split("\n## ", 1)[0]
    sections = re.split(r"^### ", part, flags=re.M)[1:]
    return {s.split("\n", 1)[0].strip(): s for s in sections}


def documented_keys(section: str) -> dict[str, bool]:
    """``{key: required}`` from a section's table (rows ``| `key` | yes | ... |``)."""
    return {m[1]: m[2] == "yes" for m in re.finditer(r"^\| `([a-z_0-9]+)` \| *(yes)? *\|", section, re.M)}


def example(section: str) -> dict:
    """The element of a section's YAML example."""
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block, "no YAML example"
    return yaml.safe_load(block[1])[0]


def test_the_schema_the_renderer_and_the_page_name_the_same_kinds():
    assert len(SCHEMA_KINDS) >= 7  # rect, circle, line, text, icon, rows, image at least
    assert sorted(ELEMENT_KINDS) == sorted(SCHEMA_KINDS)
    assert list(documented_kinds()) == SCHEMA_KINDS  # in the schema's order
    # the schema checks each kind's keys with its own definition
    branches = {b["if"]["properties"]["type"]["const"]: b["then"]["$ref"] for b in DEFS["element"]["allOf"]}
    assert branches == {k: f"#/$defs/{k}" for k in SCHEMA_KINDS}


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_each_kind_is_drawn_by_a_class_of_its_own(kind):
    cls = ELEMENT_KINDS[kind]
    assert cls.kind == kind and "draw" in vars(cls) and cls.draw is not Element.draw


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_each_kind_is_documented_with_every_key_of_the_schema(kind):
    section = documented_kinds()[kind]
    definition = DEFS[kind]
    assert documented_keys(section) == {k: k in definition.get("required", []) for k in definition["properties"]}
    assert definition["description"] in section


def painter(canvas: Canvas) -> Painter:
    """A painter on ``canvas`` placing a 63 x 88 mm card at the page's top left; its images are a
    4 x 4 px grey square whatever their name."""
    grey = io.BytesIO()
    PILImage.new("RGB", (4, 4), (128, 128, 128)).save(grey, "PNG")
    p = Painter(canvas, lambda c: HexColor(c) if c.startswith("#") else HexColor("#000000"),
                open_image=lambda name: ImageReader(io.BytesIO(grey.getvalue())))
    mm = 72 / 25.4
    p.place(0, 88 * mm, 63 * mm, 88 * mm, (0.0, 0.0, 0.0, 0.0), safe=3 * mm)
    return p


def drawn_bytes(spec: dict | None) -> int:
    """The length of the content stream of a one-page PDF with ``spec`` drawn on it (None: nothing)."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(63 * 72 / 25.4, 88 * 72 / 25.4), invariant=1, pageCompression=0)
    if spec is not None:
        fields = {"id": "c1", "title": "Kerala", "costs": [{"item": "2 gold"}, {"item": "1 ore"}]}
        for element in compile_elements([spec], ("cards", "state", "face")):
            element.draw(painter(canvas), fields, 0.0, 0.0)
    canvas.showPage()
    canvas.save()
    contents = PdfReader(out).pages[0].get_contents()
    assert contents is not None
    return len(contents.get_data())


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_each_documented_example_is_valid_and_draws_something(kind):
    spec = example(documented_kinds()[kind])
    assert spec["type"] == kind
    jsonschema.Draft202012Validator({"$defs": DEFS, "$ref": "#/$defs/element"}).validate(spec)
    assert drawn_bytes(spec) > drawn_bytes(None) + 20  # marks on the page, not an empty one
