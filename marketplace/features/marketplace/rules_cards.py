"""A marketplace lead card's display values (SPEC 2): what the browser sees of
one lead of the grid, already formatted, and the View Images dialog's content.

Pure: no database, no Reflex. ``card_data`` turns a page row (the service's
``LeadCard`` or a sample lead) into display strings and flags; ``with_action``
adds the card's button, which depends on who looks (signed in, credits,
subscription); ``gallery_view`` is the one page-wide View Images dialog's
content for a card. Pictures from a listing source are photos; a generated
(demo) lead has none: its one drawing is shown labelled as an illustration
(``ILLUSTRATION_NOTE``), its button says "View Illustration", and it is never
counted among the lead's images ("View Images (N)" counts photos only).
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import Any

from marketplace.platform import routes
from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.records import rules_open_since as open_since
from marketplace.features.records import listed_line
from marketplace.features.unlock import held_text, spots_left, spots_text
from marketplace.platform.web.image_hosts import card_picture, split_pictures
from marketplace.features.unlock import quote_exclusive, quote_unlock
from marketplace.platform.texts import (
    BANK_OWNED_LABEL,
    CARD_LOGIN,
    ILLUSTRATION_NOTE,
    IMAGE_STATUS_TEXT,
    MAILING_UNKNOWN_LABEL,
    PICTURE_NOUN,
    VIEW_ILLUSTRATION,
)

MAX_CARD_IMAGES = 4  # SPEC 2: the primary picture plus up to 3 more
CHIP_SEPARATOR = "|"  # between a card's chip labels (no label has one)

REQUIRED = dataclasses.MISSING  # a CARD_FIELDS default: the field has none

# The one definition of a page row of the grid (the service's ``LeadCard``, made from it; its columns and the
# reader of a database row follow its names): (name, type, default), the address already masked if locked.
CARD_FIELDS: tuple[tuple[str, Any, Any], ...] = (
    ("id", str, REQUIRED),
    ("address", str, REQUIRED),
    ("unlocked", bool, REQUIRED),
    ("city", str, REQUIRED),
    ("state", str, REQUIRED),
    ("zip_code", str, REQUIRED),
    ("lead_type", str, REQUIRED),
    ("asking_price", int | None, REQUIRED),
    ("zestimate", int | None, REQUIRED),
    ("arv", int | None, REQUIRED),
    ("rehab_estimate", int | None, REQUIRED),
    ("roi", float | None, REQUIRED),
    ("beds", int | None, REQUIRED),
    ("baths", float | None, REQUIRED),
    ("square_footage", int | None, REQUIRED),
    ("confidence", int, REQUIRED),
    ("credit_cost", int, REQUIRED),
    ("is_new", bool, REQUIRED),
    ("is_high_roi", bool, REQUIRED),
    ("images", list[str], REQUIRED),
    ("image_status", str, "no_images"),  # leads.images_fetch_status: why a lead has no pictures
    ("provenance", str, ""),  # marketplace.rules_leads.provenance_line: 'Demo data (generated)'
    # Public-record leads: open signals' labels (record_views.chip_labels), the owner flags
    # and the motivation score; every viewer sees these (no owner name or address).
    ("signals", tuple[str, ...], ()),
    # Owner flags: True, False or None (unknown: no mailing address / owner name on record).
    ("absentee_owner", bool | None, None),
    ("out_of_state_owner", bool | None, None),
    ("bank_owned", bool | None, None),
    ("public_record", bool, False),
    ("motivation_score", int | None, None),
    # The sale date as every viewer may see it (record_views' privacy note): the tag and the day count,
    # never the calendar date on a card.
    ("auction_soon", bool, False),
    ("sale_in", str, ""),  # 'Sale in 17 days' (marketplace.rules_sale_dates.sale_in_text); '' without a date ahead
    # How many investors hold the lead (leads.unlock_count, unlock.rules_holders): a count, never who.
    ("unlock_count", int, 0),
    # The cap (LEAD_MAX_HOLDERS, unlock.rules_holders): an exclusive holder fills the lead; the cap the page was read
    # under (0 = no cap), so the card says '3 of 5 spots left' / 'Sold out' / 'Exclusive'.
    ("exclusive", bool, False),
    ("max_holders", int, 0),
    # The headline (marketplace.rules_headline): the ROI rests on the comps ARV ('comps') or the estimate.
    ("comps_arv", int | None, None),
    ("comps_count", int, 0),
    ("roi_basis", str, ""),
    # The county roll's values and basis, or why there are none (records.rules_roll_facts.card_facts_line); the
    # last recorded sale, unlocked cards only (``shown_last_sale``).
    ("roll_line", str, ""),
    ("roll_use", str, ""),  # 'Single family, built 1925' (records.rules_roll_facts.card_use_line)
    ("last_sale", str, ""),
    # The status item open longest (records.rules_open_since, from raw_data: no join): its kind and own date. Read
    # on the server only: ``card_data`` turns it into the line a viewer may see (the year alone on a locked card),
    # counted from the viewer's today.
    ("open_since_kind", str, ""),
    ("open_since", date | None, None),
    # The proving record's list (or event) day and first sighting (records.rules_freshness, from raw_data "listed")
    ("listed_place", str, ""),
    ("listed_status", bool, False),
    ("listed_day", date | None, None),
    ("listed_seen", datetime | None, None),
)
CARD_FIELD_NAMES = tuple(name for name, _kind, _default in CARD_FIELDS)


def card_dataclass(name: str, module: str, doc: str) -> type:
    """A frozen dataclass whose fields are ``CARD_FIELDS``, in their order (the service's ``LeadCard``)."""
    made = dataclasses.make_dataclass(
        name, [(field_name, kind) if default is REQUIRED else (field_name, kind, dataclasses.field(default=default))
               for field_name, kind, default in CARD_FIELDS], frozen=True)
    made.__module__, made.__doc__ = module, doc
    return made


def shown_last_sale(last_sale: str | None, unlocked: bool) -> str:
    """The card's last recorded sale: shown on a card its viewer unlocked only, '' on every other."""
    return (last_sale or "") if unlocked else ""


@dataclasses.dataclass
class CardView:
    """One lead card as the browser sees it: display strings and flags only."""

    id: str = ""
    address: str = ""
    city_line: str = ""
    lead_type: str = ""
    beds: str = ""
    baths: str = ""
    sqft: str = ""
    roi: str = ""
    roi_tone: str = "unknown"  # positive | negative | unknown
    asking: str = ""
    market: str = ""
    arv: str = ""
    rehab: str = ""
    confidence: int = 0
    confidence_label: str = ""  # the bar's accessible name
    credit_cost: int = 0
    is_new: bool = False
    is_high_roi: bool = False
    is_sample: bool = False
    unlocked: bool = False
    primary_image: str = ""
    primary_srcset: str = ""  # the JPEGs of an app's own drawing (marketplace.rules_images.card_picture)
    has_picture: bool = False  # a photo or the illustration to show
    image_count: int = 0  # photos only: an illustration is not an image of the property
    picture_note: str = ""  # 'Illustration, not a photo of this property' over an illustration
    provenance: str = ""  # 'Demo data (generated)' (marketplace.rules_leads.provenance_line)
    # Public-record leads, shown locked or not: one chip per open signal kind, the owner
    # flags as chips ('Tax delinquent|Vacant': strings, so the memoised card compares them by value),
    # 'Motivation 72/100'; without an asking price the ROI is against the market value.
    signals: str = ""
    owner_flags: str = ""
    # The county roll (records.rules_roll_facts): 'Market value $82,000 · <publisher>, tax year 2022' or 'No property
    # facts: Baltimore City's assessor roll is not configured'; the last recorded sale, unlocked cards only
    # (its date and price find the parcel in the county's sales list).
    roll_line: str = ""
    roll_use: str = ""  # 'Single family, built 1925'
    last_sale: str = ""
    motivation: str = ""
    roi_label: str = "Est. ROI"
    # Which ARV the ROI rests on (marketplace.rules_headline): 'Comps ARV' / 'Est. ARV' beside the ARV shown, and the
    # line under the ROI ('ARV from 5 comparable sales (default selection)', or the disagreement).
    arv_term: str = "Est. ARV"
    arv_note: str = ""
    # The sale or auction date as a card may show it (records.service_views' privacy note): the
    # "Auction Soon" tag (marketplace.rules_sale_dates) and 'Sale in 17 days', never the calendar date.
    auction_soon: bool = False
    sale_in: str = ""
    # How long its longest-open status item has been open (records.rules_open_since): 'Vacant since Mar 4, 2009
    # (17 years)' unlocked, 'Vacant since 2009 (17 years)' locked; '' without a dated status item.
    open_since: str = ""
    # How fresh a public-record lead is (records.rules_freshness): 'Baltimore City open list of Nov 27, 2026 · first
    # seen Nov 27, 2026'; '' for other leads.
    listed: str = ""
    # How many investors hold the lead, never who (unlock.rules_holders): 'Unlocked by 2 investors',
    # 'Nobody has unlocked this yet'; '' on a sample card.
    held_by: str = ""
    # The cap (LEAD_MAX_HOLDERS, unlock.rules_holders): '3 of 5 spots left', 'Sold out', 'Exclusive' ('' without a cap
    # or on a sample card); the spots left (-1: no cap) the card's action and its exclusive offer read.
    spots: str = ""
    spots_left: int = -1
    image_alt: str = ""
    # Under the placeholder: why there is no picture (or, once a picture fails, that it failed).
    image_status: str = ""
    images_label: str = ""  # 'View Images (4)' / 'View Illustration' / 'No Images'
    images_aria: str = ""
    action_kind: str = "login"  # login | view | insufficient | unlock | subscription | sample | sold_out
    action_label: str = ""
    action_href: str = ""
    # 'Unlock exclusively for 600 credits' beside the action (unlock.rules.quote_exclusive); '' when not offered.
    exclusive_label: str = ""


# CardView's fields that its button fills (``with_action``), and what ``card_data`` keeps besides for the View Images
# dialog (``gallery_view``), never sent as a card: ``card_data``'s keys are CARD_DATA_FIELDS.
ACTION_FIELDS = ("action_kind", "action_label", "action_href", "exclusive_label")
GALLERY_FIELDS = ("images", "illustration")
CARD_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(CardView))
CARD_DATA_FIELDS = tuple(name for name in CARD_VIEW_FIELDS if name not in ACTION_FIELDS) + GALLERY_FIELDS
# The view's fields that are the card's own field of the same name, shown as they are: text ('' when missing) and flags.
SHOWN_TEXTS = ("id", "address", "lead_type", "provenance", "roll_line", "roll_use", "sale_in")
SHOWN_FLAGS = ("is_new", "is_high_roi", "unlocked", "auction_soon")
assert set(ACTION_FIELDS) <= set(CARD_VIEW_FIELDS) and not set(GALLERY_FIELDS) & set(CARD_VIEW_FIELDS)
assert set(SHOWN_TEXTS + SHOWN_FLAGS) <= set(CARD_VIEW_FIELDS) & set(CARD_FIELD_NAMES)


