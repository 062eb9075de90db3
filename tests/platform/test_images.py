"""Only images from known hosts (and the app's own) are ever shown."""

import io

import pytest
from PIL import Image

from marketplace.features.marketplace.rules_house_art import Cloud, house_scene, render_house_jpeg, render_house_svg
from marketplace.platform.web.image_hosts import allowed_images, card_picture, house_image_urls, is_allowed_image_url


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


def test_a_card_shows_the_app_s_drawings_as_jpegs_and_any_other_picture_as_it_is():
    assert card_picture("/api/images/house/abc-1/3.svg") == (
        "/api/images/house/abc-1/3-400.jpg",
        "/api/images/house/abc-1/3-400.jpg 400w, /api/images/house/abc-1/3-800.jpg 800w",
    )
    photo = "https://photos.zillowstatic.com/fp/a.jpg"
    assert card_picture(photo) == (photo, "")
    assert card_picture("/api/images/house/../x/0.svg") == ("/api/images/house/../x/0.svg", "")


@pytest.mark.parametrize(("width", "size"), [(400, (400, 300)), (800, (800, 600))])
def test_the_jpeg_is_the_same_drawing_at_the_asked_width(width, size):
    body = render_house_jpeg("lead-1", 4, width)
    assert body == render_house_jpeg("lead-1", 4, width)
    picture = Image.open(io.BytesIO(body))
    assert picture.format == "JPEG" and picture.size == size
    assert body != render_house_jpeg("lead-1", 5, width)
    # Dusk (picture 4): the top of the sky is the dusk blue, the lawn green at the bottom.
    top, bottom = picture.convert("RGB").getpixel((5, 2)), picture.convert("RGB").getpixel((5, size[1] - 3))
    assert max(abs(a - b) for a, b in zip(top, (0x2B, 0x3A, 0x67))) < 12
    assert bottom[1] > bottom[0] and bottom[1] > bottom[2]


def test_the_svg_and_the_jpeg_draw_one_scene():
    scene = house_scene("lead-7", 2)
    svg = render_house_svg("lead-7", 2)
    drawn = sum(len(s.ellipses()) if isinstance(s, Cloud) else 1 for s in scene)
    assert sum(svg.count(f"<{tag} ") for tag in ("rect", "polygon", "ellipse", "line")) == drawn


@pytest.mark.parametrize("width", [0, 300, 401, 1600])
def test_other_widths_are_refused(width):
    with pytest.raises(ValueError):
        render_house_jpeg("lead-1", 0, width)


def test_an_illustration_is_drawn_from_the_lead_s_own_facts():
    from marketplace.features.marketplace.rules_house_art import house_storeys, house_width, window_columns
    from marketplace.platform.web.image_hosts import house_facts, house_key, illustration_url, split_pictures

    key = house_key("0b7c1e9a-5d7e-4c1f-9a53-2f0e8c9d1a21", 8, 4_673)
    assert key.endswith("-8b-4673f") and house_facts(key) == (8, 4_673)
    assert house_facts(house_key("sample-austin", None, 1_740)) == (None, 1_740)
    assert house_facts("0b7c1e9a-5d7e-4c1f-9a53-2f0e8c9d1a21") == (None, None)
    # The 8-bed, 4,673 sqft house of the issue is a wide two-storey house, not a small ranch.
    assert house_storeys(8, 4_673) == 2 and house_storeys(2, 900) == 1
    assert house_width(2, 4_673) > house_width(1, 900) + 150
    assert window_columns(8, house_width(2, 4_673)) == 4 and window_columns(1, house_width(1, 600)) == 2
    big, small = house_scene(key, 0), house_scene(house_key("x", 1, 650), 0)
    assert len([s for s in big if getattr(s, "w", 0) == 60]) > len([s for s in small if getattr(s, "w", 0) == 60])
    url = illustration_url("x", 3, 1_500)
    assert url == "/api/images/house/x-3b-1500f/0.svg"
    photo = "https://photos.zillowstatic.com/fp/a.jpg"
    assert split_pictures([url, photo]) == ([photo], url)
    assert split_pictures([url]) == ([], url)
