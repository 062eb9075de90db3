"""The webhook API's documentation (markdown), built from the rules it describes,
so the numbers in it (limits, costs, tiers, flag mapping) are never out of date."""

from __future__ import annotations

from marketplace.core import scrape as rules
from marketplace.messages import MISSING_PARAMETERS


def example_body() -> dict:
    return {"leadCount": 25, "location": "Austin, TX", "minPrice": 100000, "maxPrice": 450000, "minROI": 10,
            "includeAuction": True, "includePreForeclosure": True}


def curl_example(base_url: str, user_id: str, key: str = "YOUR_WEBHOOK_AUTH_KEY",
                 endpoint: str = "webhook-bulk-scrape") -> str:
    """The example request; ``endpoint`` 'webhook-bulk-scrape-sp' for the super-admin variant."""
    return (
        f"curl -X POST '{base_url}/functions/v1/{endpoint}/{user_id}' \\\n"
        "  -H 'Content-Type: application/json' \\\n"
        f"  -H 'x-webhook-auth: {key}' \\\n"
        "  -d '{\"leadCount\": 25, \"location\": \"Austin, TX\", \"minPrice\": 100000, \"maxPrice\": 450000, "
        "\"minROI\": 10, \"includeAuction\": true, \"includePreForeclosure\": true}'"
    )


def webhook_markdown(user_id: str, base_url: str = "https://YOUR-LEADVAULT-SITE") -> str:
    tiers = "\n".join(
        f"| {rules.tier_label(i)} | {pct}% |" for i, (_, pct) in enumerate(rules.DISCOUNT_TIERS)
    )
    flags = "\n".join(f"| `{flag}` | {', '.join(types)} |" for flag, types in rules.INCLUDE_FLAGS.items())
    return f"""# LeadVault Webhook API

Run the bulk scraper from your own tools. Every call is charged like a scrape on
the Bulk Scraper page and appears in your request log there.

## Endpoint

```
POST {base_url}/functions/v1/webhook-bulk-scrape/{user_id}
Content-Type: application/json
x-webhook-auth: YOUR_WEBHOOK_AUTH_KEY
```

Your auth key is created on the Bulk Scraper page (Webhook section). It is shown once, when it is generated;
we store only a hash of it. Generating a new key stops the old one at once.

## Body

| field | type | required | meaning |
|---|---|---|---|
| `leadCount` | whole number | yes | how many leads, {rules.MIN_LEADS}-{rules.MAX_LEADS:,} |
| `location` | string | yes | a city (`Austin`), a state code (`TX`) or `"city, state"` (`Austin, TX`) |
| `minPrice`, `maxPrice` | number | no | asking price range in USD (at least 0) |
| `minROI`, `maxROI` | number | no | estimated ROI range in percent (0-100) |
| `includeDistressed`, `includePreForeclosure`, `includeForeclosure`, `includeAuction`, `includeBankOwned` | boolean | no | lead types (below); leave them all out for every type |

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
{{
  "bulk_scrape_id": "0d6c...",
  "created_time": "2026-11-23T16:00:00+00:00",
  "output": [{{"id": "...", "address": "1234 Oak St", "city": "Austin", "state": "TX", "zip_code": "78701",
              "lead_type": "Auction", "asking_price": 250000, "zestimate": 320000, "arv": 360000,
              "rehab_estimate": 40000, "roi": 24.1, "beds": 3, "baths": 2.0, "square_footage": 1800,
              "confidence_score": 91, "created_at": "2026-11-23T16:00:00+00:00"}}],
  "leads_generated": 25,
  "credits_used": 2250
}}
```

When fewer leads than asked match, you get (and pay for) those found, and `message` says so.
Properties you already hold are never returned or charged again.

## Cost

Lead count x {rules.CREDITS_PER_LEAD} credits, minus a volume discount:

| leads | discount |
|---|---|
{tiers}

## Errors

Errors are JSON: `{{"error": "message"}}`. Nothing is charged on any error.

| status | when |
|---|---|
| 400 | missing or invalid parameters, e.g. `{MISSING_PARAMETERS}`; malformed JSON; wrong content type |
| 401 | missing or wrong `x-webhook-auth` key |
| 402 | not enough credits for the scrape |
| 404 | user not found |
| 413 | body over 64 KiB |
| 429 | more than 5 requests per second from one IP address |
| 500 | internal server error (try again later) |

The machine-readable description (OpenAPI) is at `{base_url}/api/openapi.json`; interactive docs at
`{base_url}/api/docs`.
"""
