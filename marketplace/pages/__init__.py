"""One module per page; importing this package registers them all."""

from marketplace.pages import home  # noqa: F401
