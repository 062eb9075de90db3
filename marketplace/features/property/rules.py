"""The property page's display values (SPEC 2 /property, 4, 8, 9): pure, built
from a lead and its unlock record as ``property.service.load`` returns
them: a ``leads`` row (its columns as attributes) and a ``user_leads`` row
(``unlocked_at``, ``credit_cost``, ``purchase_type``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from marketplace.features.marketplace import rules_headline as headline, rules_sale_dates as sale_dates
from marketplace.features.records import rules_open_since as open_since
from marketplace.features.records import listed_line
from marketplace.features.unlock import held_text, spots_text
from marketplace.platform.web.image_hosts import allowed_images, split_pictures
from marketplace.features.marketplace import number_text
from marketplace.features.marketplace import owner_flags as owner_flag_chips
from marketplace.platform.leads import is_generated, provenance_line, public_record_line
from marketplace.features.marketplace import external_links
from marketplace.features.marketplace import percent, usd
from marketplace.platform.pricing import display_confidence, potential_profit
from marketplace.platform.times import UTC_NAME, format_date, format_datetime
from marketplace.features.records import display_city, display_street
from marketplace.features.records import describe as describe_class
from marketplace.platform.texts import (
    DEMO_REHAB_BASIS,
    DEMO_SOURCE,
    HIDDEN_AREA_REHAB_BASIS,
    NO_AREA_REHAB_BASIS,
    GALLERY_COUNT,
    GALLERY_TITLE,
    ILLUSTRATION_NOTE,
    IMAGE_STATUS_TEXT,
    PICTURE_ALT,
    PICTURE_NOUN,
    PICTURES_LATER,
    VIEW_ALL_PICTURES,
    VIEW_PICTURE,
)


GALLERY_SIZE = 4  # SPEC 9: at most 4 images (primary + 3), then '+N more'
ROI_EMPHASIS_ABOVE = 15.0  # SPEC 9: ROI badge emphasised above 15
ABOVE_MARK = "Above the 15% mark"
AT_OR_BELOW_MARK = "At or below 15%"
NO_ROI_MARK = "No ROI figure: a number it needs is missing"
ESTIMATE_BASIS = "Estimated after-repair value: market value x a renovation uplift."
# Public-record fields of raw_data worth showing, in order: (key, label).
RECORD_FIELDS = (
    ("owner_name", "Owner"),
    ("year_built", "Year built"),
    ("county", "County"),
    ("parcel_id", "Parcel ID"),
    ("filing_date", "Filing date"),
)



def record_value(key: str, value: Any) -> str:
    """A record field as the page shows it: a date in the app's one format ('Nov 26, 2026'), as every
    other date on the page; anything else as it is."""
    if key == "filing_date":
        try:
            return format_date(date.fromisoformat(str(value)[:10]), UTC_NAME)
        except ValueError:
            pass
    return str(value)

def picture_texts(illustrations: bool, count: int, address: str) -> dict[str, str]:
    """The gallery's wording: 'photos' for pictures from a listing source; a
    generated lead's one drawing is 'Illustration, not a photo of this property'."""
    picture, pictures = PICTURE_NOUN[illustrations]
    if illustrations:
        return {
            "gallery_title": "Illustration",
            "gallery_count": ILLUSTRATION_NOTE,
            "view_all": VIEW_PICTURE.format(picture=picture),
            "view_one": VIEW_PICTURE.format(picture=picture),
            "picture_alt": ILLUSTRATION_NOTE,
            "picture_note": ILLUSTRATION_NOTE,
            "pictures_later": PICTURES_LATER.format(pictures="Photos"),
        }
    return {
        "picture_note": "",
        "gallery_title": GALLERY_TITLE.format(pictures=pictures),
        "gallery_count": GALLERY_COUNT.format(count=count, noun=picture if count == 1 else pictures,
                                              address=address),
        "view_all": VIEW_ALL_PICTURES.format(pictures=pictures),
        "view_one": VIEW_PICTURE.format(picture=picture),
        "picture_alt": PICTURE_ALT.format(picture=picture),
        "pictures_later": PICTURES_LATER.format(pictures=pictures.capitalize()),
    }


