"""BatchData property skip trace: the lead owner's phones and e-mails.

What the request and response shapes are based on
-------------------------------------------------
BatchData's skip-trace reference was not reachable here; the shapes come from public client code and
notes that call the same endpoint (read 2026-11-25, through the code search):

- ``POST https://api.batchdata.com/api/v3/property/skip-trace`` with ``Authorization: Bearer <API token>``
  and ``{"requests": [{"requestId": ..., "propertyAddress": {"street", "city", "state", "zip"}}]}``, up to
  100 requests a call: a documented investor-tooling note on the endpoint (request format, "valid address
  combinations", response structure), the Go SDK ``mrz1836/go-batchdata`` ("BatchData V3 API: synchronous
  property skip tracing ... you send up to 100 properties, by address or by APN, and get back the persons
  BatchData links to each property, with their phones, emails and addresses"; pkg.go.dev), and the pipeline
  ``odgsully/adhs-working`` (``Batchdata/src/batchdata_sync.py``, which sends ``requestId`` to match
  answers). The request may carry the owner's ``name: {first, last}`` (the pipeworx BatchData connector's
  items "{ propertyAddress: { street, city, state, zip }, name?: { first, last } }"), but it is not sent:
  owner names of record come in either order ("SMITH JOHN"), a wrong split could only hurt the match, and
  the endpoint matches by address (that pipeline sends the address only: "API uses ADDRESS ONLY").
  ``owner_name`` is kept as the result's name when BatchData names nobody.
- The answer: ``{"status": {"code", "text"}, "result": {"data": [{"input": {...}, "persons": [{
  "propertyOwner": bool, "name": {"first", "last", "full"}, "phones": [{"rank", "number", "type" ("Mobile" |
  "Land Line"), "carrier", "dnc", "tcpa", "reachable"}], "emails": [{"rank", "email", "tested"}]}],
  "meta": {"matched": bool, "error": bool}}], "meta": {"results": {"requestCount", "matchCount", ...}}}}``
  (the same note; public clients of the endpoint read ``result.data[0].persons[].phones[].number/type/dnc``
  and ``emails[].email``). The older v1 answer, ``results.persons[].phoneNumbers`` with e-mails under
  ``address``, is read too.

Mapped defensively: the persons flagged ``propertyOwner`` are used when any is (else every person); phones
are de-duplicated by digits, formatted, capped at ``MAX_PHONES``, ``dnc`` kept only when a boolean (else
unknown); e-mails must look like e-mail addresses; ``meta.matched`` false, no data or no persons is a miss
(no charge). A reply that is not the expected JSON is a ``SourceError`` (no charge either).

Batches (the dashboard's bulk search): ``lookup_many`` sends up to ``MAX_REQUESTS`` (100) items a call, each
with its ``requestId`` (its position, as text), and links an answer to its item only by the ``input.requestId``
BatchData echoes (the Go SDK's rule: "A returned record is linked to your request item only by evidence, never
by position"); an item no answer names is ``None`` (not answered: the service stores and charges nothing).
A one-item call whose answer carries no ``requestId`` is that item's answer (``lookup``).

Requests and failures: timeouts and bounded retries with backoff on 429/5xx honouring ``Retry-After``
(``retrying.ProviderClient``; BatchData bills matches it returns, and a 429/5xx returns none). 401/403 is
"BatchData refused the API key (HTTP 401): check BATCHDATA_API_KEY."; the key never appears in a message.
Settings: ``BATCHDATA_API_KEY``, ``BATCHDATA_SKIP_TRACE_URL`` (the v3 root), ``BATCHDATA_TIMEOUT``.
"""

from __future__ import annotations

from typing import Any

from marketplace.features.scrape import BATCHDATA
from marketplace.platform.config import BATCHDATA_SKIP_TRACE_DEFAULT_URL, skip_trace_settings
from marketplace.features.property import rules_owner_contact as owner_contact
from marketplace.features.scrape import SourceError
from marketplace.features.scrape import BatchDataClient
from marketplace.features.property.rules_owner_contact import ContactResult

PATH = "/property/skip-trace"
MAX_REQUESTS = 100
Where = tuple[str, str, str, str, "str | None"]  # address, city, state, zip, owner name


def seconds(value: str) -> float:
    """BATCHDATA_TIMEOUT as seconds; ``SourceError`` naming the setting when it is not a number."""
    try:
        return float(value)
    except ValueError:
        raise SourceError(f"BATCHDATA_TIMEOUT must be a number of seconds, not {value!r}.") from None


