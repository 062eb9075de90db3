"""The home page's sample lead card shows the cost the rule gives its confidence (SPEC 9: 92 -> 150)."""

from marketplace.platform import pricing


def test_the_rendered_sample_card_shows_150_credits_at_92():
    from marketplace.features.marketing.page_home import sample_lead_card

    rendered = str(sample_lead_card())
    assert '"92/100"' in rendered and '"24.2%"' in rendered
    assert f'"{pricing.credit_cost_for_confidence(92)} credits"' == '"150 credits"'
    assert '"150 credits"' in rendered and "120 credits" not in rendered


def test_the_sample_card_names_its_arv_an_estimate_as_a_marketplace_card_does():
    from marketplace.features.marketing.page_home import sample_lead_card

    rendered = str(sample_lead_card())
    assert '"ROI vs estimated ARV"' in rendered and '"Est. ARV"' in rendered
    assert '"Est. ROI"' not in rendered and '"ARV"' not in rendered
