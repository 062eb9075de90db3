"""House renderings for built-in leads: deterministic SVG pictures.

Built-in leads have no photographs, so the app draws its own: each lead gets
0-8 pictures (``/api/images/house/{key}/{n}.svg``) in which wall, roof and trim
colours, storeys, garage, porch, windows, trees and the time of day vary with
the lead and the picture number. The same URL always gives the same picture.
"""

from __future__ import annotations

import hashlib
import random

WALLS = ["#e8dcc8", "#d9c3a5", "#c9d6df", "#f2efe6", "#b7c4a8", "#d7b9a0", "#a9b8c9", "#efe1c6", "#c4b29b"]
ROOFS = ["#4a4e57", "#6b3e2e", "#3c4a5c", "#5b5147", "#7a3b2e", "#2f3640"]
TRIMS = ["#ffffff", "#f5f1e8", "#2d3436", "#e9e4d8"]
DOORS = ["#7b2d26", "#2c3e50", "#1e5631", "#8e6c3a", "#34495e", "#b03a2e"]
SKIES = [("#8ec5fc", "#e0f1ff"), ("#a1c4fd", "#fdfbfb"), ("#f6d365", "#fda085"), ("#89f7fe", "#dff7ff")]
VIEWS = ("Front elevation", "Street view", "Side view", "Front yard", "Dusk", "Entry", "Garden", "Overview")