def owner_flags(absentee: bool | None, out_of_state: bool | None, bank_owned: bool | None = None,
                public_record: bool = False) -> list[str]:
    """The owner flags' chips: shown before the unlock, the owner's name and address never. The flags are
    three-valued (``records.rules_owner_flags``): a public-record lead whose record has no mailing address says
    'Owner mailing address unknown', never that the owner is local."""
    chips = [label for flag, label in ((bank_owned, BANK_OWNED_LABEL), (absentee, "Absentee owner"),
                                       (out_of_state, "Out-of-state owner")) if flag is True]
    if public_record and absentee is None and out_of_state is None:
        chips.append(MAILING_UNKNOWN_LABEL)
    return chips


def motivation_text(score: int | None) -> str:
    """'Motivation 72/100'; '' for a lead without a score (demo and listing leads)."""
    return "" if score is None else f"Motivation {int(score)}/100"


def roi_label(asking_price: int | None, roi: float | None, basis: str | None = None) -> str:
    """The ARV the ROI rests on ('ROI vs comps ARV' / 'ROI vs estimated ARV'); a public record has no asking
    price: its ROI is against the market value and says so (marketplace.rules_headline.roi_label)."""
    return headline.roi_label(basis, asking_price, roi)


def number_text(value: int | float | None) -> str:
    """'1,450', '3' (never '3.0'), '2.5'; 'N/A' when missing: every count a lead shows (beds, baths, sqft)."""
    if value is None:
        return "N/A"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}"
    return f"{int(value):,}"