def format_unlocked_at(value, zone_name: str = UTC_NAME) -> str:
    """'Mar 4, 2026, 10:05 AM EST': stored in UTC, shown in the browser's zone, labelled."""
    return format_datetime(value, zone_name)


def archived_from_marketplace(is_active: bool, bought_in_scrape: bool) -> bool:
    """A marketplace lead taken off the marketplace. A lead bought in a bulk scrape is stored
    inactive because it was never listed: it is never 'archived'."""
    return not is_active and not bought_in_scrape


def scrape_note(bought_in_scrape: bool, unlocked_at, zone_name: str = UTC_NAME) -> str:
    """'Bought in a bulk scrape on Nov 25, 2026: never listed on the marketplace.' ('' otherwise)."""
    if not bought_in_scrape:
        return ""
    return f"Bought in a bulk scrape on {format_date(unlocked_at, zone_name)}: never listed on the marketplace."


def confidence_color(score: int) -> str:
    if score >= 80:
        return "grass"
    if score >= 60:
        return "amber"
    return "tomato"


@dataclass
class PropertyView:
    """Everything the page shows, as display values."""

    details: dict[str, str]
    images: list[str]
    more_count: int
    roi_high: bool
    profit_kind: str  # profit | loss | unknown
    confidence: int
    archived: bool
    illustrations: bool = False  # the pictures are the app's drawings (a built-in lead)
    record: list[dict[str, str]] = field(default_factory=list)
    hints: dict[str, str] = field(default_factory=dict)  # the headline's roi_label and arv_basis


def roi_mark(roi: float | None) -> str:
    """The line under the ROI badge: where the figure stands against the 15 % mark; no figure (N/A) is
    neither above nor below it."""
    if roi is None:
        return NO_ROI_MARK
    return ABOVE_MARK if roi > ROI_EMPHASIS_ABOVE else AT_OR_BELOW_MARK


# Under each money tile of a lead without a stated basis (demo and listing leads).
DEFAULT_HINTS = {"asking_basis": "What the seller asks", "market_value_basis": "Estimate as it stands",
                 "arv_basis": "After-repair value", "rehab_basis": "Estimated repair cost",
                 "roi_basis": "", "roi_label": "Est. ROI"}
NO_ASKING_BASIS = "Public records carry no asking price"


@dataclass
class RecordSection:
    """The property page's 'Public record' section as display values: empty for other leads."""

    shown: bool = False
    source_line: str = ""  # 'Public record: City of Chicago, ..., record 11CP015666, retrieved Nov 25, 2026, ...'
    signals: list[dict[str, str]] = field(default_factory=list)  # label, source, record, as_of, retrieved, url
    closed: list[str] = field(default_factory=list)
    owner: dict[str, str] = field(default_factory=dict)          # name, mailing ('N/A' when missing)
    flags: list[str] = field(default_factory=list)  # 'Absentee owner', ..., 'Owner mailing address unknown'
    motivation: str = ""                                         # '72/100'
    reasons: list[str] = field(default_factory=list)
    confidence_reasons: list[str] = field(default_factory=list)
    facts: list[dict[str, str]] = field(default_factory=list)    # parcel id, year built, class, the roll's
    # The parcel's recorded sales (date, price, deed, note, basis) and its market's comparable sales
    # (address, date, price, deed, note, basis): records.service_sales.
    sales: list[dict[str, str]] = field(default_factory=list)
    comps: list[dict[str, str]] = field(default_factory=list)
    # Every dataset that mentions the parcel (``record_views.PublicRecordPanel.datasets``): title (on the
    # first row of each dataset, else ''), publisher, what, record, date, url, link ('View the record' or
    # 'View the dataset').
    datasets: list[dict[str, str]] = field(default_factory=list)
    hints: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_HINTS))


