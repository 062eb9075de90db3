"""House renderings answered by the plain ASGI layer (features/marketplace/api_images.HouseImages): only a lead's
own drawings are drawn, misses are limited per client IP, a full drawing queue answers 503."""

import asyncio
import dataclasses
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from marketplace.features.marketplace import api_images as images
from marketplace.features.marketplace.api_images import HouseImages
from marketplace.platform.web.security import HttpHardening
from marketplace.features.marketplace.rules_house_art import render_house_jpeg, render_house_svg
from marketplace.platform.web.image_hosts import house_image_urls
from marketplace.features.marketplace.service_images import house_drawings
from tests.platform.test_security import App, call, settings  # noqa: F401  (the settings fixture)
from tests.factories import add_lead


def _lead_with_drawings(count: int = 4) -> str:
    """A stored lead showing ``count`` drawings of a new key; returns the key."""
    key = f"t-{uuid.uuid4().hex[:12]}"
    urls = house_image_urls(key, count)
    add_lead(image_urls=urls, primary_image_url=urls[0])
    return key


def _served(settings, app=None, **changes):  # noqa: F811
    settings = dataclasses.replace(settings, **changes)
    return HttpHardening(HouseImages(app or App(), settings=settings), settings=settings)


@pytest.fixture
def drawn(monkeypatch):
    """Counts the pictures actually drawn (SVG and JPEG)."""
    counts = {"svg": 0, "jpeg": 0}

    def svg(key, n):
        counts["svg"] += 1
        return render_house_svg(key, n)

    def jpeg(key, n, width):
        counts["jpeg"] += 1
        return render_house_jpeg(key, n, width)

    monkeypatch.setattr(images, "render_house_svg", svg)
    monkeypatch.setattr(images, "render_house_jpeg", jpeg)
    images.house_image.cache_clear()
    return counts


def test_a_house_picture_is_served_without_reaching_the_app(db_url, settings):  # noqa: F811
    key = _lead_with_drawings()
    app = App()
    status, headers, body = call(_served(settings, app), f"/api/images/house/{key}/3.svg")
    assert status == 200 and app.seen == {}
    assert body == render_house_svg(key, 3).encode()
    assert headers["content-type"] == "image/svg+xml"
    assert headers["content-length"] == str(len(body))
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["x-content-type-options"] == "nosniff"  # HttpHardening's headers still apply


def test_head_has_the_headers_and_no_body(db_url, settings):  # noqa: F811
    key = _lead_with_drawings()
    status, headers, body = call(_served(settings), f"/api/images/house/{key}/0.svg", "HEAD")
    assert status == 200 and body == b""
    assert int(headers["content-length"]) == len(render_house_svg(key, 0).encode())


@pytest.mark.parametrize("width", [400, 800])
def test_a_card_s_jpeg_is_served_at_400_or_800_pixels(db_url, settings, drawn, width):  # noqa: F811
    key = _lead_with_drawings()
    app = App()
    path = f"/api/images/house/{key}/3-{width}.jpg"
    status, headers, body = call(_served(settings, app), path)
    assert status == 200 and app.seen == {}
    assert body == render_house_jpeg(key, 3, width) and body[:3] == b"\xff\xd8\xff"
    assert headers["content-type"] == "image/jpeg"
    assert headers["content-length"] == str(len(body))
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    again = call(_served(settings, app), path)  # from the cache
    assert again[0] == 200 and again[2] == body and drawn["jpeg"] == 1


def test_the_sample_leads_drawings_are_served(db_url, settings):  # noqa: F811
    # Each sample (demo data) has one illustration, drawn from its facts (issue 24).
    from marketplace.features.marketplace.rules_samples import SAMPLE_LEADS

    austin, dallas = (sample["images"][0] for sample in SAMPLE_LEADS)
    assert austin == "/api/images/house/sample-austin-3b-1740f/0.svg"
    assert call(_served(settings), austin.replace(".svg", "-400.jpg"))[0] == 200
    assert call(_served(settings), dallas)[0] == 200
    assert call(_served(settings), dallas.replace("/0.svg", "/1.svg"))[0] == 404  # it has one
    assert call(_served(settings), "/api/images/house/sample-dallas/0.svg")[0] == 404  # not its key


@pytest.mark.parametrize("picture", ["0.svg", "0-400.jpg", "7-800.jpg"])
def test_a_key_no_lead_shows_is_404_and_never_drawn(db_url, settings, drawn, picture):  # noqa: F811
    """Issue 22 #6: any 1-64 character key used to be drawn on demand."""
    key = _lead_with_drawings(count=2)
    jpegs_before = len(images._jpegs.items)
    for path in (f"/api/images/house/forged-{uuid.uuid4().hex[:8]}/{picture}",
                 f"/api/images/house/{key}x/{picture}",  # a lead's key, altered
                 f"/api/images/house/{key}/5.svg",  # beyond the lead's two drawings
                 f"/api/images/house/{key}/2-400.jpg"):
        status, headers, body = call(_served(settings), path)
        assert (status, body) == (404, b'{"detail":"Image not found"}'), path
    assert drawn == {"svg": 0, "jpeg": 0} and len(images._jpegs.items) == jpegs_before


def test_house_drawings_finds_a_key_among_the_leads(db_url):
    key = _lead_with_drawings(count=3)
    assert house_drawings(key) == frozenset({0, 1, 2})
    assert house_drawings(key[:-1]) == frozenset()
    photo = add_lead(image_urls=["https://images.unsplash.com/a.jpg"], primary_image_url="https://images.unsplash.com/a.jpg")
    assert photo and house_drawings("a") == frozenset()


