"""The webhook API's contract (SPEC 3, 5, 7, 8, 9): the body model that both
validates requests and documents them (OpenAPI and the markdown docs), the
``Idempotency-Key`` rule, and the API's limits (body size and depth, request
log cap and expiry, refusal counting).

Pure: no database, no I/O. ``features/scrape/api_webhook.py`` reads the bytes, this module
turns them into a ``ScrapeRequest`` or a 400 message.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.web.http_policy import DEFAULT_BODY_LIMIT
from marketplace.platform.leads import SCRAPER_LEAD_TYPES, US_STATES
from marketplace.platform.texts import MISSING_PARAMETERS

# --------------------------------------------------------------------------- the 200 body


class ScrapedLead(BaseModel):
    """A lead as its buyer receives it from a bulk scrape: the results page, the CSV, the stored output and the
    webhook's 200 body are this model (``scrape.service.output_row`` builds it; OpenAPI and the docs show it)."""

    id: str
    address: str | None = Field(description="The street, in reading case")
    city: str | None
    state: str | None
    zip_code: str | None
    lead_type: str | None
    source: str | None = None
    asking_price: int | None = None
    zestimate: int | None = None
    arv: int | None = None
    rehab_estimate: int | None = None
    roi: float | None = None
    beds: int | None = None
    baths: float | None = None
    square_footage: int | None = None
    confidence_score: int | None = None
    is_high_roi: bool = False
    is_new: bool = True
    created_at: str = Field(description="When the scrape delivered it (ISO 8601)")
    provenance: str = Field(description="Where its data comes from: 'Public record: <publisher>, <dataset>', "
                                        "or 'Demo data (generated)'")
    sale_date: str | None = Field(None, description="The next sale or auction date (ISO), if any")


class WebhookResponse(BaseModel):
    """The webhook's 200 body, built by this model (``scrape.service_webhook_answers.scrape_payload``)."""

    bulk_scrape_id: str
    created_time: str
    output: list[ScrapedLead]
    leads_generated: int
    credits_used: int
    message: str | None = Field(None, description="Set when fewer leads than asked matched (you pay for those "
                                                  "delivered).")

    def body(self) -> dict:
        """The JSON body: ``message`` only when it is set."""
        return self.model_dump(exclude={"message"} if self.message is None else None)


# --------------------------------------------------------------------------- limits (docs/operations.md: "The webhook API")

MAX_BODY_BYTES = DEFAULT_BODY_LIMIT   # the largest body (the HTTP middleware's default limit; 413 above it)
MAX_JSON_DEPTH = 32                   # arrays/objects nested deeper are refused with 400 before parsing
MAX_PRICE = 1_000_000_000             # minPrice/maxPrice ceiling (USD)
LOCATION_MAX_LENGTH = 120
# The request log (webhook_requests): only requests that passed the key check, per user.
LOG_SHOWN = 50                        # SPEC 9: the page shows the 50 newest
LOG_KEEP_ROWS = 1_000                 # newest rows kept per user; older ones are pruned on insert
LOG_MAX_AGE_DAYS = 90                 # rows older than this are deleted (on insert and by the daily job)
LOG_BODY_CHARS = 16 * 1024            # characters of a request or response body kept in a log row
# Refused requests (401, 404, 413, 429): counted in memory per (IP, path, status), never one write each.
REFUSAL_FLUSH_SECONDS = 5             # counts are written at most this often, by one flusher
REFUSAL_MAX_KEYS = 10_000             # distinct (IP, path, status) held between flushes; the rest count as one
REFUSAL_KEEP_DAYS = 30                # per-minute buckets older than this are deleted
# Idempotency-Key.
IDEMPOTENCY_TTL_HOURS = 24            # a key replays its first successful answer for this long
IDEMPOTENCY_STALE_MINUTES = 15        # an unfinished claim older than this (a crashed worker) may be taken over
IDEMPOTENCY_KEY_MAX = 255


def size_label(limit: int) -> str:
    """65536 -> '64 KiB'; 1000 -> '1000 bytes'."""
    return f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"


# --------------------------------------------------------------------------- the body

INCLUDE_FLAGS: dict[str, tuple[str, ...]] = {
    "includeDistressed": ("Probate", "Tax Delinquent", "Vacancy"),
    "includePreForeclosure": ("Pre-Foreclosure",),
    "includeForeclosure": ("Pre-Foreclosure", "Auction"),
    "includeAuction": ("Auction",),
    # Bank-owned (REO) is not a lead type: it selects leads whose owner of record is a lender or servicer
    # (``records.rules_owner_flags.is_bank_owned``), of any type; with other flags, their types or bank-owned leads.
    "includeBankOwned": (),
}
BANK_OWNED_FLAG = "includeBankOwned"
BANK_OWNED_DOC = "Bank-owned (REO) leads of any type: the owner of record is a lender or servicer"
EXAMPLE_BODY: dict[str, Any] = {"leadCount": 25, "location": "Austin, TX", "minPrice": 100000, "maxPrice": 450000,
                                "minROI": 10, "includeAuction": True, "includePreForeclosure": True}