def proof_line(proof: Any, zone_name: str) -> str:
    """The proving record's line: 'Public record: <publisher>, <title>' for everyone, with ', record
    11CP015666, retrieved Nov 25, 2026, 7:00 AM EST' (the instant in the viewer's zone, as the signal rows
    show it) for a viewer who unlocked the lead; '' without a proving record."""
    if proof is None:
        return ""
    retrieved = format_datetime(proof.retrieved_at, zone_name) if proof.retrieved_at is not None else ""
    return public_record_line(proof.publisher, proof.title, proof.record_key, retrieved)


def _mailing(owner: Any) -> str:
    place = " ".join(part for part in (owner.mailing_state, owner.mailing_zip) if part)
    parts = [part for part in (display_street(owner.mailing_address), display_city(owner.mailing_city), place)
             if part]
    return ", ".join(parts) if parts else "N/A"


def record_section(panel: Any, zone_name: str = UTC_NAME) -> RecordSection:
    """``records.service_views.PublicRecordPanel`` (None for a lead not from public records) as the page
    shows it: every signal with its dataset, record key, dates and link; the closed ones with their reason;
    the owner and the flags; the motivation score with its reasons; the basis of every figure."""
    if panel is None:
        return RecordSection()
    basis = panel.basis or {}
    signals = [{
        "label": chip.label,
        "source": chip.source,
        "record": chip.record_key or "N/A",
        "as_of": format_date(chip.as_of, zone_name) or "N/A",
        "retrieved": format_datetime(chip.retrieved_at, zone_name),
        "url": chip.record_url or "",
        # 'Baltimore City open list of Nov 27, 2026 · first seen Nov 27, 2026, 2:05 PM EST' (records.rules_freshness)
        "listed": listed_line(getattr(chip, "place", ""), getattr(chip, "status_list", False),
                              getattr(chip, "listed_day", None), getattr(chip, "first_seen_at", None), zone_name,
                              exact=True),
    } for chip in panel.chips]
    owner = panel.owner
    flags = owner_flag_chips(panel.absentee_owner, panel.out_of_state_owner, getattr(panel, "bank_owned", None),
                             public_record=True)
    facts = [{"label": label, "value": str(value)} for label, value in (
        ("Parcel ID", panel.parcel_id), ("Year built", panel.year_built),
        ("Property class", describe_class(getattr(panel, "class_dataset", None), panel.property_class)))
        if value not in (None, "")]
    shown = {fact["value"] for fact in facts}  # the roll's land use is the class already shown
    facts += [{"label": label, "value": value} for label, value in getattr(panel, "roll_facts", None) or ()
              if not (label == "Land use" and value in shown)]
    sales = getattr(panel, "sales", None)
    if sales is not None:
        facts.append({"label": "Last sale", "value": sales.last_sale.removeprefix("Last sale: ") or "None recorded"})
        if sales.last_sale_basis:
            facts.append({"label": "Last sale basis", "value": sales.last_sale_basis})
        if sales.comps_arv is not None:
            facts.append({"label": "Comps ARV (recorded sales)", "value": f"${sales.comps_arv:,}"})
            facts.append({"label": "Comps ARV basis", "value": sales.comps_arv_basis})
    hints = {
        "asking_basis": NO_ASKING_BASIS,
        "market_value_basis": str(basis.get("market_value") or "N/A: no basis on record"),
        "arv_basis": str(basis.get("arv") or "N/A: no basis on record"),
        "rehab_basis": str(basis.get("rehab") or "N/A: no basis on record"),
        "roi_basis": str(basis.get("roi") or "N/A: no basis on record"),
        # Computed against the market value (no asking price on public records); N/A needs no such label.
        "roi_label": "Est. ROI" if str(basis.get("roi") or "N/A").startswith("N/A") else "ROI vs market value",
    }
    return RecordSection(
        shown=True, source_line=proof_line(panel.proof, zone_name),
        signals=signals, closed=list(panel.closed),
        owner={"name": (owner.name if owner else None) or "N/A",
               "mailing": _mailing(owner) if owner else "N/A"},
        flags=flags,
        motivation="N/A" if panel.motivation_score is None else f"{panel.motivation_score}/100",
        reasons=list(panel.motivation_reasons), confidence_reasons=[str(r) for r in basis.get("confidence") or ()],
        facts=facts, hints=hints, sales=list(sales.history) if sales else [],
        comps=list(sales.comps) if sales else [],
        datasets=dataset_rows(getattr(panel, "datasets", ()), zone_name),
    )


