"""Check a font file a game folder brings before reportlab reads it.

reportlab's TrueType reader trusts the file: it expands every range of the character map (cmap)
into a dict, one entry per character, and divides by the head table's ``unitsPerEm``.  A 660 KB
font whose format-12 cmap has one group U+0000-U+7FFFFFFF makes it walk 2^31 characters (all the
memory there is), 32,767 overlapping format-4 segments make it spin for minutes, and
``unitsPerEm = 0`` is a ``ZeroDivisionError`` (``docs/security.md``).  :func:`check_font` reads
only the table directory and the fixed-size headers with fontTools (MIT), and walks the cmap's
subtable *headers* itself (fontTools would expand the ranges too), so its own time and memory are
bounded by the file's size.

Limits (OpenType 1.9, "cmap", "head", "maxp", "hhea", "hmtx", "loca" chapters):

* every table lies inside the file; at most :data:`MAX_TABLES` tables;
* ``unitsPerEm`` is 16 to 16,384, as the specification requires;
* each cmap subtable lies inside the cmap table, its segments or groups fit in its length, are
  sorted and do not overlap, map code points within Unicode (at most U+10FFFF), and glyphs the
  font has; all subtables together map at most :data:`MAX_MAPPED` characters (Unicode 16.0
  assigns 154,998);
* hmtx and loca are as long as ``numGlyphs`` and ``numberOfHMetrics`` say.
"""
from __future__ import annotations

import io
import struct

from fontTools.ttLib import TTFont, TTLibError

#: At most this many tables: a full OpenType font has about 20 to 30.
MAX_TABLES = 64
#: At most this many characters mapped by all cmap subtables together: all of Unicode's assigned
#: characters (154,998 in Unicode 16.0) fit, reportlab's dicts for them take about 60 MB.
MAX_MAPPED = 200_000
#: The range of ``unitsPerEm`` the OpenType specification allows ("head" table).
UNITS_PER_EM = (16, 16384)
#: Highest Unicode code point.
MAX_CODE_POINT = 0x10FFFF

_EMBED = "is not a TrueType font deckpress can embed"
#: Font files by their first four bytes that reportlab cannot embed.
_KINDS = {b"OTTO": "an OpenType font with CFF outlines", b"ttcf": "a font collection (.ttc)",
          b"wOFF": "a web font (WOFF)", b"wOF2": "a web font (WOFF2)"}


class FontError(ValueError):
    """A font file that deckpress refuses to hand to reportlab.  Its message follows the font's
    name as the caller quotes it ("font 'x.ttf' is not a TrueType font deckpress can embed: ...")
    and never quotes the file's bytes."""


