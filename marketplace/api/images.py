"""Serves the house renderings of built-in leads."""

from __future__ import annotations

import re

from fastapi import APIRouter, HTTPException, Response

from marketplace.core.house_art import render_house_svg
from marketplace.core.images import MAX_IMAGES_PER_LEAD

router = APIRouter()
_KEY = re.compile(r"^[A-Za-z0-9-]{1,64}$")


@router.get("/api/images/house/{key}/{n}.svg", include_in_schema=False)
def house_image(key: str, n: int) -> Response:
    if not _KEY.fullmatch(key) or not 0 <= n < MAX_IMAGES_PER_LEAD:
        raise HTTPException(status_code=404, detail="Image not found")
    return Response(
        render_house_svg(key, n),
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=31536000, immutable"},
    )