# A missing count names what is missing in words ('baths N/A'), never a bare unit ('N/A ba').
MISSING_NAMES = {"bd": "beds", "ba": "baths", "sqft": "sqft"}


def count_text(value: int | float | None, unit: str) -> str:
    """'1,450 sqft', '2.5 ba', '3 ba' (never '3.0 ba'); 'baths N/A', 'beds N/A', 'sqft N/A' when missing
    (SPEC 5: a missing value shows N/A)."""
    if value is None:
        return f"{MISSING_NAMES.get(unit, unit)} N/A"
    return f"{number_text(value)} {unit}"


def beds_baths_text(beds: int | float | None, baths: int | float | None) -> str:
    """'3 bd / 2.5 ba' (bulk results): the card's own counts."""
    return f"{count_text(beds, 'bd')} / {count_text(baths, 'ba')}"


def card_pictures(images: list[str]) -> tuple[list[str], bool]:
    """(pictures shown, is an illustration): up to 4 photos, else the one illustration."""
    photos, drawing = split_pictures(images)
    if photos:
        return photos[:MAX_CARD_IMAGES], False
    return ([drawing] if drawing else []), bool(drawing)


def open_since_text(kind: str | None, since: date | None, today: date | None, unlocked: bool) -> str:
    """The card's 'Vacant since ...' line (``records.rules_open_since.since_line``): the exact day for a viewer who
    unlocked the lead, the year for everyone else; '' without a date or a viewer's today."""
    if not kind or since is None or today is None:
        return ""
    return open_since.since_line(kind, since, today, exact=unlocked)


