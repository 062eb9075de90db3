"""Lead pictures: ``fetch-property-images`` finds pictures for leads still waiting for
them; ``house_drawings`` tells the picture route which drawings belong to a lead."""

from __future__ import annotations

import logging

import sqlalchemy as sa

from marketplace.platform.web.image_hosts import MAX_IMAGES_PER_LEAD, allowed_images, house_image_urls
from marketplace.features.marketplace.rules_samples import SAMPLE_LEADS
from marketplace.platform.db import get_engine, read_scope
from marketplace.platform.models import Lead
from marketplace.platform.models.leads import HOUSE_DRAWING_WHERE

log = logging.getLogger("marketplace.images")


def _numbers(key: str, lists) -> frozenset[int]:
    wanted = house_image_urls(key, MAX_IMAGES_PER_LEAD)
    return frozenset(n for n, url in enumerate(wanted) if any(url in (urls or ()) for urls in lists))


def house_drawings(key: str) -> frozenset[int]:
    """The numbers ``n`` of the drawings ``/api/images/house/{key}/{n}.svg`` that a lead (or one
    of the two built-in sample leads) shows; empty when the key belongs to no lead. A lead is
    found by its first drawing, its ``primary_image_url`` (``ix_leads_house_drawing``)."""
    samples = [sample["images"] for sample in SAMPLE_LEADS]
    found = _numbers(key, samples)
    if found:
        return found
    leads = Lead.__table__
    with read_scope() as session:
        lists = session.execute(
            sa.select(leads.c.image_urls)
            .where(leads.c.primary_image_url == house_image_urls(key, 1)[0], sa.text(HOUSE_DRAWING_WHERE))
            .limit(8)
        ).scalars().all()
    return _numbers(key, lists)


def fetch_property_images(limit: int = 500, source=None, database_url: str | None = None) -> dict:
    """For leads whose ``images_fetch_status`` is pending or failed, ask the source
    for images, keep only allowed hosts, and set the status: success (some images),
    no_images (none found) or failed (the source errored; tried again next time)."""
    from marketplace.features.scrape import get_source

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
