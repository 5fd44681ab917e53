"""CMYK PDFs for print shops (``deckpress build --cmyk PROFILE``, ``deckpress export --to pdf
--cmyk PROFILE``): the design's sRGB colours converted to the shop's press by its ICC profile.

A shop that asks for CMYK names the press condition it prints to and gives its ICC profile
("ISO Coated v2", "GRACoL 2006", or its own).  The conversion is LittleCMS's (through Pillow's
ImageCms) from sRGB to that profile, with the relative colorimetric intent and black point
compensation (Acrobat's and InDesign's default for such a conversion), with one rule of the trade
on top: black and every grey print in black ink alone (K), never as a "rich black" of four inks
that a press slightly out of register blurs around small text.  The profile is embedded as the
PDF's output intent, so the shop's preflight sees which press the numbers are for.

Without a profile deckpress does not convert: the PDF standard's formula (PDF Reference, sixth
edition, Adobe 2006, section 6.2.3, with full black generation) turns a rich green into a grey
one on paper, since it ignores how inks mix and spread.  A shop converting the RGB build with
its own profile does better than that.

Vector colours (fills, strokes, text, icons, the cover) are converted where the canvas sets them
(reportlab's ``enforceColorSpace`` hook), so no drawing code knows of it; raster images are
converted whole, their transparency kept as a soft mask, a greyscale image in black ink alone.
"""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageCms
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFName,
    PDFStream,
    PDFString,
    PDFZCompress,
)

from deckpress.generator.content import gate
from deckpress.generator.content.safetext import excerpt


class ProfileRefused(ValueError):
    """A file given as the press's profile cannot be used: ``str()`` says why, following the path."""


class CmykConversion:
    """sRGB to a press's CMYK, by its ICC profile (module docstring).

    Args:
        profile: the bytes of an ICC output (printer) profile whose colour space is CMYK.

    Raises:
        ProfileRefused: not an ICC profile, not a CMYK one, not an output profile, or one that
            LittleCMS cannot convert sRGB to.
    """

    def __init__(self, profile: bytes):
        try:
            cms = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            space, kind = cms.profile.xcolor_space.strip(), cms.profile.device_class
            # the profile's own words reach the cover and messages: control characters escaped, length capped
            self.name = excerpt((cms.profile.profile_description or "").strip() or "unnamed", 80)
        except (OSError, ImageCms.PyCMSError):
            raise ProfileRefused("is not an ICC profile (LittleCMS cannot read it)") from None
        if space != "CMYK":
            raise ProfileRefused(f"is an {space} profile ('{self.name}'): give the print shop's CMYK profile of its press")
        if kind != "prtr":
            raise ProfileRefused(f"is a CMYK profile of class '{kind}' ('{self.name}'), not an output profile of a press")
        try:
            self._transform = ImageCms.buildTransform(
                ImageCms.createProfile("sRGB"), cms, "RGB", "CMYK",
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        except ImageCms.PyCMSError as exc:
            raise ProfileRefused(f"('{self.name}') cannot be converted to from sRGB: {exc}") from None
        self.profile = profile
        self._colours: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}

    @classmethod
    def read(cls, path: Path) -> CmykConversion:
        """The conversion to the profile in the file ``path`` (read through the gate: a regular
        file of at most :data:`deckpress.generator.content.gate.MAX_PROFILE_BYTES`).

        Raises:
            ProfileRefused: the gate refused the file, or :class:`CmykConversion` the profile.
        """
        try:
            data = gate.read_bytes(Path(path), None, gate.MAX_PROFILE_BYTES)
        except gate.GateError as exc:
            raise ProfileRefused(str(exc)) from None
        return cls(data)

    def colour(self, colour: Color | str) -> CMYKColor:
        """``colour`` (a reportlab colour or a name it knows) in the press's CMYK, its alpha kept: a
        grey in black ink alone, a CMYK colour as it is.  The canvas's ``enforceColorSpace``."""
        colour = toColor(colour)
        if isinstance(colour, CMYKColor):
            return colour
        rgb = tuple(round(v * 255) for v in (colour.red, colour.green, colour.blue))
        if rgb not in self._colours:
            if rgb[0] == rgb[1] == rgb[2]:
                inks: tuple[float, ...] = (0, 0, 0, 255 - rgb[0])
            else:
                pixel = self._transform.apply(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
                assert isinstance(pixel, tuple), "a pixel of a CMYK image is the tuple of its four inks"
                inks = pixel
            cyan, magenta, yellow, black = inks
            self._colours[rgb] = (cyan / 255, magenta / 255, yellow / 255, black / 255)
        return CMYKColor(*self._colours[rgb], alpha=colour.alpha)

    def image(self, data: bytes) -> ImageReader:
        """A PNG or JPEG image the gate has checked, in the press's CMYK, for ``drawImage``: any
        Pillow mode (greyscale, palette, RGB, 16-bit, with or without alpha); a greyscale image
        in black ink alone, a CMYK JPEG as it is, the alpha as the soft mask that
        ``mask="auto"`` uses."""
        with Image.open(io.BytesIO(data)) as opened:
            opened.load()
        image: Image.Image = opened
        alpha = None
        if image.mode != "CMYK":
            if image.mode == "P" or "transparency" in image.info:
                image = image.convert("RGBA")
            if "A" in image.getbands():
                alpha = image.getchannel("A")
            if image.mode in ("L", "LA", "I", "I;16", "F", "1"):
                black = Image.eval(image.convert("L"), lambda v: 255 - v)
                blank = Image.new("L", image.size, 0)
                image = Image.merge("CMYK", (blank, blank, blank, black))
            else:
                image = self._transform.apply(image.convert("RGB"))
        return _MaskedImage(image, alpha)

    def mark(self, canvas) -> None:
        """Embed the profile in the PDF that ``canvas`` writes as its output intent (ISO 15930:
        ``/OutputIntents`` in the catalogue, subtype ``GTS_PDFX``, the profile as its
        ``DestOutputProfile``).  reportlab has no call for it; its catalogue writes the keys
        listed in ``__NoDefault__``, so the key is added to that list for this document."""
        doc = canvas._doc
        stream = PDFStream(PDFDictionary({"N": 4}), self.profile, filters=[PDFZCompress])
        intent = PDFDictionary({
            "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(self.name), "Info": PDFString(self.name),
            "DestOutputProfile": doc.Reference(stream),
        })
        catalog = doc.Catalog
        catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]
        catalog.OutputIntents = PDFArray([intent])


class _MaskedImage(ImageReader):
    """A reportlab image reader whose soft mask is ``alpha`` (None: opaque); reportlab clears an
    image's soft mask when it first reads its pixels, so it is set again after every read."""

    def __init__(self, image: Image.Image, alpha: Image.Image | None):
        super().__init__(image)
        self._alpha = ImageReader(alpha) if alpha is not None else None

    def getRGBData(self):  # noqa: N802 (reportlab's name)
        """The pixels for the PDF stream (reportlab's name, whatever the mode)."""
        data = super().getRGBData()
        self._dataA = self._alpha
        return data
