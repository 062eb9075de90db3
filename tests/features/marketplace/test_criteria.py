"""What a search for leads asks for (marketplace.rules_criteria): ranges and the validation every source relies on."""

import pytest

from marketplace.features.marketplace.rules_criteria import CriteriaError, Range, SearchCriteria


def test_a_range_holds_its_ends_and_an_open_range_everything():
    assert Range(10, 20).contains(10) and Range(10, 20).contains(20)
    assert not Range(10, 20).contains(9.99) and not Range(10, 20).contains(20.01)
    assert Range(None, 5).contains(-1_000) and Range(5, None).contains(1e9)
    # a missing value matches only a range that asks for nothing
    assert Range().contains(None) and not Range(0, None).contains(None)


@pytest.mark.parametrize(("criteria", "message"), [
    (SearchCriteria(count=0), "Lead count must be between 1 and 1000."),
    (SearchCriteria(count=1001), "Lead count must be between 1 and 1000."),
    (SearchCriteria(roi=Range(30, 12.5)), "ROI: the minimum (30) is above the maximum (12.5)."),
    (SearchCriteria(beds=Range(4, 2)), "Beds: the minimum (4) is above the maximum (2)."),
    (SearchCriteria(states=("TX", "ZZ", "QQ")), "Unknown state code: ZZ, QQ."),
    (SearchCriteria(lead_types=("Probate", "Haunted")), "Unknown lead type: Haunted."),
])
def test_validation_says_what_is_wrong(criteria, message):
    with pytest.raises(CriteriaError) as err:
        criteria.validate()
    assert str(err.value) == message


def test_valid_criteria_pass_and_the_ceiling_is_the_callers():
    SearchCriteria(count=1000, states=("tx",), lead_types=("Probate",), price=Range(0, 0)).validate()
    with pytest.raises(CriteriaError, match=r"^Lead count must be between 1 and 100\.$"):
        SearchCriteria(count=101).validate(max_count=100)
