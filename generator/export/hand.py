"""A hand of cards in one picture (``deckpress export GAME --to hand``): chosen card faces fanned
out as a player holds them, on a transparent background, for a game's page or a crowdfunding
campaign (Squib's ``hand``).

Each face is a rasterised page of the one-up PDF (:func:`deckpress.generator.export.images.rasterise`),
cut to its trim with rounded corners (a circle for round cards) and a soft shadow, then turned
about a point below the hand so that the cards spread like a fan, the first on the left and each
next one on top of it.  The picture is made with Pillow alone and is the same for the same cards.
"""
from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw, ImageFilter

from deckpress.generator.export import MM_PER_INCH
from deckpress.generator.render.oneup import Page

#: Most cards a hand shows: a fan of more is a smear.
MAX_CARDS = 12
#: Degrees between neighbouring cards, and the widest the whole fan opens.
STEP_DEG, MAX_SPREAD_DEG = 9.0, 70.0
#: Corner radius of a rectangular card, mm (a printed poker card's is about 3 mm).
CORNER_MM = 3.0
#: The point the cards turn about lies this many card heights below a card's centre.
PIVOT_HEIGHTS = 1.6
#: The shadow: offset right and down (mm), blur radius (mm) and opacity (0-255).
SHADOW_MM, SHADOW_BLUR_MM, SHADOW_ALPHA = (0.8, 1.2), 1.0, 110


def hand_image(faces: list[tuple[Page, Image.Image]], dpi: int, round_kinds: frozenset[str] = frozenset()) -> Image.Image:
    """The fan of ``faces`` (each a one-up page and its raster at ``dpi``), as an RGBA image with a
    transparent background, cropped to the cards and their shadows.  Cards of a kind in
    ``round_kinds`` are cut as circles.

    Raises:
        ValueError: no faces, or more than :data:`MAX_CARDS`.
    """
    if not 1 <= len(faces) <= MAX_CARDS:
        raise ValueError(f"a hand shows 1 to {MAX_CARDS} cards, not {len(faces)}")
    px = dpi / MM_PER_INCH
    cards = [_cut(page, image, px, page.kind in round_kinds) for page, image in faces]
    width = max(c.width for c in cards)
    height = max(c.height for c in cards)
    step = min(STEP_DEG, MAX_SPREAD_DEG / max(1, len(cards) - 1))
    radius = PIVOT_HEIGHTS * height
    reach = radius + math.hypot(width, height)
    canvas = Image.new("RGBA", (int(2 * reach), int(2 * reach)), (0, 0, 0, 0))
    pivot = (canvas.width / 2, canvas.height / 2)
    shadow_offset = tuple(round(v * px) for v in SHADOW_MM)
    for i, card in enumerate(cards):
        angle = (i - (len(cards) - 1) / 2) * step  # degrees clockwise from upright
        shadow = _shadow(card, px)
        for layer, offset in ((shadow, shadow_offset), (card, (0, 0))):
            turned = layer.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
            # the card's centre, on a circle about the pivot
            cx = pivot[0] + radius * math.sin(math.radians(angle)) + offset[0]
            cy = pivot[1] - radius * math.cos(math.radians(angle)) + offset[1]
            canvas.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    return canvas.crop(canvas.getbbox())


def png_bytes(image: Image.Image, dpi: int) -> bytes:
    """``image`` as PNG bytes with its resolution recorded."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi))
    return buf.getvalue()


def _cut(page: Page, image: Image.Image, px: float, round_card: bool) -> Image.Image:
    """The card's trim out of its page raster (which has the bleed around it), with its corners
    (or all but its circle) transparent."""
    left, right, top, bottom = page.bleed_mm
    w_mm, h_mm = page.size_mm[0] - left - right, page.size_mm[1] - top - bottom
    box = (round(left * px), round(top * px), round((left + w_mm) * px), round((top + h_mm) * px))
    card = image.convert("RGBA").crop(box)
    scale = 4  # the mask drawn larger and reduced: smooth edges
    mask = Image.new("L", (card.width * scale, card.height * scale), 0)
    draw = ImageDraw.Draw(mask)
    if round_card:
        draw.ellipse((0, 0, mask.width - 1, mask.height - 1), fill=255)
    else:
        draw.rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), radius=round(CORNER_MM * px * scale), fill=255)
    card.putalpha(mask.resize(card.size, Image.Resampling.LANCZOS))
    return card


def _shadow(card: Image.Image, px: float) -> Image.Image:
    """A soft dark copy of the card's outline, with room around it for the blur."""
    pad = math.ceil(3 * SHADOW_BLUR_MM * px)
    alpha = Image.new("L", (card.width + 2 * pad, card.height + 2 * pad), 0)
    alpha.paste(card.getchannel("A").point(lambda a: a * SHADOW_ALPHA // 255), (pad, pad))
    shadow = Image.new("RGBA", alpha.size, (0, 0, 0, 0))
    shadow.putalpha(alpha.filter(ImageFilter.GaussianBlur(SHADOW_BLUR_MM * px)))
    return shadow
