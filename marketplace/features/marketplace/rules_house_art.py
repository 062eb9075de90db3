"""House illustrations for built-in (demo) leads: deterministic drawings.

Built-in leads have no photographs, so the app draws one illustration (shown
labelled as an illustration, never counted as the property's images). It is
drawn from the lead's own facts, which its key carries (``marketplace.rules_images.house_key``:
beds and square footage): storeys follow from the size (``house_storeys``), the
width from the footprint, the windows from the bedrooms. Colours, garage, porch,
trees and the time of day vary with the key and the picture number. The same
key and number always give the same picture.

One scene (``house_scene``: a list of plain shapes on an 800 x 600 canvas) is
drawn two ways: as SVG (``/api/images/house/{key}/{n}.svg``: crisp at any size,
for the property page's gallery) and as a JPEG of a given width
(``/api/images/house/{key}/{n}-{w}.jpg``: for the marketplace's cards, which
show many at once; the browser decodes a JPEG off its main thread, while every
SVG picture is parsed and laid out on it).
"""

from __future__ import annotations

import hashlib
import io
import random
from dataclasses import dataclass

from marketplace.platform.web.image_hosts import house_facts

WALLS = ["#e8dcc8", "#d9c3a5", "#c9d6df", "#f2efe6", "#b7c4a8", "#d7b9a0", "#a9b8c9", "#efe1c6", "#c4b29b"]
ROOFS = ["#4a4e57", "#6b3e2e", "#3c4a5c", "#5b5147", "#7a3b2e", "#2f3640"]
TRIMS = ["#ffffff", "#f5f1e8", "#2d3436", "#e9e4d8"]
DOORS = ["#7b2d26", "#2c3e50", "#1e5631", "#8e6c3a", "#34495e", "#b03a2e"]
SKIES = [("#8ec5fc", "#e0f1ff"), ("#a1c4fd", "#fdfbfb"), ("#f6d365", "#fda085"), ("#89f7fe", "#dff7ff")]
VIEWS = ("Front elevation", "Street view", "Side view", "Front yard", "Dusk", "Entry", "Garden", "Overview")
LAWN = ("#7cb342", "#558b2f")
CLOUD = "#ffffff"
WIDTH, HEIGHT = 800, 600
# Widths a JPEG is drawn at (a card's 1x and 2x): a fixed set, so that nobody
# can make the server draw (and cache) pictures of arbitrary sizes.
RASTER_WIDTHS = (400, 800)
JPEG_QUALITY = 82
# The 400-pixel picture is drawn at twice its size and scaled down (smooth edges);
# the 800-pixel one, for screens of twice the density, as it is (the same work).
_SUPERSAMPLE = {400: 2, 800: 1}


@dataclass(frozen=True)
class Gradient:
    """A vertical gradient filling the band ``y``..``y + h``."""
    y: int
    h: int
    top: str
    bottom: str


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int
    fill: str
    stroke: str | None = None
    stroke_width: int = 1


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[int, int], ...]
    fill: str


@dataclass(frozen=True)
class Ellipse:
    cx: int
    cy: int
    rx: int
    ry: int
    fill: str


@dataclass(frozen=True)
class Cloud:
    """Two overlapping white ellipses, see-through as one shape."""
    cx: int
    cy: int
    opacity: float = 0.8

    def ellipses(self) -> tuple[Ellipse, Ellipse]:
        return Ellipse(self.cx, self.cy, 46, 16, CLOUD), Ellipse(self.cx + 30, self.cy - 10, 32, 16, CLOUD)


@dataclass(frozen=True)
class Line:
    x1: int
    y1: int
    x2: int
    y2: int
    stroke: str
    width: int = 1


Shape = Gradient | Rect | Polygon | Ellipse | Cloud | Line