NOT_AN_OBJECT = "The request body must be a JSON object."
NOT_JSON = "The request body is not valid JSON."
TOO_DEEP = f"The request body is nested too deeply (at most {MAX_JSON_DEPTH} levels)."
WRONG_CONTENT_TYPE = "Content-Type must be application/json."
BAD_LOCATION = "location must be a city, a state code, or 'city, state' (e.g. 'Austin, TX')."
NO_INCLUDE_FLAG = "At least one include flag must be true (or leave them all out for every lead type)."
# The 400 message for a field whose value is wrong (its type, or out of range).
FIELD_MESSAGES: dict[str, str] = {
    "leadCount": f"leadCount must be a whole number from {scrape_rules.MIN_LEADS} to {scrape_rules.MAX_LEADS:,}.",
    "location": f"location must be a string of at most {LOCATION_MAX_LENGTH} characters.",
    "minPrice": f"minPrice must be a number from 0 to {MAX_PRICE:,}.",
    "maxPrice": f"maxPrice must be a number from 0 to {MAX_PRICE:,}.",
    "minROI": "minROI must be a number from 0 to 100.",
    "maxROI": "maxROI must be a number from 0 to 100.",
    **{flag: f"{flag} must be true or false." for flag in INCLUDE_FLAGS},
}


class WebhookBodyError(ValueError):
    """A 400: ``str(error)`` says what is wrong."""


def _flag(description: str):
    return Field(None, description=description)


class WebhookBody(BaseModel):
    """SPEC 3's webhook body: the validator of every request and the documentation of
    the API (OpenAPI schema and the markdown docs). ``leadCount`` and ``location`` are
    required; unknown fields are ignored. Strict types: numbers are JSON numbers,
    flags are JSON booleans."""

    model_config = ConfigDict(strict=True, allow_inf_nan=False, extra="ignore",
                              json_schema_extra={"examples": [EXAMPLE_BODY]})

    leadCount: int = Field(..., ge=scrape_rules.MIN_LEADS, le=scrape_rules.MAX_LEADS,
                           description="How many leads.", examples=[25])
    location: str = Field(..., max_length=LOCATION_MAX_LENGTH,
                          description="A city (`Austin`: the largest city of that name, Austin, TX), a state code "
                                      "(`TX`) or 'city, state' (`Austin, TX`), which pins it.",
                          examples=["Austin, TX"])
    minPrice: float | None = Field(None, ge=0, le=MAX_PRICE, description="Lowest asking price (USD).",
                                   examples=[100000])
    maxPrice: float | None = Field(None, ge=0, le=MAX_PRICE, description="Highest asking price (USD).",
                                   examples=[450000])
    minROI: float | None = Field(None, ge=0, le=100, description="Lowest estimated ROI (%).", examples=[10])
    maxROI: float | None = Field(None, ge=0, le=100, description="Highest estimated ROI (%).", examples=[60])
    includeDistressed: bool | None = _flag("Probate, Tax Delinquent and Vacancy leads.")
    includePreForeclosure: bool | None = _flag("Pre-Foreclosure leads.")
    includeForeclosure: bool | None = _flag("Pre-Foreclosure and Auction leads.")
    includeAuction: bool | None = _flag("Auction leads.")
    includeBankOwned: bool | None = _flag("Bank-owned (REO) leads: the owner of record is a lender or servicer.")

    @field_validator("leadCount", mode="before")
    @classmethod
    def _whole_float(cls, value: Any) -> Any:
        """25.0 is 25 (some clients send every number as a float); 2.5 stays a float and is refused."""
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return int(value)
        return value

    @field_validator("location")
    @classmethod
    def _present(cls, value: str) -> str:
        if not value.strip():
            raise PydanticCustomError("missing", MISSING_PARAMETERS)
        if not value.isprintable():
            raise ValueError(BAD_LOCATION)
        return value

    @model_validator(mode="after")
    def _consistent(self) -> "WebhookBody":
        parse_location(self.location)
        if self.minPrice is not None and self.maxPrice is not None and self.minPrice > self.maxPrice:
            raise ValueError("minPrice must not be above maxPrice.")
        if self.minROI is not None and self.maxROI is not None and self.minROI > self.maxROI:
            raise ValueError("minROI must not be above maxROI.")
        flags = [getattr(self, flag) for flag in INCLUDE_FLAGS]
        if any(value is not None for value in flags) and not any(flags):
            raise ValueError(NO_INCLUDE_FLAG)
        return self

    def lead_types(self) -> tuple[str, ...]:
        chosen = {t for flag, types in INCLUDE_FLAGS.items() if getattr(self, flag) for t in types}
        return tuple(t for t in SCRAPER_LEAD_TYPES if t in chosen)

    def to_request(self) -> scrape_rules.ScrapeRequest:
        cities, states = parse_location(self.location)
        price = (int(self.minPrice or 0), int(self.maxPrice if self.maxPrice is not None else MAX_PRICE))
        roi = (int(self.minROI or 0), int(self.maxROI if self.maxROI is not None else 100))
        return scrape_rules.ScrapeRequest(lead_count=self.leadCount, cities=cities, states=states,
                                   lead_types=self.lead_types(), price=price, roi=roi, min_confidence=0,
                                   size=(0, 1_000_000), bank_owned=bool(self.includeBankOwned))

    def fingerprint(self, endpoint: str) -> str:
        """SHA-256 of the endpoint and the body as validated (field order, number spelling and
        unknown fields do not matter): what an ``Idempotency-Key`` is bound to."""
        return hashlib.sha256(f"{endpoint}\n{self.model_dump_json()}".encode()).hexdigest()