@pytest.mark.parametrize("path", [
    "/api/images/house/k/0-500.jpg",  # 400 and 800 only: nobody makes the server draw other sizes
    "/api/images/house/k/0-40.jpg",
    "/api/images/house/k/0-4000.jpg",
    "/api/images/house/k/8-400.jpg",
    "/api/images/house/k/0-400.jpeg",
    "/api/images/house/k/0-400.svg",
    "/api/images/house/k/8.svg",  # pictures 0-7 only
    "/api/images/house/k/-1.svg",
    "/api/images/house/k/0.png",
    "/api/images/house/k/0.svg/extra",
    "/api/images/house/" + "k" * 65 + "/0.svg",
    "/api/images/house/k%2F..%2Fx/0.svg",
    "/api/images/house/",
])
def test_anything_else_under_the_prefix_is_not_found(settings, path):  # noqa: F811
    app = App()
    status, headers, body = call(_served(settings, app), path)
    assert status == 404 and app.seen == {}
    assert body == b'{"detail":"Image not found"}'
    assert headers["cache-control"] == "no-cache"


def test_other_methods_are_refused_and_other_paths_pass_through(settings):  # noqa: F811
    app = App()
    status, headers, _ = call(_served(settings, app), "/api/images/house/k/0.svg", "POST")
    assert status == 405 and headers["allow"] == "GET, HEAD" and app.seen == {}
    assert call(_served(settings, app), "/api/images/proxy")[0] == 200
    assert app.seen["path"] == "/api/images/proxy"


def test_misses_are_limited_per_client_ip(db_url, settings, drawn):  # noqa: F811
    """IMAGE_MISSES_PER_MINUTE pictures a minute that memory cannot answer, per client IP; then 429.
    Pictures already drawn are still served, and other addresses are not affected."""
    key = _lead_with_drawings(count=8)
    served = _served(settings, image_misses_per_minute=3, trusted_proxy_hops=1)
    one, other = {"x-forwarded-for": "203.0.113.5"}, {"x-forwarded-for": "198.51.100.7"}
    for n in range(3):
        assert call(served, f"/api/images/house/{key}/{n}-400.jpg", headers=one)[0] == 200
    status, headers, body = call(served, f"/api/images/house/{key}/3-400.jpg", headers=one)
    assert status == 429 and headers["retry-after"] == "60" and headers["cache-control"] == "no-store"
    assert body == b'{"detail":"Too many new pictures from your address: try again in a minute"}'
    assert drawn["jpeg"] == 3
    assert call(served, f"/api/images/house/{key}/0-400.jpg", headers=one)[0] == 200  # in memory
    assert call(served, f"/api/images/house/{key}/3-400.jpg", headers=other)[0] == 200
    # Unknown keys count too (each costs a lookup).
    assert call(served, f"/api/images/house/{key}-x/0.svg", headers=other)[0] == 404
    assert call(served, f"/api/images/house/{key}-y/0.svg", headers=other)[0] == 404
    assert call(served, f"/api/images/house/{key}-z/0.svg", headers=other)[0] == 429


def test_a_full_drawing_queue_answers_503(db_url, settings, monkeypatch):  # noqa: F811
    """With RENDER_QUEUE requests waiting for a lookup or a drawing, the next miss gets 503 at once."""
    key = _lead_with_drawings(count=8)
    assert call(_served(settings), f"/api/images/house/{key}/7-400.jpg")[0] == 200  # in memory now
    monkeypatch.setattr(images, "RENDER_QUEUE", 2)
    release = threading.Event()

    def stuck_render(key, n, width):
        release.wait(10)
        return b"jpeg"

    monkeypatch.setattr(images, "render_house_jpeg", stuck_render)
    served = _served(settings)

    async def get(path):
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "path": path, "raw_path": path.encode(), "method": "GET", "scheme": "http",
                 "headers": [], "query_string": b"", "client": ("192.0.2.1", 5000)}
        await served(scope, receive, send)
        return sent[0]["status"], dict(sent[0]["headers"])

    async def scenario():
        waiting = [asyncio.ensure_future(get(f"/api/images/house/{key}/{n}-400.jpg")) for n in (0, 1)]
        while images._waiting < 2:
            await asyncio.sleep(0.01)
        busy = await get(f"/api/images/house/{key}/2-400.jpg")
        cached = await get(f"/api/images/house/{key}/7-400.jpg")
        release.set()
        return busy, cached, [await w for w in waiting]

    with ThreadPoolExecutor(max_workers=1) as pool:
        busy, cached, waited = pool.submit(asyncio.run, scenario()).result(timeout=30)
    assert busy[0] == 503 and busy[1][b"retry-after"] == b"1"
    assert cached[0] == 200  # what memory holds is still served
    assert [status for status, _ in waited] == [200, 200]
    assert images._waiting == 0


def test_new_pictures_are_drawn_at_most_two_at_a_time(monkeypatch):
    """A flood of new keys queues for the drawing threads instead of taking every core."""
    import time

    running, peak, lock = 0, 0, threading.Lock()

    def slow_render(key, n, width):
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return key.encode()

    monkeypatch.setattr(images, "render_house_jpeg", slow_render)

    async def flood():
        bodies = await asyncio.gather(*(images.house_jpeg(f"flood-{i}", 0, 400) for i in range(8)))
        return bodies, await images.house_jpeg("flood-0", 0, 400)

    with ThreadPoolExecutor(max_workers=1) as pool:
        bodies, cached = pool.submit(asyncio.run, flood()).result()
    assert bodies == [f"flood-{i}".encode() for i in range(8)] and cached == b"flood-0"
    assert peak == images.RENDER_THREADS == 2
