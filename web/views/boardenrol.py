"""A corner of the printed board tapped on the enrolment screen's camera preview (``POST
/api/enrolment/corner``, body ``{"x": 0..1, "y": 0..1}``: the tap as a fraction of the picture's
width and height): step 1 of enrolling Karibik's or Tahiti's board from the phone
(:mod:`tablehub.board_enrolment`, docs/boardcam.md "From the phone").

The hub gets its :class:`~tablehub.board_enrolment.BoardEnrolment` from the set-up screens
(``hub.board_enrolment``, set by :meth:`tablehub.table_setup.SetupScreens.register`); without
one (no camera) the route says so. PIN and CSRF as every change (:func:`web.security.change`).
"""
from __future__ import annotations

import math

from flask import Blueprint, Response

from tablehub.i18n import T

from ..security import ApiError, change, hub

bp = Blueprint("boardenrol", __name__)


def _fraction(body: dict, key: str) -> float:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0.0 <= value <= 1.0:
        raise ApiError(400, T("'{key}' must be a number from 0 to 1 (where the corner was tapped on the picture), "
                              "got {value}", key=key, value=repr(value)[:30]))
    return float(value)


@bp.post("/api/enrolment/corner")
@change()
def corner() -> Response:
    from .api import _body, _ok

    body = _body()
    enrolment = getattr(hub(), "board_enrolment", None)
    if enrolment is None:
        raise ApiError(409, T("board enrolment is not running on this hub (it needs the table's camera)"))
    x, y = _fraction(body, "x"), _fraction(body, "y")
    return _ok(message=enrolment.tap(x, y))
