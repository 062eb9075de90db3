"""The webhook's 200 body is built by the model that documents it (issue 39, item 4): the body, the stored
output rows and the docs' example carry exactly the model's fields."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

from marketplace.features.scrape import rules_webhook as contract
from marketplace.features.scrape import service_webhook_answers as answers
from marketplace.features.scrape.rules_webhook_docs import webhook_markdown
from marketplace.features.scrape.service import ScrapeResult, output_row

LEAD_FIELDS = list(contract.ScrapedLead.model_fields)
NOW = datetime(2026, 11, 28, 16, 0, tzinfo=timezone.utc)


def _lead() -> dict:
    return {"address": "466 ROUNDVIEW ROAD", "city": "CHICAGO", "state": "IL", "zip_code": "60624",
            "lead_type": "Vacancy", "source": "Vacant and Abandoned Buildings - Violations", "asking_price": 250000,
            "arv": 360000, "rehab_estimate": 40000, "roi": 24.1, "beds": 3, "baths": 2.0, "square_footage": 1800,
            "confidence_score": 91, "is_high_roi": True, "raw_data": {}}


def _result(lead_count: int, leads: list[dict]) -> ScrapeResult:
    return ScrapeResult(scrape_id=uuid.uuid4(), created_at=NOW, lead_count=lead_count, leads_generated=len(leads),
                        credits_used=100 * len(leads), balance=0, leads=leads)


def test_a_delivered_lead_has_exactly_the_models_fields_in_its_order():
    row = output_row(uuid.uuid4(), _lead(), NOW)
    assert list(row) == LEAD_FIELDS
    assert (row["address"], row["city"], row["created_at"]) == ("466 Roundview Road", "Chicago", NOW.isoformat())


def test_the_200_body_is_the_models_dump_with_message_only_when_fewer_matched():
    full = answers.scrape_payload(_result(1, [output_row(uuid.uuid4(), _lead(), NOW)]))
    assert list(full) == ["bulk_scrape_id", "created_time", "output", "leads_generated", "credits_used"]
    assert [list(lead) for lead in full["output"]] == [LEAD_FIELDS]
    short = answers.scrape_payload(_result(3, [output_row(uuid.uuid4(), _lead(), NOW)]))
    assert list(short) == [*full, "message"] and short["message"].startswith("Only 1 of 3")


def test_the_docs_show_every_field_of_the_body():
    markdown = webhook_markdown("user-id")
    start = markdown.index("## Response (200)\n\n```json\n") + len("## Response (200)\n\n```json\n")
    example = json.loads(markdown[start:markdown.index("```", start)])
    assert list(example) == [name for name in contract.WebhookResponse.model_fields if name != "message"]
    assert [list(lead) for lead in example["output"]] == [LEAD_FIELDS]
    assert "`message`" in markdown  # the one optional field, said in words
