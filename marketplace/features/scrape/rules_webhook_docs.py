"""The webhook API's documentation (markdown), built from the rules it describes,
so the numbers in it (limits, costs, tiers, flag mapping) are never out of date."""

from __future__ import annotations

import json

from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.scrape import rules_webhook as contract
from marketplace.platform.texts import MISSING_PARAMETERS, SOURCE_UNAVAILABLE

# The 200 body's example, built by the model that builds every 200 body (``rules_webhook.WebhookResponse``):
# the docs list exactly the fields a body has.
EXAMPLE_BODY = json.dumps(contract.WebhookResponse(
    bulk_scrape_id="0d6c...", created_time="2026-11-23T16:00:00+00:00", leads_generated=25, credits_used=2250,
    output=[contract.ScrapedLead(
        id="...", address="1234 Oak St", city="Chicago", state="IL", zip_code="60624", lead_type="Vacancy",
        source="Vacant and Abandoned Buildings - Violations", asking_price=250000, zestimate=None, arv=360000, rehab_estimate=40000, roi=24.1,
        beds=3, baths=2.0, square_footage=1800, confidence_score=91, is_high_roi=True, is_new=True,
        created_at="2026-11-23T16:00:00+00:00",
        provenance="Public record: City of Chicago, Vacant and Abandoned Buildings - Violations", sale_date=None)],
).body(), indent=2)

_TYPES = {"integer": "whole number", "number": "number", "string": "string", "boolean": "boolean"}


def _body_rows() -> str:
    """The body table, from the model that validates requests (``scrape.rules_webhook.WebhookBody``)."""
    schema = contract.WebhookBody.model_json_schema()
    required = set(schema.get("required", ()))
    rows = []
    for name, prop in schema["properties"].items():
        typed = next((p for p in prop.get("anyOf", ()) if p.get("type") != "null"), prop)
        kind = typed.get("type", "")
        bounds = "" if "minimum" not in typed else f"{typed['minimum']:,}-{typed['maximum']:,}"
        if "maxLength" in typed:
            bounds = f"at most {typed['maxLength']} characters"
        rows.append(f"| `{name}` | {_TYPES.get(kind, kind)} | {'yes' if name in required else 'no'} | {bounds} | "
                    f"{prop.get('description', '')} |")
    return "\n".join(rows)


def curl_example(base_url: str, user_id: str, key: str = "YOUR_WEBHOOK_AUTH_KEY",
                 endpoint: str = "webhook-bulk-scrape") -> str:
    """The example request; ``endpoint`` 'webhook-bulk-scrape-sp' for the super-admin variant."""
    return (
        f"curl -X POST '{base_url}/functions/v1/{endpoint}/{user_id}' \\\n"
        "  -H 'Content-Type: application/json' \\\n"
        f"  -H 'x-webhook-auth: {key}' \\\n"
        f"  -d '{json.dumps(contract.EXAMPLE_BODY)}'"
    )


def webhook_markdown(user_id: str, base_url: str = "https://YOUR-LEADVAULT-SITE") -> str:
    tiers = "\n".join(
        f"| {scrape_rules.tier_label(i)} | {pct}% |" for i, (_, pct) in enumerate(scrape_rules.DISCOUNT_TIERS)
    )
    flags = "\n".join(f"| `{flag}` | {', '.join(types) or contract.BANK_OWNED_DOC} |"
                      for flag, types in contract.INCLUDE_FLAGS.items())
    return f"""# LeadVault Webhook API

Run the bulk scraper from your own tools. Every call is charged like a scrape on
the Bulk Scraper page; every call made with your key appears in your request log there.

## Endpoint

```
POST {base_url}/functions/v1/webhook-bulk-scrape/{user_id}
Content-Type: application/json
x-webhook-auth: YOUR_WEBHOOK_AUTH_KEY
Idempotency-Key: ANY-ID-FOR-THIS-REQUEST      (optional, see Retries below)
```

Your auth key is created on the Bulk Scraper page (Webhook section). It is shown once, when it is generated;
we store only a hash of it. Generating a new key stops the old one at once.

## Body

| field | type | required | range | meaning |
|---|---|---|---|---|
{_body_rows()}

Leave the include flags out for every lead type. Numbers are JSON numbers and flags JSON booleans
(`"5"` or `"true"` are refused); unknown fields are ignored.

How the include flags map onto lead types:

| flag | lead types |
|---|---|
{flags}

Example:

```bash
{curl_example(base_url, user_id)}
```

## Response (200)

```json
{EXAMPLE_BODY}
```

Every lead's `provenance` says where its data comes from: `Public record: <publisher>, <dataset>`, or
`Demo data (generated)` on a demo install (never sold in production). When fewer leads than asked match, you get
(and pay for) those found, and `message` says so ("Only 12 of 25 matched your criteria; ..."); no lead is made up
to fill the count.
Properties you already hold are never returned or charged again.

## Cost

Lead count x {scrape_rules.CREDITS_PER_LEAD} credits, minus a volume discount:

| leads | discount |
|---|---|
{tiers}

## Retries: Idempotency-Key

Send a header `Idempotency-Key: <your id for this request>` (1-{contract.IDEMPOTENCY_KEY_MAX} printable ASCII
characters, e.g. a UUID) to retry safely after a timeout or a dropped connection. The same key with the same
body within {contract.IDEMPOTENCY_TTL_HOURS} hours returns the first successful answer again (status 200, the
same `bulk_scrape_id` and leads, header `Idempotent-Replayed: true`) and charges nothing. While the first
request is still running, the same key gets 409; the same key with a different body (or on the other endpoint) gets 422. When a request
fails (400, 402, 503, 500), nothing was charged and the key is free again for a retry.

## Errors

Errors are JSON: `{{"error": "message"}}`. Nothing is charged on any error.

| status | when |
|---|---|
| 400 | missing or invalid parameters, e.g. `{MISSING_PARAMETERS}`; malformed JSON or JSON nested deeper than {contract.MAX_JSON_DEPTH} levels; wrong content type; an invalid `Idempotency-Key` |
| 401 | missing or wrong `x-webhook-auth` key |
| 402 | not enough credits for the scrape |
| 403 | `-sp` endpoint: the key's owner is not a super admin |
| 404 | user not found |
| 409 | a request with this `Idempotency-Key` is still running |
| 413 | body over {contract.size_label(contract.MAX_BODY_BYTES)} |
| 422 | this `Idempotency-Key` was used with a different body |
| 429 | more than 5 requests per second from one IP address |
| 500 | internal server error (try again later) |
| 503 | the lead source is unavailable: `{SOURCE_UNAVAILABLE}` |

## Request log

The Bulk Scraper page shows your {contract.LOG_SHOWN} newest requests. We keep the newest
{contract.LOG_KEEP_ROWS:,} requests per user for {contract.LOG_MAX_AGE_DAYS} days (bodies cut at
{contract.LOG_BODY_CHARS // 1024} KiB). Requests refused before the key check (401, 404, 413, 429) are not in your
log: they are counted per IP address without their bodies.

The machine-readable description (OpenAPI) is at `{base_url}/api/openapi.json`; interactive docs at
`{base_url}/api/docs`.
"""