def card_data(lead: Any, is_sample: bool = False, today: date | None = None) -> dict:
    """Display data of one card (no action yet: that depends on who looks).

    ``lead`` is the service's ``LeadCard`` (a dataclass) or a sample lead dict. ``today``: the viewer's
    calendar day (``platform.times.today_in``), which the 'Vacant since' line counts from (none without it).
    The card keeps its pictures (up to 4) for the View Images dialog, which is
    built from them when opened (``gallery_view``)."""
    data = dataclasses.asdict(lead) if dataclasses.is_dataclass(lead) else dict(lead)
    roi = data["roi"]
    basis = data.get("roi_basis") or ""
    shown_arv = headline.arv_used(data["arv"], data.get("comps_arv"), basis)
    images, drawn = card_pictures(list(data["images"]))
    photos = 0 if drawn else len(images)
    status = data.get("image_status") or "no_images"
    confidence = int(data["confidence"])
    src, srcset = card_picture(images[0]) if images else ("", "")
    return {
        **{name: data.get(name) or "" for name in SHOWN_TEXTS},
        **{name: bool(data.get(name)) for name in SHOWN_FLAGS},
        "city_line": f"{data['city']}, {data['state']} {data['zip_code']}".strip(),
        "beds": count_text(data["beds"], "bd"),
        "baths": count_text(data["baths"], "ba"),
        "sqft": count_text(data["square_footage"], "sqft"),
        "roi": marketplace_rules.percent(roi),
        "roi_tone": "unknown" if roi is None else ("positive" if roi > 0 else "negative"),
        "asking": marketplace_rules.usd(data["asking_price"]),
        "market": marketplace_rules.usd(data["zestimate"]),
        "arv": marketplace_rules.usd(shown_arv),
        "rehab": marketplace_rules.usd(data["rehab_estimate"]),
        "confidence": confidence,
        "confidence_label": f"Confidence {confidence} out of 100",
        "credit_cost": int(data["credit_cost"]),
        "is_sample": is_sample,
        "images": images,
        "illustration": drawn,
        "primary_image": src,
        "primary_srcset": srcset,
        "has_picture": bool(images),
        "image_count": photos,
        "picture_note": ILLUSTRATION_NOTE if drawn else "",
        "signals": CHIP_SEPARATOR.join(data.get("signals") or ()),
        "last_sale": shown_last_sale(data.get("last_sale"), bool(data["unlocked"])),
        "owner_flags": CHIP_SEPARATOR.join(owner_flags(data.get("absentee_owner"), data.get("out_of_state_owner"),
                                                       data.get("bank_owned"), bool(data.get("public_record")))),
        "motivation": motivation_text(data.get("motivation_score")),
        "roi_label": roi_label(data["asking_price"], roi, basis),
        "arv_term": headline.arv_term(basis),
        "arv_note": headline.card_note(basis, data.get("comps_arv"), data.get("comps_count"), data["arv"]),
        "open_since": "" if is_sample else open_since_text(data.get("open_since_kind"), data.get("open_since"),
                                                           today, bool(data["unlocked"])),
        "listed": "" if is_sample else listed_line(data.get("listed_place") or "", bool(data.get("listed_status")),
                                                   data.get("listed_day"), data.get("listed_seen")),
        "held_by": "" if is_sample else held_text(data.get("unlock_count"), you=bool(data["unlocked"])),
        **_spots(data, is_sample),
        "image_alt": (ILLUSTRATION_NOTE if drawn else f"Photo of {data['address']}") if images else "",
        "image_status": IMAGE_STATUS_TEXT["failed"] if images else IMAGE_STATUS_TEXT.get(
            status, IMAGE_STATUS_TEXT["no_images"]),
        "images_label": _images_label(photos, drawn),
        # The button's name starts with its visible text (axe: label-content-name-mismatch).
        "images_aria": f"{_images_label(photos, drawn)}, {data['address']}" if images else "No Images",
    }


