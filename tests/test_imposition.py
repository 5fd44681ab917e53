"""Imposition geometry (docs/print-conventions.md, home printing): abutting grid,
bleed only on the outer edges, crop marks outside the bleed, mirrored backs."""
import pytest

from deckpress.generator.kit.imposition import ImpositionError, grid


def test_a4_grid_is_centred_3_by_3():
    g = grid("a4", (63, 88), 3)
    assert (g.cols, g.rows, g.per_sheet) == (3, 3, 9)
    assert g.origin_mm == pytest.approx((10.5, 16.5))  # (210 - 189) / 2, (297 - 264) / 2


def test_bleed_only_on_the_grid_outer_edges():
    g = grid("letter", (63, 88), 3)
    centre = g.slots[4]
    assert centre.bleed_mm == (0, 0, 0, 0)
    assert g.slots[0].bleed_mm == (3, 0, 3, 0)
    assert g.slots[8].bleed_mm == (0, 3, 0, 3)


def test_crop_marks_stay_outside_the_bleed():
    g = grid("a4", (63, 88), 3)
    (left, right), (top, bottom) = (g.origin_mm[0], g.origin_mm[0] + 189), (g.origin_mm[1], g.origin_mm[1] + 264)
    for x1, y1, x2, y2 in g.crop_marks():
        if x1 == x2:  # vertical mark: above or below the grid's bleed
            assert max(y1, y2) <= top - 3 or min(y1, y2) >= bottom + 3
        else:
            assert max(x1, x2) <= left - 3 or min(x1, x2) >= right + 3
    assert len(g.crop_marks()) == 2 * (4 + 4)


def test_back_slots_mirror_columns_on_long_edge_and_rows_on_short_edge():
    g = grid("a4", (63, 88), 3)
    assert (g.back_slot(0, "long").row, g.back_slot(0, "long").col) == (0, 2)
    assert (g.back_slot(0, "short").row, g.back_slot(0, "short").col) == (2, 0)
    assert g.back_slot(4, "long") == g.slots[4]


def test_a_card_larger_than_the_paper_is_refused():
    with pytest.raises(ImpositionError, match="does not fit on a4"):
        grid("a4", (300, 88), 3)
