"""Owner contact providers: the demo provider, and the BatchData skip-trace adapter against a local fake."""

from __future__ import annotations

import re

import pytest

from marketplace.platform.config import ConfigError
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.property.source_batchdata_skip_trace import BatchDataSkipTrace
from marketplace.features.property.source_skip_trace import DemoSkipTrace, provider_from_settings
from tests.fakes.batchdata_skip_trace import PATH, FakeBatchDataSkipTrace

ADDRESS = ("12 Oak St", "Austin", "TX", "78701")


@pytest.fixture
def fake():
    with FakeBatchDataSkipTrace(api_key="secret-key") as server:
        yield server


@pytest.fixture
def sleeps() -> list[float]:
    return []


def client(fake, sleeps, key="secret-key", **options) -> BatchDataSkipTrace:
    return BatchDataSkipTrace(key, fake.url, **{"sleep": sleeps.append, "timeout": 5.0, **options})


# --------------------------------------------------------------------------- demo


def test_demo_provider_is_deterministic_fictional_and_labelled():
    demo = DemoSkipTrace()
    results = [demo.lookup(f"{n} Elm St", "Austin", "TX", "78701", "Pat Owner") for n in range(1, 60)]
    assert results[0] == demo.lookup("1  elm st", "austin", "tx", "78701", "Pat Owner")  # same address, same answer
    assert all(r.demo and r.provider == "demo" for r in results)
    hits = [r for r in results if r.found]
    assert 0 < len(hits) < len(results)  # some misses, so a free miss can be shown
    for r in hits:
        for p in r.phones:
            assert re.fullmatch(r"\(\d{3}\) 555-01\d\d", p["number"])  # the range reserved for fiction
            assert p["type"] in ("Mobile", "Land Line") and isinstance(p["dnc"], bool) and p["wrong"] is False
        assert all(e.endswith("@example.com") for e in r.emails)
    assert any(p["dnc"] for r in hits for p in r.phones)  # DNC marking shows up in demos


def test_provider_from_settings(monkeypatch):
    monkeypatch.delenv("SKIP_TRACE_PROVIDER", raising=False)
    assert isinstance(provider_from_settings(), DemoSkipTrace)
    monkeypatch.setenv("SKIP_TRACE_PROVIDER", "batchdata")
    monkeypatch.setenv("BATCHDATA_API_KEY", "k")
    monkeypatch.setenv("BATCHDATA_SKIP_TRACE_URL", "http://127.0.0.1:9/api/v3/")
    provider = provider_from_settings()
    assert isinstance(provider, BatchDataSkipTrace) and provider.base_url == "http://127.0.0.1:9/api/v3"
    monkeypatch.delenv("BATCHDATA_API_KEY")
    with pytest.raises(SourceError, match="BATCHDATA_API_KEY is not set"):
        provider_from_settings()
    monkeypatch.setenv("SKIP_TRACE_PROVIDER", "acme")
    with pytest.raises(ConfigError, match="SKIP_TRACE_PROVIDER must be demo or batchdata"):
        provider_from_settings()


# --------------------------------------------------------------------------- BatchData


def test_hit_maps_the_owner_phones_type_dnc_and_emails(fake, sleeps):
    result = client(fake, sleeps).lookup(*ADDRESS, "Jane Doe")
    assert (result.provider, result.demo, result.owner_name) == ("batchdata", False, "Jane Doe")
    # only the property owner's contacts (the relative's are left out); duplicates and junk dropped
    assert result.phones == (
        {"number": "(512) 555-0142", "type": "Mobile", "dnc": False, "wrong": False},
        {"number": "(512) 555-0177", "type": "Land Line", "dnc": True, "wrong": False},
    )
    assert result.emails == ("jane.doe@example.com",)
    [request] = fake.requests
    assert request.path == PATH and request.headers["authorization"] == "Bearer secret-key"
    assert request.body == {"requests": [{"requestId": "1", "propertyAddress": {
        "street": "12 Oak St", "city": "Austin", "state": "TX", "zip": "78701"}}]}  # no name: by address


def test_miss_is_an_empty_result(fake, sleeps):
    result = client(fake, sleeps).lookup("99 Nowhere Rd", "Austin", "TX", "78701", None)
    assert not result.found and result.phones == () and result.emails == ()


def test_429_then_success_waits_for_retry_after(fake, sleeps):
    fake.script(status=429, headers={"Retry-After": "2"})
    result = client(fake, sleeps).lookup(*ADDRESS, None)
    assert result.found and sleeps == [2.0] and len(fake.requests) == 2


def test_500_every_time_is_a_source_error_after_the_retries(fake, sleeps):
    fake.script(status=500, times=10)
    with pytest.raises(SourceError, match=r"BatchData returned HTTP 500 after 3 attempts on /property/skip-trace"):
        client(fake, sleeps).lookup(*ADDRESS, None)
    assert len(fake.requests) == 3


def test_401_names_the_setting_and_never_the_key(fake, sleeps):
    with pytest.raises(SourceError) as exc:
        client(fake, sleeps, key="wrong-key").lookup(*ADDRESS, None)
    assert str(exc.value) == "BatchData refused the API key (HTTP 401): check BATCHDATA_API_KEY."
    assert "wrong-key" not in repr(client(fake, sleeps, key="wrong-key"))


@pytest.mark.parametrize("body", [[1, 2], {"status": {"code": 200}}, {"result": {"data": "x"}}])
def test_an_unexpected_answer_is_a_source_error(fake, sleeps, body):
    fake.script(status=200, body=body)
    with pytest.raises(SourceError, match="unexpected answer"):
        client(fake, sleeps).lookup(*ADDRESS, None)


def test_v1_shape_and_persons_without_an_owner_flag_are_read(fake, sleeps):
    fake.script(status=200, body={"results": {"persons": [{"name": {"first": "Al", "last": "Bo"},
                                                           "phoneNumbers": [{"number": "4155550123", "type": "Mobile",
                                                                             "dnc": "yes"}],
                                                           "emails": [{"address": "al@example.org"}]}]}})
    result = client(fake, sleeps).lookup(*ADDRESS, None)
    assert result.owner_name == "Al Bo"
    assert result.phones == ({"number": "(415) 555-0123", "type": "Mobile", "dnc": None, "wrong": False},)
    assert result.emails == ("al@example.org",)


def test_a_batch_answer_is_linked_to_its_request_by_request_id_never_by_position():
    from marketplace.features.property.source_batchdata_skip_trace import _answers

    owner = {"propertyOwner": True, "phones": [{"number": "5125550142", "type": "Mobile", "dnc": True}]}
    payload = {"result": {"data": [{"input": {"requestId": "2"}, "persons": [owner], "meta": {"matched": True}},
                                   {"persons": [owner]}]}}  # the second names no request: not used
    answers = _answers(payload, 2)
    assert list(answers) == ["2"] and answers["2"] == [owner]  # request 1 unanswered: stored and charged nothing
    assert _answers({"result": {"data": [{"persons": [owner]}]}}, 1) == {"1": [owner]}  # one request: its answer
    assert _answers({"result": {"data": []}}, 1) == {"1": []}  # a miss
    assert _answers({"results": {"persons": [owner]}}, 2) is None  # the v1 shape answers one request only