def check_font(data: bytes) -> None:
    """Check the TrueType font ``data`` (a whole file, already read within its byte limit) for what
    would make reportlab exhaust memory or time, or fail with a traceback.

    Raises:
        FontError: the first limit the font breaks (module docstring), or "is not a TrueType font
            deckpress can embed (...)" when its table directory or headers cannot be read at all.
    """
    kind = _KINDS.get(data[:4])
    if kind is not None:  # refused before fontTools reads it: a web font would be decompressed first
        raise FontError(f"{_EMBED}: it is {kind}; give a .ttf file (TrueType outlines)")
    if data[:4] not in (b"\x00\x01\x00\x00", b"true"):
        raise FontError(f"{_EMBED} (it does not start as a TrueType font does); give a .ttf file")
    try:
        font = TTFont(io.BytesIO(data), lazy=True, recalcBBoxes=False, recalcTimestamp=False)
        tables = font.reader.tables
    except (TTLibError, struct.error, ValueError, KeyError, IndexError, AssertionError) as exc:
        raise FontError(f"{_EMBED} ({exc}); give a .ttf file (OpenType fonts with CFF outlines and "
                        "font collections are not supported)") from None
    if len(tables) > MAX_TABLES:
        raise FontError(f"{_EMBED}: it has {len(tables):,} tables (at most {MAX_TABLES})")
    for tag, entry in tables.items():
        if entry.offset + entry.length > len(data):
            raise FontError(f"{_EMBED}: its '{tag}' table runs past the end of the file")
    missing = [t for t in ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap") if t not in tables]
    if missing:
        raise FontError(f"{_EMBED}: it has no '{missing[0]}' table; give a .ttf file (OpenType fonts "
                        "with CFF outlines are not supported)")

    def table(tag: str) -> bytes:
        entry = tables[tag]
        return data[entry.offset:entry.offset + entry.length]

    head, hhea, maxp = table("head"), table("hhea"), table("maxp")
    if len(head) < 54 or len(hhea) < 36 or len(maxp) < 6:
        raise FontError(f"{_EMBED}: its head, hhea or maxp table is too short")
    units = struct.unpack_from(">H", head, 18)[0]
    if not UNITS_PER_EM[0] <= units <= UNITS_PER_EM[1]:
        raise FontError(f"{_EMBED}: its unitsPerEm is {units} "
                        f"(the OpenType specification allows {UNITS_PER_EM[0]} to {UNITS_PER_EM[1]:,})")
    loca_format = struct.unpack_from(">h", head, 50)[0]
    glyphs = struct.unpack_from(">H", maxp, 4)[0]
    metrics = struct.unpack_from(">H", hhea, 34)[0]
    if not 1 <= metrics <= max(glyphs, 1):
        raise FontError(f"{_EMBED}: its hhea table gives {metrics} horizontal metrics for {glyphs} glyphs")
    if len(table("hmtx")) < 4 * metrics + 2 * (glyphs - metrics):
        raise FontError(f"{_EMBED}: its hmtx table is shorter than its {glyphs:,} glyphs need")
    if loca_format not in (0, 1) or len(table("loca")) < (glyphs + 1) * (2 << loca_format):
        raise FontError(f"{_EMBED}: its loca table does not fit its {glyphs:,} glyphs")
    _check_cmap(table("cmap"), glyphs)


def _check_cmap(cmap: bytes, glyphs: int) -> None:
    """Check every subtable of the cmap table ``cmap`` of a font with ``glyphs`` glyphs."""
    try:
        count = struct.unpack_from(">HH", cmap, 0)[1]
        records = [struct.unpack_from(">HHI", cmap, 4 + 8 * i) for i in range(count)]
    except struct.error:
        raise FontError(f"{_EMBED}: its cmap table is shorter than its own header says") from None
    mapped = 0
    for offset in sorted({r[2] for r in records}):
        try:
            mapped += _subtable(cmap, offset, glyphs)
        except struct.error:
            raise FontError(f"{_EMBED}: a character map (cmap) subtable runs past the end of its table") from None
        if mapped > MAX_MAPPED:
            raise FontError(f"{_EMBED}: its character map (cmap) maps {mapped:,} characters or more "
                            f"(at most {MAX_MAPPED:,})")


def _subtable(cmap: bytes, offset: int, glyphs: int) -> int:
    """The number of characters the cmap subtable at ``offset`` maps, after checking its bounds.

    Raises:
        FontError: segments or groups out of order, overlapping, beyond Unicode or the font's glyphs.
        struct.error: the subtable runs past the end of the cmap table.
    """
    fmt = struct.unpack_from(">H", cmap, offset)[0]
    if fmt in (8, 10, 12, 13):
        length = struct.unpack_from(">I", cmap, offset + 4)[0]
    elif fmt == 14:
        length = struct.unpack_from(">I", cmap, offset + 2)[0]
    else:
        length = struct.unpack_from(">H", cmap, offset + 2)[0]
    if offset + length > len(cmap):
        raise FontError(f"{_EMBED}: its cmap format-{fmt} subtable runs past the end of its table")
    if fmt == 4:
        segments = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
        if 16 + 8 * segments > length:
            raise FontError(f"{_EMBED}: its cmap format-4 subtable lists {segments:,} segments "
                            f"in {length:,} bytes")
        ends = struct.unpack_from(f">{segments}H", cmap, offset + 14)
        starts = struct.unpack_from(f">{segments}H", cmap, offset + 16 + 2 * segments)
        total, previous = 0, -1
        for start, end in zip(starts, ends):
            if start > end or start <= previous:
                raise FontError(f"{_EMBED}: its cmap format-4 segments are out of order or overlap "
                                f"(U+{start:04X}-U+{end:04X})")
            total += end - start + 1
            previous = end
        return total
    if fmt in (12, 13):
        groups = struct.unpack_from(">I", cmap, offset + 12)[0]
        if 16 + 12 * groups > length:
            raise FontError(f"{_EMBED}: its cmap format-{fmt} subtable lists {groups:,} groups "
                            f"in {length:,} bytes")
        total, previous = 0, -1
        for i in range(groups):
            start, end, glyph = struct.unpack_from(">III", cmap, offset + 16 + 12 * i)
            if start > end or start <= previous or end > MAX_CODE_POINT:
                why = ("reaches beyond Unicode (U+10FFFF)" if end > MAX_CODE_POINT else "ends before it starts" if start > end
                       else "overlaps or comes before the group before it")
                raise FontError(f"{_EMBED}: its cmap format-{fmt} group U+{start:04X}-U+{end:04X} {why}")
            last_glyph = glyph if fmt == 13 else glyph + end - start
            if last_glyph >= glyphs:
                raise FontError(f"{_EMBED}: its cmap maps U+{start:04X}-U+{end:04X} to glyphs "
                                f"the font does not have (it has {glyphs:,})")
            total += end - start + 1
            previous = end
            if total > MAX_MAPPED:
                break
        return total
    if fmt in (6, 10):
        count = struct.unpack_from(">H" if fmt == 6 else ">I", cmap, offset + (8 if fmt == 6 else 16))[0]
        if count * 2 > length:
            raise FontError(f"{_EMBED}: its cmap format-{fmt} subtable lists {count:,} characters "
                            f"in {length:,} bytes")
        return count
    if fmt in (0, 2):
        return 256 if fmt == 0 else 65536
    return 0