def _rng(key: str, n: int) -> random.Random:
    digest = hashlib.sha256(f"{key}:{n}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def house_style_seed(key: str) -> random.Random:
    """The house's own traits (same for every picture of one lead)."""
    return _rng(key, -1)


def render_house_svg(key: str, n: int = 0, width: int = 800, height: int = 600) -> str:
    style = house_style_seed(key)
    wall, roof, trim, door = style.choice(WALLS), style.choice(ROOFS), style.choice(TRIMS), style.choice(DOORS)
    storeys = style.choice((1, 1, 2, 2, 2))
    has_garage = style.random() < 0.6
    has_porch = style.random() < 0.5
    r = _rng(key, n)
    sky_top, sky_bottom = SKIES[3] if n % len(VIEWS) == 4 else r.choice(SKIES[:2] + SKIES[3:])
    if n % len(VIEWS) == 4:
        sky_top, sky_bottom = "#2b3a67", "#f4a261"
    shift = (n % 3 - 1) * 60 + r.randint(-20, 20)
    ground_y = 470
    body_w = 380 if storeys == 1 else 330
    body_h = 150 if storeys == 1 else 240
    x0 = (width - body_w) // 2 + shift - (60 if has_garage else 0)
    y0 = ground_y - body_h
    parts: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
        "<defs>",
        f'<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{sky_top}"/>'
        f'<stop offset="1" stop-color="{sky_bottom}"/></linearGradient>',
        '<linearGradient id="lawn" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7cb342"/>'
        '<stop offset="1" stop-color="#558b2f"/></linearGradient>',
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="url(#sky)"/>',
    ]
    for _ in range(r.randint(1, 3)):  # clouds
        cx, cy = r.randint(40, width - 40), r.randint(40, 160)
        parts.append(
            f'<g fill="#ffffff" opacity="0.8"><ellipse cx="{cx}" cy="{cy}" rx="46" ry="16"/>'
            f'<ellipse cx="{cx + 30}" cy="{cy - 10}" rx="32" ry="16"/></g>'
        )
    parts.append(f'<rect y="{ground_y}" width="{width}" height="{height - ground_y}" fill="url(#lawn)"/>')
    # driveway / path
    parts.append(
        f'<polygon points="{x0 + body_w // 2 - 18},{ground_y} {x0 + body_w // 2 + 18},{ground_y} '
        f'{x0 + body_w // 2 + 60},{height} {x0 + body_w // 2 - 60},{height}" fill="#cfc7b8"/>'
    )
    if has_garage:
        gx = x0 + body_w
        parts.append(f'<rect x="{gx}" y="{ground_y - 120}" width="150" height="120" fill="{wall}" stroke="{trim}" stroke-width="3"/>')
        parts.append(f'<polygon points="{gx - 6},{ground_y - 120} {gx + 75},{ground_y - 170} {gx + 156},{ground_y - 120}" fill="{roof}"/>')
        parts.append(f'<rect x="{gx + 20}" y="{ground_y - 90}" width="110" height="90" fill="{trim}" stroke="#8d8d8d"/>')
        for i in range(1, 4):
            parts.append(f'<line x1="{gx + 20}" y1="{ground_y - 90 + i * 22}" x2="{gx + 130}" y2="{ground_y - 90 + i * 22}" stroke="#b5b5b5"/>')
        parts.append(f'<polygon points="{gx + 20},{ground_y} {gx + 130},{ground_y} {gx + 170},{height} {gx - 10},{height}" fill="#bdb5a6"/>')
    parts.append(f'<rect x="{x0}" y="{y0}" width="{body_w}" height="{body_h}" fill="{wall}" stroke="{trim}" stroke-width="3"/>')
    peak = y0 - (110 if storeys == 2 else 95)
    parts.append(f'<polygon points="{x0 - 22},{y0 + 4} {x0 + body_w // 2},{peak} {x0 + body_w + 22},{y0 + 4}" fill="{roof}"/>')
    chimney_x = x0 + int(body_w * style.choice((0.22, 0.72)))
    parts.append(f'<rect x="{chimney_x}" y="{peak + 30}" width="26" height="50" fill="#8d5b4c"/>')
    door_x = x0 + body_w // 2 - 22
    parts.append(f'<rect x="{door_x}" y="{ground_y - 86}" width="44" height="86" fill="{door}" stroke="{trim}" stroke-width="4"/>')
    parts.append(f'<circle cx="{door_x + 34}" cy="{ground_y - 42}" r="3" fill="#f1c40f"/>')
    if has_porch:
        parts.append(f'<rect x="{door_x - 40}" y="{ground_y - 104}" width="124" height="10" fill="{trim}"/>')
        parts.append(f'<rect x="{door_x - 36}" y="{ground_y - 94}" width="8" height="94" fill="{trim}"/>')
        parts.append(f'<rect x="{door_x + 72}" y="{ground_y - 94}" width="8" height="94" fill="{trim}"/>')
    lit = "#ffe08a" if n % len(VIEWS) == 4 else "#bfe3f5"
    rows = [ground_y - 70] if storeys == 1 else [ground_y - 70, y0 + 40]
    for wy in rows:
        for wx in (x0 + 40, x0 + body_w - 100):
            parts.append(f'<rect x="{wx}" y="{wy - 20}" width="60" height="54" fill="{lit}" stroke="{trim}" stroke-width="5"/>')
            parts.append(f'<line x1="{wx + 30}" y1="{wy - 20}" x2="{wx + 30}" y2="{wy + 34}" stroke="{trim}" stroke-width="3"/>')
    if storeys == 2:
        parts.append(f'<rect x="{door_x - 8}" y="{y0 + 20}" width="60" height="54" fill="{lit}" stroke="{trim}" stroke-width="5"/>')
    for _ in range(r.randint(1, 3)):  # trees and shrubs
        tx = r.choice((r.randint(20, max(21, x0 - 40)), r.randint(min(width - 21, x0 + body_w + (170 if has_garage else 30)), width - 20)))
        size = r.randint(30, 60)
        parts.append(f'<rect x="{tx - 6}" y="{ground_y - size}" width="12" height="{size}" fill="#6d4c41"/>')
        parts.append(f'<circle cx="{tx}" cy="{ground_y - size - 20}" r="{size // 2 + 18}" fill="{r.choice(("#2e7d32", "#388e3c", "#43a047"))}"/>')
    for i in range(r.randint(2, 5)):  # shrubs along the front
        sx = x0 + 10 + i * (body_w - 20) // 5
        if abs(sx - (door_x + 22)) > 40:
            parts.append(f'<ellipse cx="{sx}" cy="{ground_y - 6}" rx="20" ry="14" fill="#2e7d32"/>')
    parts.append("</svg>")
    return "".join(parts)
