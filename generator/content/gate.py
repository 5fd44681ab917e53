"""The one gate for every file deckpress reads from a user's folder.

Card files (YAML, CSV), ``game.yaml``, layouts, images, fonts, a game's own schemas, logs,
variants and their art all come from people deckpress does not know: a fan repository, a
downloaded edition, a pull request.  Every such read goes through here, so one set of rules
holds everywhere (hazards and their sources: ``docs/untrusted-input.md``):

* a path named inside a file is resolved against **that file's folder**, never the working folder;
  absolute paths and URLs are refused;
* after following links it must stay **inside its root** (the game's folder, the variant's folder,
  or the installed package for shipped content);
* it must be a **regular file** (not ``/dev/zero``, a FIFO or a folder), opened without blocking;
* its **size is checked before reading**, and the read itself stops at the limit, so a file that
  grows while it is read cannot exhaust memory;
* images are **PNG or JPEG** by their content, verified (a truncated file is refused), within a
  pixel limit that is an error, not Pillow's warning.

A refusal is a :class:`GateError` whose message names the rule it breaks ("leaves the game folder",
"is not a regular file", "is larger than 2 MB"), written to follow the path as the caller quotes
it ("'art/x.png' is a URL: ..."); it never quotes the refused file's content.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

#: Default byte limit of a content file (YAML, CSV, JSON schema): the largest shipped file is
#: about 60 KB.
MAX_FILE_BYTES = 2_000_000
#: Byte limit of an image (PNG or JPEG) named by a layout, a card or a variant.
MAX_IMAGE_BYTES = 5 * 1024 * 1024
#: Pixel limit of an image: 25 Mpx is a 63 x 88 mm card at well over 1,200 dpi.  Pillow only warns
#: below its own 89 Mpx bomb limit, and a 100 Mpx image takes about 500 MB to decode.
MAX_IMAGE_PIXELS = 25_000_000
#: Byte limit of a font a game declares: Noto Sans Devanagari is about 0.24 MB, a CJK font 5 to 20 MB.
MAX_FONT_BYTES = 32 * 1024 * 1024
#: Byte limit of the ICC profile of a print shop's press (``--cmyk``): such profiles are a few MB.
MAX_PROFILE_BYTES = 16 * 1024 * 1024

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class GateError(Exception):
    """A path or file refused by the gate; ``str()`` is one line naming the rule it breaks.
    ``line`` and ``column`` (1-based) place it in the file where it has a place, else 0."""

    line = column = 0


class NotUTF8(GateError):
    """A text file that is not UTF-8, at the ``line`` and ``column`` of its first byte that is not."""

    def __init__(self, raw: bytes, start: int):
        self.line = raw.count(b"\n", 0, start) + 1
        self.column = start - (raw.rfind(b"\n", 0, start) + 1) + 1
        super().__init__(f"is not UTF-8 text: byte 0x{raw[start]:02X} is no UTF-8 character (a file saved in another "
                         "encoding, such as Windows-1252: save it as UTF-8, in a spreadsheet as 'CSV UTF-8')")


def _size(n: int) -> str:
    """``2_000_000`` as ``2 MB``; ``5_242_880`` as ``5 MiB``."""
    for unit, factor in (("MiB", 1024 * 1024), ("MB", 1_000_000), ("KiB", 1024), ("kB", 1000)):
        if n >= factor and n % factor == 0:
            return f"{n // factor} {unit}"
    return f"{n:,} bytes"


def resolve(name: str, base: Path, root: Path, what: str = "file", root_name: str = "game folder") -> Path:
    """The file that ``name`` (written in a file in folder ``base``) designates, checked to stay
    in ``root``.

    Args:
        name: the path as written (relative, with ``/`` separators).
        base: the folder of the file that names it: relative paths start there.
        root: the folder nothing may leave (the game's or the variant's folder).
        what: what the path is for people ("image", "card file"), used in messages.
        root_name: what ``root`` is for people ("game folder", "variant's folder").

    Raises:
        GateError: ``name`` is empty, a URL, absolute, or leads outside ``root`` once links are
            followed.
    """
    text = str(name)
    if not text.strip():
        raise GateError(f"the {what} path is empty")
    if _URL.match(text) and not re.match(r"^[A-Za-z]:[\\/]", text):
        raise GateError(f"is a URL: the {what} must be a file in the {root_name}, given by a relative path")
    if text.startswith(("/", "\\")) or PurePosixPath(text).is_absolute() or re.match(r"^[A-Za-z]:[\\/]", text):
        raise GateError(f"is an absolute path: the {what} must be given by a path relative to the file that names it")
    real_root = real(Path(root))
    candidate = real(Path(base) / text)
    if not candidate.is_relative_to(real_root):
        raise GateError(f"leaves the {root_name} (after following links): the {what} must lie inside it")
    return candidate


def real(path: Path) -> Path:
    """``path`` with every link followed (``Path.resolve``).

    Raises:
        GateError: the links go round in a loop (Python raises RuntimeError or OSError there).
    """
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError):
        raise GateError("is a link that leads back to itself (a symlink loop)") from None


def inside(path: Path, root: Path, root_name: str = "game folder") -> Path:
    """``path`` resolved (links followed), checked to lie inside ``root``.

    Raises:
        GateError: it leaves ``root``.
    """
    followed = real(path)
    if not followed.is_relative_to(real(root)):
        raise GateError(f"leaves the {root_name} (after following links)")
    return followed


def read_bytes(path: Path, root: Path | None = None, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    The path is resolved (links followed) and must stay inside ``root`` when one is given; it must
    be a regular file (checked on the opened descriptor, opened with ``O_NONBLOCK`` so a FIFO
    cannot hang); its size is checked before reading and the read stops at ``max_bytes + 1``.

    Raises:
        GateError: outside ``root``, missing, not a regular file, unreadable, or too large.
    """
    followed = inside(path, root) if root is not None else real(path)
    try:
        fd = os.open(followed, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise GateError("does not exist") from None
    except IsADirectoryError:
        raise GateError("is a folder, not a regular file") from None
    except OSError as exc:
        raise GateError(f"cannot be read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GateError("is not a regular file (a device, a pipe or a folder)")
        if info.st_size > max_bytes:
            raise GateError(f"is larger than {_size(max_bytes)} ({info.st_size:,} bytes)")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise GateError(f"is larger than {_size(max_bytes)}")
        return b"".join(chunks)
    except OSError as exc:
        raise GateError(f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: Path, root: Path | None = None, max_bytes: int = MAX_FILE_BYTES) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a leading byte-order mark is dropped).

    Raises:
        GateError: as :func:`read_bytes`; :class:`NotUTF8`, at its line and column, for a file
            that is not UTF-8 text.
    """
    raw = read_bytes(path, root, max_bytes)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0  # utf-8-sig counts from after the mark
        raise NotUTF8(raw, exc.start + bom) from None


@dataclass(frozen=True)
class ImageInfo:
    """A checked image: its resolved ``path``, ``format`` ('PNG' or 'JPEG'), size in pixels, and
    the ``data`` that was checked (draw these bytes, never the path again)."""

    path: Path
    format: str
    width_px: int
    height_px: int
    data: bytes = field(repr=False, default=b"")


def check_image(path: Path, root: Path | None = None, max_bytes: int = MAX_IMAGE_BYTES,
                max_pixels: int = MAX_IMAGE_PIXELS) -> ImageInfo:
    """Check that ``path`` is a whole PNG or JPEG image within the limits, by its content.

    The bytes are read through :func:`read_bytes` (so every file rule holds); Pillow's
    decompression-bomb warning is an error; ``verify()`` catches truncated files.

    Raises:
        GateError: any file rule, not PNG or JPEG, damaged or truncated, or over ``max_pixels``.
    """
    import io
    import warnings

    from PIL import Image

    data = read_bytes(path, root, max_bytes)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                kind, (w, h) = im.format, im.size
                if kind not in ("PNG", "JPEG"):
                    raise GateError(f"is a {kind} image; only PNG and JPEG are accepted")
                if w * h > max_pixels:
                    raise GateError(f"is {w} x {h} pixels; the limit is {max_pixels:,} pixels")
                im.verify()
            with Image.open(io.BytesIO(data)) as im:
                im.load()  # verify() does not decode: a truncated image data stream fails here
    except GateError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise GateError(f"is larger than the limit of {max_pixels:,} pixels") from None
    except Exception as exc:  # noqa: BLE001 - Pillow raises many types for damaged files
        raise GateError(f"is not a readable PNG or JPEG image ({type(exc).__name__})") from None
    return ImageInfo(Path(path).resolve(), kind, w, h, data)