def dataset_rows(mentions: Any, zone_name: str = UTC_NAME) -> list[dict[str, str]]:
    """The Public record section's list of datasets that mention the parcel, as display strings."""
    rows, last = [], None
    for m in mentions:
        day = format_date(m.date, zone_name)
        rows.append({
            "title": m.title if m.dataset_id != last else "", "publisher": m.publisher, "what": m.what,
            "record": f"Record {m.record_key}" if m.record_key else "",
            "date": f"{m.date_label} {day}" if day else "",
            "url": m.url or "", "link": "View the record" if m.record_page else "View the dataset",
        })
        last = m.dataset_id
    return rows


def _sale(lead: Any, raw: dict, today: date | None) -> dict[str, str]:
    """'Sale date: Dec 12, 2026 (in 17 days)' and where it comes from; '' for a lead without one."""
    sale = getattr(lead, "sale_date", None)
    if sale is None:
        return {"sale_date": "", "sale_source": ""}
    line = sale_dates.date_line(sale, today) if today is not None else f"Sale date: {format_date(sale, UTC_NAME)}"
    return {"sale_date": line, "sale_source": sale_dates.source_text(raw)}



def demo_rehab_basis(rehab: int | None, square_footage: int | None) -> str:
    """Under a demo lead's rehab tile: the living area and the $/sqft its estimate rests on; N/A without a
    living area (no estimate is made then)."""
    if rehab is None:
        return NO_AREA_REHAB_BASIS
    if not square_footage or square_footage <= 0:
        return HIDDEN_AREA_REHAB_BASIS
    return DEMO_REHAB_BASIS.format(sqft=f"{square_footage:,}", rate=f"{rehab / square_footage:,.0f}")


def demo_source(raw: dict, source: str | None) -> str | None:
    """The lead's source as the page shows it: a generated lead's source ('County Probate Records') was
    invented with it, and says so."""
    if source and is_generated(raw):
        return DEMO_SOURCE.format(source=source)
    return source

def _open_since(raw: dict, viewer_today: date | None) -> dict[str, str]:
    """'Vacant since Mar 4, 2009 (17 years)' (exact: only unlockers reach this page) over what the date is
    ('Notice date from Vacant Building Notices'); '' for a lead without a dated status item."""
    item = open_since.from_raw(raw) if not is_generated(raw) else None
    line = open_since.since_line(item.kind, item.since, viewer_today) if item and viewer_today else ""
    return {"open_since": line, "open_since_basis": open_since.basis_text(item) if line else ""}


