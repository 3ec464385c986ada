"""A lone slot between water read by a spit's expected body (vision/sunda.py ``_wedges``, ``_wedge_spits``,
``SPIT_WEDGE``): a one-slot spit is printed as a thin wedge of land reaching in from the slot's middle towards the
piece's middle; blur and the JPEG's halved chroma spread its green over the water so that the nearest class calls
every sample water, while the wedge's mean colour still lies well towards the land's. The cloth beyond the layout's
outline (beige linen blurred with the teal water reads as land by an acute corner) is left out of the wedge
(``_off_cloth``), so a trace of land votes there with no land in the wedge is water (docs/history/sunda-measured.md,
"Session 17: a spit read by its body")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_joint import LAT  # noqa: E402
from tests.vision.test_sunda_spits import _ring, _slot_spot, _water_label  # noqa: E402
from vision.sunda import corners_of  # noqa: E402


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _bgr(lab) -> np.ndarray:
    return cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3) * 255.0


def _corners():
    return LAT.to_mm(np.array(corners_of(0, 0, 0), float))


def _mask(reader, label, poly_mm) -> np.ndarray:
    m = np.zeros(label.shape, np.uint8)
    cv2.fillPoly(m, [np.round(reader._px(np.asarray(poly_mm)) * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    return m


def _photo(reader, label, land_share: np.ndarray, cloth_share: np.ndarray | None = None) -> None:
    """The frame the classes were read from: the all-water piece at 0,0 turn 0 (``label``'s water), with
    ``land_share`` of the land's colour mixed in per pixel (and ``cloth_share`` of the cloth's), the cloth
    elsewhere; the reader's colours, no gain. Sets what ``_wedges`` looks at."""
    c = reader.colours
    land, water, cloth = _bgr(c.land), _bgr(c.water), np.asarray(c.cloth_bgr, np.float32)
    a = land_share[..., None].astype(np.float32)
    b = np.zeros_like(a) if cloth_share is None else cloth_share[..., None].astype(np.float32)
    img = water * (1 - a - b) + land * a + cloth * b
    img[label == 0] = cloth
    reader._for_stacks = (np.clip(img, 0, 255).astype(np.uint8), np.ones(3, np.float32),
                          {"land": c.land, "water": c.water})
    C = _corners()
    reader._clear_of_cloth = reader._off_cloth(np.array([C[[0, 1, 2]], C[[0, 2, 3]]]), label)


def _spit_ring(reader, slot: int, blur_mm: float = 2.0) -> str:
    """An all-water piece whose slot ``slot`` holds the provisional set's spit (s030, s087: land from a quarter to
    three quarters of the slot on the side, its tip 60 % of the way to the middle), blurred by ``blur_mm`` so that
    every sample is classed water (the label map: water on the piece, the cloth off it). The ring read."""
    label = _water_label(reader)
    C = _corners()
    s, j = divmod(slot, 3)
    a, b = C[s], C[(s + 1) % 4]
    spot, mid = _slot_spot(slot, 0.0)
    wedge = [a + (j + 0.25) / 3 * (b - a), a + (j + 0.75) / 3 * (b - a), spot + 0.6 * (mid - spot)]
    share = cv2.GaussianBlur(_mask(reader, label, wedge).astype(np.float32), (0, 0), blur_mm * reader.s)
    _photo(reader, label, share)
    return _ring(reader, label)


@pytest.mark.parametrize("slot", [0, 4, 5, 6, 11])
def test_a_spit_blurred_into_the_water_is_land(reader, monkeypatch, slot):
    want = "".join("L" if k == slot else "W" for k in range(12))
    assert _spit_ring(reader, slot) == want
    monkeypatch.setattr(sunda, "SPIT_WEDGE", False)
    assert _spit_ring(reader, slot) == "W" * 12


def test_water_with_no_body_of_land_stays_water(reader):
    """The same piece without a spit: no slot's wedge shows the land."""
    label = _water_label(reader)
    _photo(reader, label, np.zeros(label.shape, np.float32))
    assert _ring(reader, label) == "W" * 12


def _outline_blend_ring(reader, slot: int) -> str:
    """Open sea on the layout's outline by an acute corner: the cloth blurred with the water along the piece's edge
    (up to 2.5 mm in) reads as land on 90 % of slot ``slot``'s samples there (the votes say land), and the wedge,
    clear of the cloth, shows water."""
    label = _water_label(reader)
    inside = label == 2
    near = cv2.distanceTransform(inside.astype(np.uint8), cv2.DIST_L2, 5) / reader.s
    rim = inside & (near <= 2.5)
    spot, _ = _slot_spot(slot, 1.0)
    yy, xx = np.mgrid[:label.shape[0], :label.shape[1]]
    c = reader._px(spot[None])[0]
    by_slot = (xx - c[0]) ** 2 + (yy - c[1]) ** 2 <= (3.5 * reader.s) ** 2
    label[rim & by_slot & (np.random.default_rng(5).random(label.shape) < 0.9)] = 1
    _photo(reader, label, np.where(rim, 0.6, 0.0).astype(np.float32))    # the blend's colour is the land's too
    return _ring(reader, label)


@pytest.mark.parametrize("slot", [0, 5])
def test_the_cloth_blended_into_open_sea_by_a_corner_is_no_spit(reader, monkeypatch, slot):
    assert _outline_blend_ring(reader, slot) == "W" * 12
    monkeypatch.setattr(sunda, "WEDGE_CLOTH_MM", 0.5)      # the blend by the cloth let into the wedge
    assert _outline_blend_ring(reader, slot)[slot] == "L"
    monkeypatch.setattr(sunda, "SPIT_WEDGE", False)
    assert _outline_blend_ring(reader, slot)[slot] == "L"


def test_the_wedge_rule():
    base = list("W" * 12)
    wedge = np.zeros(12)
    wedge[3], wedge[7] = 0.3, 0.18
    assert sunda.SundaReader._wedge_spits(base, wedge) == [(k, "L" if k == 3 else "W") for k in range(12) if k != 7]
    wedge[:] = np.nan
    assert sunda.SundaReader._wedge_spits(base, wedge) == []
    base[4] = "L"                       # slot 3's neighbour is land: no lone slot there
    wedge[3] = 0.3
    assert sunda.SundaReader._wedge_spits(base, wedge) == []
