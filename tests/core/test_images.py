"""Only images from known hosts (and the app's own) are ever shown."""

import pytest

from marketplace.core.house_art import render_house_svg
from marketplace.core.images import allowed_images, house_image_urls, is_allowed_image_url


@pytest.mark.parametrize(
    ("url", "ok"),
    [("/api/images/house/abc/0.svg", True),
     ("/api/images/../secrets", False),
     ("https://photos.zillowstatic.com/fp/a.jpg", True),
     ("https://ssl.cdn-redfin.com/photo/1.jpg", True),
     ("http://photos.zillowstatic.com/fp/a.jpg", False),  # not HTTPS
     ("https://photos.zillowstatic.com.evil.com/a.jpg", False),
     ("https://evil.com/photos.zillowstatic.com/a.jpg", False),
     ("javascript:alert(1)", False),
     ("", False), (None, False)],
)
def test_allow_list(url, ok):
    assert is_allowed_image_url(url) is ok


def test_own_absolute_urls_need_the_site_host():
    assert is_allowed_image_url("https://leads.example.com/api/images/house/a/1.svg", own_host="leads.example.com")
    assert not is_allowed_image_url("https://leads.example.com/other.png", own_host="leads.example.com")


def test_allowed_images_filters_dedupes_and_caps_at_8():
    urls = ["https://evil.com/x.jpg"] + house_image_urls("k", 8) * 2
    assert allowed_images(urls) == house_image_urls("k", 8)


def test_renderings_are_deterministic_svgs_that_vary():
    a = render_house_svg("lead-1", 0)
    assert a == render_house_svg("lead-1", 0)
    assert a.startswith("<svg") and a.endswith("</svg>")
    assert a != render_house_svg("lead-1", 1) != render_house_svg("lead-2", 1)
