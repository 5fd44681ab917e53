"""A small CMYK output ICC profile for the tests, made here because no freely licensed CMYK
profile is on PyPI or in Debian's free packages (``icc-profiles-free`` holds FOGRA's measurements
as ``.ti3`` files, not profiles).

Its press is the textbook one: a colour's RGB is ``(1 - c)(1 - k)`` for red and so on, and its
inverse puts the darkness shared by all three in black (``k = 1 - max(r, g, b)``), so the
conversions a test expects are known: sRGB red prints as M 100 Y 100, white as no ink.  The
profile is an ICC version 2 printer profile (ICC.1:2001-04): a header, a tag table and the tags
``desc``, ``wtpt``, ``cprt``, ``A2B0`` (CMYK to Lab) and ``B2A0`` (Lab to CMYK), the two look-up
tables as ``lut16Type`` (section 6.5.8).  LittleCMS, through Pillow's ImageCms, computes the
tables' Lab values from its own sRGB profile.
"""
from __future__ import annotations

import itertools
import struct

import numpy as np
from PIL import Image, ImageCms

D50 = (0.9642, 1.0, 0.8249)


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _lut16(inputs: int, outputs: int, grid: int, clut: np.ndarray) -> bytes:
    """A ``mft2`` tag: identity matrix and curves, ``clut`` (grid**inputs, outputs) in 0..65535."""
    head = b"mft2" + bytes(4) + struct.pack(">BBBB", inputs, outputs, grid, 0)
    matrix = b"".join(_s15(1.0 if i == j else 0.0) for i in range(3) for j in range(3))
    curve = struct.pack(">2H", 0, 65535)
    return (head + matrix + struct.pack(">HH", 2, 2) + curve * inputs
            + clut.astype(">u2").tobytes() + curve * outputs)


def _lab_encoded(lab: np.ndarray) -> np.ndarray:
    """Lab values as the version 2 16-bit PCS encoding (L 100 is 0xFF00, a and b offset by 128)."""
    out = np.empty_like(lab, dtype=np.float64)
    out[:, 0] = lab[:, 0] / 100 * 0xFF00
    out[:, 1:] = (lab[:, 1:] + 128) * 256
    return np.clip(np.round(out), 0, 65535)


def _srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """(n, 3) sRGB values 0..255 as (n, 3) Lab floats, by LittleCMS."""
    image = Image.fromarray(rgb.astype(np.uint8).reshape(1, -1, 3), "RGB")
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB"), "RGB", "LAB")
    lab = np.asarray(ImageCms.applyTransform(image, transform), dtype=np.float64).reshape(-1, 3)
    lab[:, 0] *= 100 / 255
    lab[:, 1:] = np.where(lab[:, 1:] > 127, lab[:, 1:] - 256, lab[:, 1:])
    return lab


def _lab_to_srgb(lab: np.ndarray) -> np.ndarray:
    """(n, 3) Lab floats as (n, 3) sRGB values 0..255 (clipped to the gamut), by LittleCMS."""
    pixels = np.empty_like(lab)
    pixels[:, 0] = lab[:, 0] * 255 / 100
    pixels[:, 1:] = np.where(lab[:, 1:] < 0, lab[:, 1:] + 256, lab[:, 1:])
    image = Image.fromarray(np.clip(np.round(pixels), 0, 255).astype(np.uint8).reshape(1, -1, 3), "LAB")
    transform = ImageCms.buildTransform(ImageCms.createProfile("LAB"), ImageCms.createProfile("sRGB"), "LAB", "RGB")
    return np.asarray(ImageCms.applyTransform(image, transform), dtype=np.float64).reshape(-1, 3)


def _tag(signature: bytes, data: bytes) -> tuple[bytes, bytes]:
    return signature, data + bytes(-len(data) % 4)


def _text(kind: bytes, text: str) -> bytes:
    if kind == b"desc":
        ascii_ = text.encode("ascii") + b"\0"
        return b"desc" + bytes(4) + struct.pack(">I", len(ascii_)) + ascii_ + bytes(4 + 4 + 2 + 1 + 67)
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def cmyk_profile(name: str = "deckpress test press") -> bytes:
    """The bytes of the test press's ICC profile (module docstring)."""
    grid_in = np.linspace(0, 1, 5)
    cmyk = np.array(list(itertools.product(grid_in, repeat=4)))
    rgb = np.stack([(1 - cmyk[:, i]) * (1 - cmyk[:, 3]) for i in range(3)], axis=1) * 255
    a2b = _lab_encoded(_srgb_to_lab(np.round(rgb)))
    grid_out = 17
    steps = np.linspace(0, 1, grid_out)
    lab = np.array([(l * 100, a * 255 - 128, b * 255 - 128) for l, a, b in itertools.product(steps, repeat=3)])
    rgb = _lab_to_srgb(lab) / 255
    k = 1 - rgb.max(axis=1)
    b2a = np.column_stack([np.where(k < 1, (1 - rgb[:, i] - k) / np.maximum(1 - k, 1e-9), 0) for i in range(3)] + [k])
    tags = [
        _tag(b"desc", _text(b"desc", name)),
        _tag(b"cprt", _text(b"text", "No copyright: made by deckpress's tests")),
        _tag(b"wtpt", b"XYZ " + bytes(4) + b"".join(_s15(v) for v in D50)),
        _tag(b"A2B0", _lut16(4, 3, 5, a2b)),
        _tag(b"B2A0", _lut16(3, 4, grid_out, np.clip(np.round(b2a * 65535), 0, 65535))),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, body = struct.pack(">I", len(tags)), b""
    for signature, data in tags:
        table += signature + struct.pack(">II", offset + len(body), len(data))
        body += data
    size = offset + len(body)
    header = (struct.pack(">I", size) + bytes(4) + struct.pack(">I", 0x02100000) + b"prtrCMYKLab "
              + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + bytes(4 + 4 + 4 + 4 + 8) + struct.pack(">I", 0)
              + b"".join(_s15(v) for v in D50) + bytes(4 + 44))
    assert len(header) == 128
    return header + table + body