def _rng(key: str, n: int) -> random.Random:
    digest = hashlib.sha256(f"{key}:{n}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def house_style_seed(key: str) -> random.Random:
    """The house's own traits (same for every picture of one lead)."""
    return _rng(key, -1)


def house_storeys(beds: int | None, sqft: int | None, style: random.Random | None = None) -> int:
    """Storeys of a house of this size: one up to 1,500 sqft, two from 2,400 sqft (or
    from 5 bedrooms without a size); in between, and without facts, either."""
    if sqft is not None:
        if sqft <= 1_500:
            return 1
        if sqft >= 2_400:
            return 2
    elif beds is not None:
        if beds <= 2:
            return 1
        if beds >= 5:
            return 2
    return (style or random.Random(0)).choice((1, 2))


def house_width(storeys: int, sqft: int | None) -> int:
    """The body's width on the canvas: wider for a larger footprint (sqft per storey)."""
    if sqft is None:
        return 380 if storeys == 1 else 330
    return int(max(260, min(600, 180 + sqft / storeys * 0.16)))


def window_columns(beds: int | None, body_w: int) -> int:
    """Windows a row: more for more bedrooms (and only as many as fit)."""
    wanted = 2 if beds is None or beds <= 2 else (3 if beds <= 4 else 4)
    return max(2, min(wanted, (body_w - 40) // 90))


def house_scene(key: str, n: int = 0) -> list[Shape]:
    """Picture ``n`` of lead ``key``: shapes in drawing order on an 800 x 600 canvas."""
    width, height = WIDTH, HEIGHT
    style = house_style_seed(key)
    beds, sqft = house_facts(key)
    wall, roof, trim, door = style.choice(WALLS), style.choice(ROOFS), style.choice(TRIMS), style.choice(DOORS)
    storeys = house_storeys(beds, sqft, style)
    body_w = house_width(storeys, sqft)
    # A garage where it fits beside the house (and not on the smallest cottages).
    has_garage = style.random() < 0.6 and body_w + 150 <= 640 and (sqft is None or sqft >= 1_000)
    has_porch = style.random() < 0.5
    r = _rng(key, n)
    dusk = n % len(VIEWS) == 4
    sky_top, sky_bottom = SKIES[3] if dusk else r.choice(SKIES[:2] + SKIES[3:])
    if dusk:
        sky_top, sky_bottom = "#2b3a67", "#f4a261"
    shift = (n % 3 - 1) * 60 + r.randint(-20, 20)
    ground_y = 470
    body_h = 150 if storeys == 1 else 240
    x0 = max(10, min(width - body_w - (160 if has_garage else 10),
                     (width - body_w) // 2 + shift - (60 if has_garage else 0)))
    y0 = ground_y - body_h
    shapes: list[Shape] = [Gradient(0, height, sky_top, sky_bottom)]
    for _ in range(r.randint(1, 3)):  # clouds
        cx, cy = r.randint(40, width - 40), r.randint(40, 160)
        shapes.append(Cloud(cx, cy))
    shapes.append(Gradient(ground_y, height - ground_y, *LAWN))
    mid = x0 + body_w // 2  # driveway / path
    shapes.append(Polygon(((mid - 18, ground_y), (mid + 18, ground_y), (mid + 60, height), (mid - 60, height)), "#cfc7b8"))
    if has_garage:
        gx = x0 + body_w
        shapes.append(Rect(gx, ground_y - 120, 150, 120, wall, trim, 3))
        shapes.append(Polygon(((gx - 6, ground_y - 120), (gx + 75, ground_y - 170), (gx + 156, ground_y - 120)), roof))
        shapes.append(Rect(gx + 20, ground_y - 90, 110, 90, trim, "#8d8d8d", 1))
        for i in range(1, 4):
            shapes.append(Line(gx + 20, ground_y - 90 + i * 22, gx + 130, ground_y - 90 + i * 22, "#b5b5b5"))
        shapes.append(Polygon(((gx + 20, ground_y), (gx + 130, ground_y), (gx + 170, height), (gx - 10, height)), "#bdb5a6"))
    shapes.append(Rect(x0, y0, body_w, body_h, wall, trim, 3))
    peak = y0 - (110 if storeys == 2 else 95)
    shapes.append(Polygon(((x0 - 22, y0 + 4), (x0 + body_w // 2, peak), (x0 + body_w + 22, y0 + 4)), roof))
    chimney_x = x0 + int(body_w * style.choice((0.22, 0.72)))
    shapes.append(Rect(chimney_x, peak + 30, 26, 50, "#8d5b4c"))
    door_x = x0 + body_w // 2 - 22
    shapes.append(Rect(door_x, ground_y - 86, 44, 86, door, trim, 4))
    shapes.append(Ellipse(door_x + 34, ground_y - 42, 3, 3, "#f1c40f"))
    if has_porch:
        shapes.append(Rect(door_x - 40, ground_y - 104, 124, 10, trim))
        shapes.append(Rect(door_x - 36, ground_y - 94, 8, 94, trim))
        shapes.append(Rect(door_x + 72, ground_y - 94, 8, 94, trim))
    lit = "#ffe08a" if dusk else "#bfe3f5"
    rows = [ground_y - 70] if storeys == 1 else [ground_y - 70, y0 + 40]
    columns = window_columns(beds, body_w)
    step = (body_w - 140) / (columns - 1)
    spots = [int(x0 + 40 + i * step) for i in range(columns)]
    for wy in rows:
        for wx in spots:
            if wy == ground_y - 70 and abs(wx + 30 - (door_x + 22)) < 60:
                continue  # the front door is there
            shapes.append(Rect(wx, wy - 20, 60, 54, lit, trim, 5))
            shapes.append(Line(wx + 30, wy - 20, wx + 30, wy + 34, trim, 3))
    if storeys == 2 and columns == 2:
        shapes.append(Rect(door_x - 8, y0 + 20, 60, 54, lit, trim, 5))
    for _ in range(r.randint(1, 3)):  # trees
        tx = r.choice((r.randint(20, max(21, x0 - 40)),
                       r.randint(min(width - 21, x0 + body_w + (170 if has_garage else 30)), width - 20)))
        size = r.randint(30, 60)
        shapes.append(Rect(tx - 6, ground_y - size, 12, size, "#6d4c41"))
        crown = size // 2 + 18
        shapes.append(Ellipse(tx, ground_y - size - 20, crown, crown, r.choice(("#2e7d32", "#388e3c", "#43a047"))))
    for i in range(r.randint(2, 5)):  # shrubs along the front
        sx = x0 + 10 + i * (body_w - 20) // 5
        if abs(sx - (door_x + 22)) > 40:
            shapes.append(Ellipse(sx, ground_y - 6, 20, 14, "#2e7d32"))
    return shapes


def _svg_shape(shape: Shape, gradients: dict[Gradient, str]) -> str:
    if isinstance(shape, Gradient):
        return f'<rect y="{shape.y}" width="{WIDTH}" height="{shape.h}" fill="url(#{gradients[shape]})"/>'
    if isinstance(shape, Rect):
        stroke = f' stroke="{shape.stroke}" stroke-width="{shape.stroke_width}"' if shape.stroke else ""
        return f'<rect x="{shape.x}" y="{shape.y}" width="{shape.w}" height="{shape.h}" fill="{shape.fill}"{stroke}/>'
    if isinstance(shape, Polygon):
        return f'<polygon points="{" ".join(f"{x},{y}" for x, y in shape.points)}" fill="{shape.fill}"/>'
    if isinstance(shape, Ellipse):
        return f'<ellipse cx="{shape.cx}" cy="{shape.cy}" rx="{shape.rx}" ry="{shape.ry}" fill="{shape.fill}"/>'
    if isinstance(shape, Cloud):
        inner = "".join(f'<ellipse cx="{e.cx}" cy="{e.cy}" rx="{e.rx}" ry="{e.ry}"/>' for e in shape.ellipses())
        return f'<g fill="{CLOUD}" opacity="{shape.opacity}">{inner}</g>'
    return (f'<line x1="{shape.x1}" y1="{shape.y1}" x2="{shape.x2}" y2="{shape.y2}" stroke="{shape.stroke}"'
            f' stroke-width="{shape.width}"/>')


def render_house_svg(key: str, n: int = 0) -> str:
    scene = house_scene(key, n)
    gradients = {shape: f"g{i}" for i, shape in enumerate(s for s in scene if isinstance(s, Gradient))}
    defs = "".join(
        f'<linearGradient id="{gid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{g.top}"/>'
        f'<stop offset="1" stop-color="{g.bottom}"/></linearGradient>'
        for g, gid in gradients.items()
    )
    body = "".join(_svg_shape(shape, gradients) for shape in scene)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}"><defs>{defs}</defs>{body}</svg>')


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def render_house_jpeg(key: str, n: int, width: int) -> bytes:
    """Picture ``n`` of lead ``key`` as a JPEG ``width`` pixels wide (4:3); ``width`` in RASTER_WIDTHS."""
    from PIL import Image, ImageDraw  # only the raster pictures need Pillow

    if width not in RASTER_WIDTHS:
        raise ValueError(f"width must be one of {RASTER_WIDTHS}")
    factor = _SUPERSAMPLE[width]
    scale = width * factor / WIDTH
    size = (width * factor, round(HEIGHT * width / WIDTH) * factor)
    canvas = Image.new("RGB", size)
    draw = ImageDraw.Draw(canvas)

    def s(value: float) -> float:
        return value * scale

    for shape in house_scene(key, n):
        if isinstance(shape, Gradient):
            band = Image.new("RGB", (1, 2))
            band.putpixel((0, 0), _rgb(shape.top))
            band.putpixel((0, 1), _rgb(shape.bottom))
            top, bottom = round(s(shape.y)), round(s(shape.y + shape.h))
            # Half a pixel of each colour at the ends, as SVG's stops put them.
            strip = band.resize((1, bottom - top), Image.BILINEAR).resize((size[0], bottom - top), Image.NEAREST)
            canvas.paste(strip, (0, top))
        elif isinstance(shape, Rect):
            box = (s(shape.x), s(shape.y), s(shape.x + shape.w), s(shape.y + shape.h))
            if shape.stroke:  # SVG strokes straddle the edge: half outside, half inside
                half = s(shape.stroke_width) / 2
                draw.rectangle((box[0] - half, box[1] - half, box[2] + half, box[3] + half), fill=shape.stroke)
                draw.rectangle((box[0] + half, box[1] + half, box[2] - half, box[3] - half), fill=shape.fill)
            else:
                draw.rectangle(box, fill=shape.fill)
        elif isinstance(shape, Polygon):
            draw.polygon([(s(x), s(y)) for x, y in shape.points], fill=shape.fill)
        elif isinstance(shape, Ellipse):
            draw.ellipse((s(shape.cx - shape.rx), s(shape.cy - shape.ry), s(shape.cx + shape.rx), s(shape.cy + shape.ry)),
                         fill=shape.fill)
        elif isinstance(shape, Cloud):  # blended through a mask the size of the cloud
            parts = shape.ellipses()
            left = int(s(min(e.cx - e.rx for e in parts)))
            top = int(s(min(e.cy - e.ry for e in parts)))
            right = int(s(max(e.cx + e.rx for e in parts))) + 2
            bottom = int(s(max(e.cy + e.ry for e in parts))) + 2
            mask = Image.new("L", (right - left, bottom - top), 0)
            pen = ImageDraw.Draw(mask)
            for e in parts:
                pen.ellipse((s(e.cx - e.rx) - left, s(e.cy - e.ry) - top, s(e.cx + e.rx) - left, s(e.cy + e.ry) - top),
                            fill=round(255 * shape.opacity))
            canvas.paste(Image.new("RGB", mask.size, CLOUD), (left, top), mask)
        else:
            draw.line((s(shape.x1), s(shape.y1), s(shape.x2), s(shape.y2)), fill=shape.stroke,
                      width=max(1, round(s(shape.width))))
    picture = canvas.reduce(factor) if factor > 1 else canvas
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True, progressive=False)
    return out.getvalue()
