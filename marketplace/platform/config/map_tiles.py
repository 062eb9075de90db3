


# Map tiles (MAP_TILE_URL / MAP_TILE_ATTRIBUTION in config.py): OpenStreetMap's by default.
DEFAULT_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"


DEFAULT_TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'


NO_TILES = ("off", "none")


def tile_url(raw: str | None) -> str:
    """MAP_TILE_URL checked: unset or empty is OpenStreetMap's, 'off' is '' (no tiles: a
    plain background), else an http(s) template with {z}, {x} and {y}; ValueError otherwise."""
    text = (raw or "").strip() or DEFAULT_TILE_URL
    if text.lower() in NO_TILES:
        return ""
    if not text.startswith(("https://", "http://")) or not all(p in text for p in ("{z}", "{x}", "{y}")):
        raise ValueError(f"MAP_TILE_URL must be an http(s) URL with {{z}}, {{x}} and {{y}} (or 'off'), got {text!r}")
    return text


def tile_image_source(url: str) -> str | None:
    """The Content-Security-Policy img-src entry the tiles need ('https://*.tile.example.org'
    for a {s} subdomain template); None without tiles."""
    if not url:
        return None
    scheme, rest = url.split("://", 1)
    host = rest.split("/", 1)[0]
    if "{" in host:  # {s}.tile.example.org: any subdomain
        host = "*." + host.split("}.", 1)[1] if "}." in host else host.split("{", 1)[0].rstrip(".")
    return f"{scheme}://{host}"