class BatchDataSkipTrace(BatchDataClient):
    """``SkipTraceProvider`` over BatchData's v3 property skip trace (the property-search client's key
    handling, retries and error details)."""

    name = "batchdata"

    def __init__(self, api_key: str, base_url: str = BATCHDATA_SKIP_TRACE_DEFAULT_URL, **options: Any) -> None:
        """``options``: ``ProviderClient``'s (timeout, default 30s; max_retries, default 2; backoff, client,
        sleep)."""
        super().__init__(api_key, base_url, **{"max_retries": 2, **options})

    def __repr__(self) -> str:  # never the key
        return f"BatchDataSkipTrace({self.base_url!r})"

    @classmethod
    def from_settings(cls) -> BatchDataSkipTrace:
        settings = skip_trace_settings()
        return cls(settings.batchdata_api_key or "", settings.batchdata_url,
                   timeout=seconds(settings.batchdata_timeout))

    def lookup(self, address: str, city: str, state: str, zip_code: str,
               owner_name: str | None) -> ContactResult:
        (answer,) = self.lookup_many([(address, city, state, zip_code, owner_name)])
        if answer is None:
            raise SourceError(f"{BATCHDATA} sent an unexpected answer on {PATH}: no result for the request.")
        return answer

    def lookup_many(self, items: list[Where]) -> list[ContactResult | None]:
        """One call per ``MAX_REQUESTS`` items; an answer per item, None where BatchData answered nothing."""
        answers: list[ContactResult | None] = []
        for start in range(0, len(items), MAX_REQUESTS):
            answers += self._call(items[start:start + MAX_REQUESTS])
        return answers

    def _call(self, items: list[Where]) -> list[ContactResult | None]:
        requests = [{"requestId": str(i + 1), "propertyAddress": {"street": a, "city": c, "state": st, "zip": z}}
                    for i, (a, c, st, z, _) in enumerate(items)]
        response = self.send("POST", f"{self.base_url}{PATH}", PATH, json={"requests": requests},
                             headers=self._headers)
        status = response.status_code
        if status in (401, 403):
            raise SourceError(f"{BATCHDATA} refused the API key (HTTP {status}): check BATCHDATA_API_KEY.")
        if not response.is_success:
            raise SourceError(f"{BATCHDATA} refused the skip trace (HTTP {status}){self._detail(response)}")
        try:
            payload = response.json()
        except ValueError:
            raise SourceError(f"{BATCHDATA} sent malformed JSON on {PATH}.") from None
        by_request = _answers(payload, len(items))
        if by_request is None:
            raise SourceError(f"{BATCHDATA} sent an unexpected answer on {PATH}: expected result.data, a list.")
        return [_result(by_request[str(i + 1)], item[4]) if str(i + 1) in by_request else None
                for i, item in enumerate(items)]


def _answers(payload: Any, count: int) -> dict[str, list[dict[str, Any]]] | None:
    """requestId -> the persons answered for it ([] for a miss); None when the answer has neither shape. A
    one-item call's answer without a requestId (and the v1 shape) is the one item's."""
    if not isinstance(payload, dict):
        return None
    result = payload.get("result")
    if not isinstance(result, dict):
        persons = _v1_persons(payload) if count == 1 else None
        return None if persons is None else {"1": persons}
    data = result.get("data")
    if not isinstance(data, list):
        return None
    answers: dict[str, list[dict[str, Any]]] = {}
    for item in data:
        if not isinstance(item, dict):
            continue
        given = item.get("input")
        request_id = given.get("requestId") if isinstance(given, dict) else None
        if request_id is None and count == 1:
            request_id = "1"
        if request_id is not None:
            answers[str(request_id)] = _item_persons(item)
    if count == 1 and not data:
        answers["1"] = []  # an empty answer to one request: a miss
    return answers


def _item_persons(item: dict[str, Any]) -> list[dict[str, Any]]:
    meta = item.get("meta")
    if isinstance(meta, dict) and meta.get("matched") is False:
        return []
    persons = item.get("persons")
    return [p for p in persons if isinstance(p, dict)] if isinstance(persons, list) else []


def _v1_persons(payload: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The older v1 answer to one request (``results.persons``); None when it is not that shape either."""
    results = payload.get("results")
    if not isinstance(results, dict):
        return None
    persons = results.get("persons")
    return [p for p in persons if isinstance(p, dict)] if isinstance(persons, list) else []


def _result(persons: list[dict[str, Any]], owner_name: str | None) -> ContactResult:
    owners = [p for p in persons if p.get("propertyOwner") is True] or persons
    phones: list[dict[str, Any]] = []
    emails: list[str] = []
    for person in owners:
        raw_phones = person.get("phones", person.get("phoneNumbers"))
        for raw in raw_phones if isinstance(raw_phones, list) else []:
            if not isinstance(raw, dict):
                continue
            entry = owner_contact.phone(raw.get("number"), raw.get("type"), raw.get("dnc"))
            if entry and len(phones) < owner_contact.MAX_PHONES and not any(
                    owner_contact.same_number(p["number"], entry["number"]) for p in phones):
                phones.append(entry)
        raw_emails = person.get("emails")
        for raw in raw_emails if isinstance(raw_emails, list) else []:
            value = raw.get("email", raw.get("address")) if isinstance(raw, dict) else raw
            email = owner_contact.clean_email(value)
            if email and email not in emails and len(emails) < owner_contact.MAX_EMAILS:
                emails.append(email)
    return ContactResult("batchdata", False, _name(owners) or owner_name, tuple(phones), tuple(emails))


def _name(persons: list[dict[str, Any]]) -> str | None:
    for person in persons:
        name = person.get("name")
        if isinstance(name, dict):
            full = name.get("full") or " ".join(str(name.get(k) or "") for k in ("first", "last")).strip()
            if isinstance(full, str) and full.strip():
                return full.strip()[:200]
    return None
