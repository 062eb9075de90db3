"""The developer explorer's manual scrape parameters (SPEC 3, 5, 9): defaults,
options and validation messages."""

from __future__ import annotations

import pytest

from marketplace.features.explorer import rules_scrape as d
from marketplace.features.marketplace.rules_criteria import Range


def _parse(**changes):
    form = {**d.default_form(), **{k: v for k, v in changes.items() if k in d.NUMBER_FIELDS}}
    return d.parse(form, changes.get("states", d.DEFAULTS["selectedStates"]),
                   changes.get("types", d.DEFAULTS["selectedLeadTypes"]))


def _problems(**changes) -> list[str]:
    with pytest.raises(d.DevScrapeInvalid) as err:
        _parse(**changes)
    return err.value.problems


def test_the_defaults_are_section_9s():
    assert d.default_form() == {
        "leadCount": "25", "minPrice": "150000", "maxPrice": "550000", "minSqft": "1000", "maxSqft": "3000",
        "minBeds": "2", "maxBeds": "6", "minConfidence": "70", "maxConfidence": "100", "roiThreshold": "15",
    }
    assert d.DEV_STATES == ("AZ", "TX", "FL", "GA", "CO", "NV", "CA", "NY", "IL", "OH", "PA", "MI")
    assert d.DEV_LEAD_TYPES == ("Probate", "Pre-Foreclosure", "Auction", "Make Me Move", "Tax Delinquent",
                                "Vacancy")
    request = d.parse(d.default_form(), d.DEFAULTS["selectedStates"], d.DEFAULTS["selectedLeadTypes"])
    assert request.lead_count == 25
    assert request.states == ("AZ", "TX", "FL", "GA", "CO", "NV")
    assert request.lead_types == ("Probate", "Pre-Foreclosure", "Auction", "Make Me Move")
    criteria = request.criteria()
    assert (criteria.count, criteria.price, criteria.sqft, criteria.beds, criteria.confidence, criteria.roi) == (
        25, Range(150_000, 550_000), Range(1_000, 3_000), Range(2, 6), Range(70, 100), Range(15, None))
    assert request.as_dict()["selectedStates"] == ["AZ", "TX", "FL", "GA", "CO", "NV"]


@pytest.mark.parametrize("value, message", [
    ("0", "Lead count must be between 1 and 100."),
    ("101", "Lead count must be between 1 and 100."),
    ("2.5", "Lead count must be a whole number."),
    ("ten", "Lead count must be a number."),
    ("", "Lead count is required."),
])
def test_lead_count_is_a_whole_number_from_1_to_100(value, message):
    assert _problems(leadCount=value) == [message]


def test_lead_count_bounds_are_accepted():
    assert _parse(leadCount="1").lead_count == 1
    assert _parse(leadCount="100").lead_count == 100


@pytest.mark.parametrize("field, value, message", [
    ("minBeds", "0", "Minimum beds must be between 1 and 10."),
    ("maxBeds", "11", "Maximum beds must be between 1 and 10."),
    ("maxBeds", "3.5", "Maximum beds must be a whole number."),
    ("minConfidence", "-1", "Minimum confidence must be between 0 and 100."),
    ("maxConfidence", "100.5", "Maximum confidence must be between 0 and 100."),
    ("roiThreshold", "100.1", "ROI threshold must be between 0 and 100."),
    ("roiThreshold", "-0.1", "ROI threshold must be between 0 and 100."),
    ("roiThreshold", "12.25", "ROI threshold must be a multiple of 0.1."),
    ("minPrice", "-1", "Minimum price must be at least 0."),
    ("maxSqft", "-5", "Maximum sqft must be at least 0."),
])
def test_ranges(field, value, message):
    assert _problems(**{field: value}) == [message]


def test_roi_threshold_steps_by_a_tenth():
    assert _parse(roiThreshold="12.3").roi_threshold == 12.3
    assert _parse(roiThreshold="0").roi_threshold == 0
    assert _parse(roiThreshold="100").roi_threshold == 100


def test_a_min_above_its_max_is_named():
    assert _problems(minBeds="5", maxBeds="3") == ["Minimum beds (5) is above maximum beds (3)."]
    assert _problems(minPrice="600,000") == ["Minimum price (600,000) is above maximum price (550,000)."]
    assert _problems(minSqft="4000") == ["Minimum sqft (4,000) is above maximum sqft (3,000)."]
    assert _problems(minConfidence="90", maxConfidence="80") == [
        "Minimum confidence (90) is above maximum confidence (80)."]
    assert _parse(minBeds="4", maxBeds="4").beds == (4, 4)


def test_at_least_one_state_and_one_lead_type():
    assert _problems(states=[], types=[]) == ["Select at least one state.", "Select at least one lead type."]
    # Only offered options count; the order is the form's.
    assert _problems(states=["WA", "ZZ"]) == ["Select at least one state."]
    assert _problems(types=["Other"]) == ["Select at least one lead type."]
    assert _parse(states=["MI", "AZ", "MI"]).states == ("AZ", "MI")


def test_every_problem_is_reported_at_once_and_junk_is_refused():
    problems = _problems(leadCount="0", minBeds="7", states=[])
    assert problems == ["Lead count must be between 1 and 100.", "Minimum beds (7) is above maximum beds (6).",
                        "Select at least one state."]
    with pytest.raises(d.DevScrapeInvalid):
        d.parse("not a form", ["AZ"], ["Probate"])
    for junk in (None, [], {"$gt": 1}, True, "1e999", "NaN"):
        assert _problems(leadCount=junk)[0].startswith("Lead count")


def test_messages():
    assert d.added_message(25) == "Added 25 leads to the marketplace."
    assert d.added_message(1) == "Added 1 lead to the marketplace."
