"""Every sentence that claims public records (or public data) carries the demo note on a demo install:
the pricing FAQ's 'an estimate from public data' and the property page's 'estimates derived from public
records' once had none."""

import pytest

from marketplace.platform.ui.demo_data import NOTE_CLASS, claims_public_records


@pytest.mark.parametrize(("text", "claims"), [
    ("every figure is an estimate from public data", True),
    ("Figures are estimates derived from public records", True),
    ("100% legal public-record data", True),
    ("Checkout is handled by our payment provider", False),
])
def test_what_counts_as_a_claim(text, claims):
    assert claims_public_records(text) is claims


def test_the_pricing_faq_and_the_property_pages_note_carry_the_demo_note():
    from marketplace.features.billing.page_pricing import FAQ, faq_item
    from marketplace.features.property.view_sections import property_content

    claimed = [(q, a) for q, a in FAQ if claims_public_records(a)]
    assert [q for q, _ in claimed] == ["Is the ROI guaranteed?"]
    assert NOTE_CLASS in str(faq_item(*claimed[0]))
    assert all(NOTE_CLASS not in str(faq_item(q, a)) for q, a in FAQ if (q, a) not in claimed)
    rendered = str(property_content())
    start = rendered.index("Figures are estimates derived from public records")
    assert NOTE_CLASS in rendered[start:start + 800]
