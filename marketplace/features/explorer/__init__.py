"""The developer explorer (/explorerdev, super admins only): leads table and CSV, manual scrape, Sources panel, webhook.

What other features use of it is exported below; they import it from ``marketplace.features.explorer``
(``platform.exports``)."""

