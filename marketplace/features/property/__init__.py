"""A lead's property page (/property/{id}): its facts, comparable sales, deal analyzer and sheet, owner contact,
and the deal pipeline.

What other features use of it is exported below; they import it from ``marketplace.features.property``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "rules": ("archived_from_marketplace",),
    "rules_comps": ("Comp", "MIN_COMPS", "Subject", "haversine_miles", "months_before", "property_type"),
    "source_builtin_comps": ("generated_headline", "with_headlines"),
    "state_owner_outreach": ("OwnerOutreachState",),
    "state_pipeline_board": ("PipelineState",),
    "texts_pipeline": ("FOLLOW_UP_BODY", "FOLLOW_UP_OVERDUE", "FOLLOW_UP_TODAY"),
    "view_deal_defaults": ("deal_defaults_card",),
    "view_owner_outreach": ("owner_outreach_section",),
    "view_pipeline_board": ("pipeline_tab",),
}, modules=("rules_comps", "rules_pipeline", "rules_valuation", "service_comps", "service_deals", "service_pipeline", "texts_owner_contact"))
