"""What makes two place names the same, for Python and SQL alike (``db.city_in``)."""


def city_key(city: str) -> str:
    """What makes two cities the same: case does not count ('AUSTIN' is 'Austin')."""
    return " ".join(city.split()).lower()
