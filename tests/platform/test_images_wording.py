"""Built-in leads' drawings are illustrations; listing pictures are photos (issue 14)."""

from marketplace.platform.web.image_hosts import house_image_urls, is_illustration


def test_own_drawings_are_illustrations_and_listing_pictures_are_not():
    assert all(is_illustration(url) for url in house_image_urls("abc", 3))
    assert not is_illustration("https://photos.zillowstatic.com/fp/1.jpg")
    assert not is_illustration("/api/images/proxy?u=x")
    assert not is_illustration(None)
    assert not is_illustration("")