def parse_location(location: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """'Austin, TX' -> (('Austin, TX',), ()); 'TX' -> ((), ('TX',)); 'Austin' -> (('Austin',), ())."""
    text = " ".join(location.split())
    if len(text) == 2 and text.upper() in US_STATES:
        return (), (text.upper(),)
    if "," in text:
        city, _, state = (part.strip() for part in text.rpartition(","))
        if not city or state.upper() not in US_STATES:
            raise ValueError(BAD_LOCATION)
        return (f"{city}, {state.upper()}",), ()
    return (text,), ()


def _message(error: ValidationError) -> str:
    """The one 400 message for a failed validation, in SPEC 8's words where it has them."""
    errors = error.errors(include_url=False)
    if any(e["type"] == "missing" and e["loc"] and e["loc"][0] in ("leadCount", "location") for e in errors):
        return MISSING_PARAMETERS
    first = errors[0]
    if first["type"] == "value_error":  # a rule of ours (a field's, or one across fields)
        return str(first["ctx"]["error"])
    if not first["loc"]:
        return NOT_AN_OBJECT
    return FIELD_MESSAGES.get(str(first["loc"][0]), NOT_AN_OBJECT)


def validate_body(body: Any) -> WebhookBody:
    """The validated body, or ``WebhookBodyError`` with the 400 message."""
    if not isinstance(body, dict):
        raise WebhookBodyError(NOT_AN_OBJECT)
    try:
        return WebhookBody.model_validate(body)
    except ValidationError as exc:
        raise WebhookBodyError(_message(exc)) from None


# --------------------------------------------------------------------------- raw bytes


def nesting_depth(raw: bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """How deep ``[`` and ``{`` nest in ``raw`` (outside strings), counting no further than ``limit + 1``:
    a linear scan, so a body nested 20,000 deep never reaches the recursive parser."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def decode_json(raw: bytes, content_type: str | None) -> Any:
    """The decoded body of a request, or ``WebhookBodyError`` (wrong content type, too deep, not JSON)."""
    if (content_type or "").split(";", 1)[0].strip().lower() != "application/json":
        raise WebhookBodyError(WRONG_CONTENT_TYPE)
    if nesting_depth(raw) > MAX_JSON_DEPTH:
        raise WebhookBodyError(TOO_DEEP)
    try:
        return json.loads(raw or b"null", parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise WebhookBodyError(NOT_JSON) from None


def _no_constants(name: str) -> Any:
    """NaN and Infinity are not JSON (Python's parser accepts them; PostgreSQL's JSON does not)."""
    raise ValueError(f"{name} is not JSON")


# --------------------------------------------------------------------------- Idempotency-Key

IDEMPOTENCY_KEY_INVALID = (f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} printable ASCII characters "
                           "(no spaces at either end).")
IDEMPOTENCY_KEY_REUSED = ("This Idempotency-Key was already used with a different body. Use a new key for a "
                          "new request.")
IDEMPOTENCY_KEY_BUSY = ("A request with this Idempotency-Key is still running. Retry once it has answered "
                        "to get its result.")


def valid_idempotency_key(key: str) -> bool:
    """1-255 printable ASCII characters (space allowed inside, not at either end)."""
    return (0 < len(key) <= IDEMPOTENCY_KEY_MAX and key == key.strip()
            and all(0x20 <= ord(ch) < 0x7F for ch in key))
