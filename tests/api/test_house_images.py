"""House renderings answered by the plain ASGI layer (api/images.HouseImages)."""

import pytest

from marketplace.api.images import HouseImages
from marketplace.api.security import HttpHardening
from marketplace.core.house_art import render_house_jpeg, render_house_svg
from tests.api.test_security import App, call, settings  # noqa: F401  (the settings fixture)


def test_a_house_picture_is_served_without_reaching_the_app(settings):  # noqa: F811
    app = App()
    status, headers, body = call(HttpHardening(HouseImages(app), settings=settings), "/api/images/house/abc-1/3.svg")
    assert status == 200 and app.seen == {}
    assert body == render_house_svg("abc-1", 3).encode()
    assert headers["content-type"] == "image/svg+xml"
    assert headers["content-length"] == str(len(body))
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["x-content-type-options"] == "nosniff"  # HttpHardening's headers still apply


def test_head_has_the_headers_and_no_body(settings):  # noqa: F811
    status, headers, body = call(HttpHardening(HouseImages(App()), settings=settings), "/api/images/house/k/0.svg", "HEAD")
    assert status == 200 and body == b""
    assert int(headers["content-length"]) == len(render_house_svg("k", 0).encode())


@pytest.mark.parametrize("width", [400, 800])
def test_a_card_s_jpeg_is_served_at_400_or_800_pixels(settings, width):  # noqa: F811
    app = App()
    path = f"/api/images/house/abc-1/3-{width}.jpg"
    status, headers, body = call(HttpHardening(HouseImages(app), settings=settings), path)
    assert status == 200 and app.seen == {}
    assert body == render_house_jpeg("abc-1", 3, width) and body[:3] == b"\xff\xd8\xff"
    assert headers["content-type"] == "image/jpeg"
    assert headers["content-length"] == str(len(body))
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    again = call(HttpHardening(HouseImages(app), settings=settings), path)  # from the cache
    assert again[0] == 200 and again[2] == body


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
    status, headers, body = call(HttpHardening(HouseImages(app), settings=settings), path)
    assert status == 404 and app.seen == {}
    assert body == b'{"detail":"Image not found"}'
    assert headers["cache-control"] == "no-cache"


def test_other_methods_are_refused_and_other_paths_pass_through(settings):  # noqa: F811
    app = App()
    status, headers, _ = call(HttpHardening(HouseImages(app), settings=settings), "/api/images/house/k/0.svg", "POST")
    assert status == 405 and headers["allow"] == "GET, HEAD" and app.seen == {}
    assert call(HttpHardening(HouseImages(app), settings=settings), "/api/images/proxy")[0] == 200
    assert app.seen["path"] == "/api/images/proxy"


def test_new_pictures_are_drawn_at_most_two_at_a_time(monkeypatch):
    """A flood of new keys queues for the drawing threads instead of taking every core."""
    import asyncio
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from marketplace.api import images

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