def _spots(data: dict, is_sample: bool) -> dict:
    """The card's cap line and its spots left (-1: no cap; a sample card has none)."""
    cap, exclusive = int(data.get("max_holders") or 0), bool(data.get("exclusive"))
    left = None if is_sample else spots_left(data.get("unlock_count"), cap, exclusive)
    return {"spots": "" if left is None else spots_text(data.get("unlock_count"), cap, exclusive, bool(data["unlocked"])),
            "spots_left": -1 if left is None else left}


def _images_label(photos: int, drawn: bool) -> str:
    if photos:
        return f"View Images ({photos})"
    return VIEW_ILLUSTRATION if drawn else "No Images"


def with_action(card: dict, signed_in: bool, credits: int, subscribed: bool = False,
                subscription_leads: int = 0) -> CardView:
    """The card with its button: ``unlock.rules.quote_unlock``'s kind, label and link
    for the user who looks (signed in, credits, subscription)."""
    if card["is_sample"]:
        # Samples cannot be unlocked: visitors are invited to sign in like on any
        # card, signed-in users see a disabled "Sample lead" button.
        kind, label, href = ("login", CARD_LOGIN, routes.AUTH) if not signed_in else ("sample", "Sample lead", "")
    else:
        left = card_spots_left(card)
        quote = quote_unlock(signed_in=signed_in, unlocked=card["unlocked"], credit_cost=card["credit_cost"],
                             balance=credits, subscribed=subscribed, subscription_leads=subscription_leads,
                             lead_id=card["id"], spots_left=left)
        kind, label, href = quote.kind, quote.label, quote.href
        exclusive = quote_exclusive(signed_in=signed_in, unlocked=card["unlocked"], credit_cost=card["credit_cost"],
                                    balance=credits, spots_left=left).label
    shown = {name: value for name, value in card.items() if name not in GALLERY_FIELDS}
    return CardView(**shown, action_kind=kind, action_label=label, action_href=href,
                    exclusive_label="" if card["is_sample"] else exclusive)


def card_spots_left(card: dict) -> int | None:
    """A ``card_data`` dict's spots left; None without a cap."""
    left = card.get("spots_left", -1)
    return None if left is None or left < 0 else left


@dataclasses.dataclass
class GalleryPicture:
    src: str = ""
    alt: str = ""
    index: int = 0  # its place among the card's pictures (a thumbnail's click shows it large)


@dataclasses.dataclass
class GalleryView:
    """The View Images dialog of one card: the primary picture plus up to 3 more."""

    id: str = ""
    title: str = ""
    description: str = ""  # 'Austin, TX 78756 · 4 photos' / '... · Illustration, not a photo of this property'
    primary: GalleryPicture = dataclasses.field(default_factory=GalleryPicture)
    more: list[GalleryPicture] = dataclasses.field(default_factory=list)


def gallery_view(card: dict | None, large: int = 0) -> GalleryView:
    """The dialog's content for ``card`` (a ``card_data`` dict); empty without pictures.

    ``large`` is the picture shown large (a clicked thumbnail; the first one by
    default); the others are the thumbnails, in their order."""
    if not card or not card["images"]:
        return GalleryView()
    images = card["images"]
    if card.get("illustration"):
        drawing = GalleryPicture(images[0], ILLUSTRATION_NOTE)
        return GalleryView(id=card["id"], title=card["address"], description=f"{card['city_line']} · {ILLUSTRATION_NOTE}",
                           primary=drawing)
    picture, pictures = PICTURE_NOUN[False]
    noun = picture if len(images) == 1 else pictures
    shown = [GalleryPicture(src, f"{picture.capitalize()} {n} of {card['address']}", n - 1)
             for n, src in enumerate(images, start=1)]
    large = large if 0 <= large < len(shown) else 0
    return GalleryView(id=card["id"], title=card["address"],
                       description=f"{card['city_line']} · {len(images)} {noun}",
                       primary=shown[large], more=shown[:large] + shown[large + 1:])
