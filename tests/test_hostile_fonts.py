"""Fonts a game folder brings, made hostile from the shipped Lato with fontTools.

reportlab's TrueType reader expands every range of a font's character map into a dict and divides
by ``unitsPerEm``; each font below is refused at the game.yaml line that names it, with one clear
line, in a subprocess under a 2 GB address-space cap and a time limit (docs/security.md, "Fonts").
"""
from __future__ import annotations

import io
import re
import resource
import struct
import subprocess
import sys

import pytest
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.DefaultTable import DefaultTable

from deckpress.generator.content.fontcheck import MAX_MAPPED, FontError, check_font
from deckpress.generator.paths import FONTS_DIR
from tests.conftest import edit, line_of

LATO = FONTS_DIR / "Lato-Regular.ttf"
MEMORY_CAP = 2 * 1024 ** 3
TIMEOUT = 60


def _with_cmap(subtable: bytes, platform: int = 3, encoding: int = 10) -> bytes:
    """Lato with its cmap replaced by one raw subtable (as 40 changed bytes of a real file would)."""
    font = TTFont(LATO)
    raw = DefaultTable("cmap")
    raw.data = struct.pack(">HHHHI", 0, 1, platform, encoding, 12) + subtable
    font["cmap"] = raw
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def all_of_the_31_bit_range() -> bytes:
    """One format-12 group mapping U+0000-U+7FFFFFFF: 2^31 characters to walk."""
    return _with_cmap(struct.pack(">HHIIIIII", 12, 0, 28, 0, 1, 0, 0x7FFFFFFF, 0))


def overlapping_format_4_segments() -> bytes:
    """32,767 format-4 segments, each U+0000-U+FFFF: 2^31 steps of reportlab's loop."""
    n = 32767
    body = struct.pack(">HHHHHHH", 4, 0xFFFF, 0, 2 * n, 0, 0, 0)
    body += struct.pack(f">{n}H", *[0xFFFF] * n) + b"\0\0" + struct.pack(f">{n}H", *[0] * n)
    body += struct.pack(f">{n}h", *[0] * n) + struct.pack(f">{n}H", *[0] * n)
    return _with_cmap(body, encoding=1)


def units_per_em_zero() -> bytes:
    """Lato with ``unitsPerEm = 0`` in its head table (a ZeroDivisionError in reportlab)."""
    font = TTFont(LATO)
    font["head"].unitsPerEm = 0
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def table_past_the_end() -> bytes:
    """Lato cut short: its last tables run past the end of the file."""
    data = LATO.read_bytes()
    return data[: len(data) // 2]


HOSTILE = {
    "cmap-format-12-all": (all_of_the_31_bit_range, r"cmap format-12 group U\+0000-U\+7FFFFFFF reaches beyond Unicode \(U\+10FFFF\)"),
    "cmap-format-4-overlaps": (overlapping_format_4_segments, "lists 32,767 segments"),
    "units-per-em-zero": (units_per_em_zero, r"its unitsPerEm is 0 \(the OpenType specification allows 16 to 16,384\)"),
    "truncated": (table_past_the_end, "table runs past the end of the file"),
}


def _run_capped(*args: str) -> subprocess.CompletedProcess:
    """deckpress in a subprocess under a 2 GB address-space cap (never above the inherited one)."""

    def cap() -> None:
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        limit = MEMORY_CAP if hard == resource.RLIM_INFINITY else min(MEMORY_CAP, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

    return subprocess.run([sys.executable, "-c", "import sys; from deckpress.generator.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, timeout=TIMEOUT, preexec_fn=cap, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_font_is_refused_at_its_game_yaml_line(game_copy, tmp_path, name):
    make, expected = HOSTILE[name]
    folder = game_copy("mission-emission")
    (folder / "fonts").mkdir()
    (folder / "fonts" / f"{name}.ttf").write_bytes(make())
    edit(folder / "game.yaml", "\ncard_sizes:", f"\nfonts:\n  - regular: fonts/{name}.ttf\ncard_sizes:")
    line = line_of(folder / "game.yaml", f"fonts/{name}.ttf")
    for command in (["validate", str(folder)], ["build", str(folder), "--out", str(tmp_path / "out")]):
        result = _run_capped(*command)
        shown = result.stdout + result.stderr
        assert result.returncode != 0, shown
        assert "Traceback" not in shown and "MemoryError" not in shown
        assert f"game.yaml:{line}:" in shown and f"font 'fonts/{name}.ttf' is not a TrueType font" in shown
        assert re.search(expected, shown), shown
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_the_shipped_fonts_pass_the_check():
    for path in FONTS_DIR.glob("*.ttf"):
        check_font(path.read_bytes())


def test_a_font_mapping_more_than_unicode_assigns_is_refused_with_the_limit():
    groups = 3
    per = MAX_MAPPED // 2
    body = struct.pack(">HHIII", 13, 0, 16 + 12 * groups, 0, groups)  # many-to-one, as LastResort
    for i in range(groups):
        body += struct.pack(">III", i * per, i * per + per - 1, 0)
    with pytest.raises(FontError, match=f"at most {MAX_MAPPED:,}"):
        check_font(_with_cmap(body))


def test_web_fonts_collections_and_cff_fonts_are_refused_before_fonttools_reads_them():
    """A WOFF font would be decompressed by fontTools first (and WOFF2 needs a library deckpress
    does not install): each is refused by its first bytes, saying what it is."""
    font = TTFont(LATO)
    font.flavor = "woff"
    woff = io.BytesIO()
    font.save(woff)
    for data, kind in [(woff.getvalue(), "a web font (WOFF)"), (b"wOF2" + bytes(60), "a web font (WOFF2)"),
                       (b"OTTO" + bytes(60), "an OpenType font with CFF outlines"), (b"ttcf" + bytes(60), "a font collection")]:
        with pytest.raises(FontError, match=re.escape(f"is not a TrueType font deckpress can embed: it is {kind}")):
            check_font(data)