def property_view(lead: Any, unlock: Any, own_host: str | None = None, zone_name: str = UTC_NAME,
                  today: date | None = None, viewer_today: date | None = None,
                  max_holders: int = 0) -> PropertyView:
    """The display values of an unlocked lead (pure; raises on unreadable data); the
    unlock time in ``zone_name`` (the browser's); the sale date counted from ``today``
    (``marketplace.rules_sale_dates.local_today``; without it, the date alone); how long its status item has been
    open from ``viewer_today`` (the viewer's day, ``platform.times.today_in``; without it, no line);
    ``max_holders``: LEAD_MAX_HOLDERS (0 = no cap), for the cap line ('3 of 5 spots left', 'Sold out',
    'Exclusive')."""
    scraped = getattr(lead, "scrape_id", None) is not None
    # Photos are the property's images; a generated lead's drawing is shown alone,
    # labelled, and never counted among them.
    photos, drawing = split_pictures(allowed_images([lead.primary_image_url, *list(lead.image_urls or [])], own_host))
    illustrations = not photos and bool(drawing)
    images = photos or ([drawing] if drawing else [])
    links = external_links(lead.address, lead.city, lead.state, lead.zip_code,
                           lead.raw_data if isinstance(lead.raw_data, dict) else {})
    raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
    # The headline (marketplace.rules_headline): the ARV, profit and ROI the card shows, on the same basis.
    basis, comps_arv = getattr(lead, "roi_basis", "") or "", getattr(lead, "comps_arv", None)
    arv = headline.arv_used(lead.arv, comps_arv, basis)
    amount = potential_profit(arv, lead.asking_price, lead.rehab_estimate)
    confidence = display_confidence(lead.confidence_score)
    stated = raw.get("basis") if isinstance(raw.get("basis"), dict) else {}
    hints = {"roi_label": headline.roi_label(basis, lead.asking_price, lead.roi),
             "arv_basis": headline.page_arv_basis(basis, getattr(lead, "comps_count", 0), lead.arv,
                                                  str(stated.get("arv") or ESTIMATE_BASIS))}
    if is_generated(raw):
        hints["rehab_basis"] = demo_rehab_basis(lead.rehab_estimate, lead.square_footage)
    record = [
        {"label": label, "value": record_value(key, raw[key])}
        for key, label in RECORD_FIELDS
        if raw.get(key) not in (None, "")
    ]
    details = {
        "address": display_street(lead.address),
        "place": f"{display_city(lead.city)}, {lead.state} {lead.zip_code}".strip(),
        "lead_type": lead.lead_type,
        "source": demo_source(raw, lead.source),
        "provenance": provenance_line(raw, lead.source),
        "beds": number_text(lead.beds),
        "baths": number_text(lead.baths),
        "sqft": number_text(lead.square_footage),
        "asking": usd(lead.asking_price),
        "market_value": usd(lead.zestimate),
        "arv": usd(arv),
        "arv_term": headline.arv_term(basis),
        "arv_note": headline.disagreement(comps_arv, lead.arv) if basis in headline.BASES else "",
        "rehab": usd(lead.rehab_estimate),
        "roi": percent(lead.roi),
        "roi_mark": roi_mark(lead.roi),
        "profit_label": "Potential Loss" if amount is not None and amount < 0 else "Potential Profit",
        "profit_value": usd(None if amount is None else abs(amount)),
        "confidence_text": f"{confidence}/100",
        "confidence_color": confidence_color(confidence),
        "unlocked_at": format_unlocked_at(unlock.unlocked_at, zone_name),
        "scrape_note": scrape_note(scraped, unlock.unlocked_at, zone_name),
        "credits_paid": f"{unlock.credit_cost:,} credit{'' if unlock.credit_cost == 1 else 's'}",
        "purchase_type": (unlock.purchase_type or "credits").replace("_", " ").capitalize(),
        # How many investors hold the lead, this user included (unlock.rules_holders): a count, never who.
        "held_by": held_text(getattr(lead, "unlock_count", 0), you=True),
        # The cap (unlock.rules_holders): '3 of 5 spots left', 'Sold out', or 'Exclusive' for its only holder.
        "spots": spots_text(getattr(lead, "unlock_count", 0), max_holders, bool(getattr(lead, "exclusive", False)),
                            you=True) if getattr(lead, "scrape_id", None) is None else "",
        "listing_url": links.listing,
        "listing_label": links.listing_label,
        "maps_url": links.maps,
        "web_url": links.web,
        "image_status": IMAGE_STATUS_TEXT.get(lead.images_fetch_status, IMAGE_STATUS_TEXT["no_images"]),
        "image_total": str(len(photos)),
        **_sale(lead, raw, today),
        **_open_since(raw, viewer_today),
        **picture_texts(illustrations, len(photos), lead.address),
    }
    return PropertyView(
        details=details,
        images=images,
        more_count=max(0, len(photos) - GALLERY_SIZE),
        roi_high=lead.roi is not None and lead.roi > ROI_EMPHASIS_ABOVE,
        profit_kind="unknown" if amount is None else ("loss" if amount < 0 else "profit"),
        confidence=confidence,
        archived=archived_from_marketplace(lead.is_active, scraped),
        illustrations=illustrations,
        record=record,
        hints=hints,
    )
