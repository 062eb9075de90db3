"""``fetch-property-images``: find pictures for leads still waiting for them."""

from __future__ import annotations

import logging

import sqlalchemy as sa

from marketplace.core.images import allowed_images
from marketplace.db import get_engine
from marketplace.models import Lead

log = logging.getLogger("marketplace.images")


def fetch_property_images(limit: int = 500, source=None, database_url: str | None = None) -> dict:
    """For leads whose ``images_fetch_status`` is pending or failed, ask the source
    for images, keep only allowed hosts, and set the status: success (some images),
    no_images (none found) or failed (the source errored; tried again next time)."""
    from marketplace.sources import get_source

    source = source or get_source()
    leads = Lead.__table__
    engine = get_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(leads.c.id, leads.c.external_id, leads.c.address, leads.c.city, leads.c.state,
                      leads.c.zip_code, leads.c.raw_data)
            .where(leads.c.images_fetch_status.in_(("pending", "failed")))
            .order_by(leads.c.created_at.desc())
            .limit(limit)
        ).mappings().all()
    counts = {"checked": len(rows), "success": 0, "no_images": 0, "failed": 0}
    for row in rows:
        try:
            urls = allowed_images(source.images_for(dict(row)))
            status = "success" if urls else "no_images"
        except Exception as exc:  # noqa: BLE001 - one bad lead must not stop the batch
            log.warning("images for lead %s failed: %s", row["id"], exc)
            urls, status = [], "failed"
        counts[status] += 1
        with engine.begin() as conn:
            conn.execute(
                sa.update(leads).where(leads.c.id == row["id"]).values(
                    image_urls=urls, primary_image_url=urls[0] if urls else None, images_fetch_status=status
                )
            )
    return counts
