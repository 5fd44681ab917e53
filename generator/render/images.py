"""Images that layouts and cards name, opened only through the gate
(:mod:`deckpress.generator.content.gate`): a path relative to the game's folder, inside it after
following links, a whole PNG or JPEG within the byte and pixel limits.  Each image is read and
checked once per build, and reportlab draws the checked bytes, never the path."""
from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.utils import ImageReader

from deckpress.generator.content import gate
from deckpress.generator.render.colour_space import CmykConversion


class ImageRefused(ValueError):
    """The gate refused an image: the message names the rule it breaks."""


class ImageSource:
    """``source(name) -> ImageReader`` for the images of one game.

    Args:
        root: the game's folder: names are resolved against it and may not leave it.
        checked: absolute paths already checked elsewhere (a variant's art, checked against the
            variant's folder by :func:`deckpress.generator.content.variant.variant_art`).
        cmyk: for a CMYK PDF, the conversion of every image to the press's CMYK
            (:meth:`deckpress.generator.render.colour_space.CmykConversion.image`).
    """

    def __init__(self, root: Path, checked: frozenset[str] = frozenset(), cmyk: CmykConversion | None = None):
        self.root = Path(root).resolve()
        self.checked = checked
        self.cmyk = cmyk
        self._cache: dict[str, ImageReader | ImageRefused] = {}

    def __call__(self, name: str) -> ImageReader:
        """The image ``name`` as a reportlab reader.

        Raises:
            ImageRefused: the gate refused it (the message says why).
        """
        if name not in self._cache:
            self._cache[name] = self._open(name)
        found = self._cache[name]
        if isinstance(found, ImageRefused):
            raise found
        return found

    def _open(self, name: str) -> ImageReader | ImageRefused:
        try:
            if name in self.checked:
                info = gate.check_image(Path(name))
            else:
                info = gate.check_image(gate.resolve(name, self.root, self.root, "image"), self.root)
        except gate.GateError as exc:
            return ImageRefused(str(exc))
        return self.cmyk.image(info.data) if self.cmyk else ImageReader(io.BytesIO(info.data))
