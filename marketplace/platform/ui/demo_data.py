"""What a demo install says about its data (``platform.ui.state_demo_data.DemoDataState``): a strip on every page
(``demo_data_banner``, in the layout's shell, id ``demo-data-banner``) and a note beside every claim about
public records (``demo_claim_note``, class ``lv-demo-claim-note``), so no page claims public records for
generated leads. Neither renders anything on an install that serves real data only.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.texts import DEMO_CLAIM_NOTE, DEMO_DATA_BANNER
from marketplace.platform.ui.state_demo_data import DemoDataState

BANNER_ID = "demo-data-banner"
DEMO_DATA_LABEL = "Demo data"
NOTE_CLASS = "lv-demo-claim-note"


def demo_data_banner() -> rx.Component:
    """A calm amber strip at the top of the page (the TEST MODE banner is the loud one)."""
    return rx.cond(
        DemoDataState.demo_data,
        # A top-level landmark of its own (every piece of a page sits in one), above the header.
        rx.el.aside(
            rx.icon("flask_conical", size=16, aria_hidden="true", flex_shrink="0"),
            rx.text(DEMO_DATA_BANNER, size="2", weight="medium", as_="span"),
            id=BANNER_ID,
            aria_label=DEMO_DATA_LABEL,
            class_name="lv-demo-data-banner",
        ),
    )


def demo_claim_note(note_id: str | None = None, **props) -> rx.Component:
    """'This demo install serves generated demo data.' beside a claim about public records (demo only)."""
    extra = {"id": note_id} if note_id else {}
    return rx.cond(
        DemoDataState.demo_data,
        rx.text(DEMO_CLAIM_NOTE, size="2", weight="medium", class_name=NOTE_CLASS, **extra, **props),
    )


def claims_public_records(text: str) -> bool:
    """Whether a sentence claims public records (it then gets the demo note on a demo install)."""
    lowered = text.lower()
    return "public record" in lowered or "public-record" in lowered or "public data" in lowered


def demo_claim_suffix() -> rx.Component:
    """The demo note as the end of a claim's own sentence (inside its text element), demo only."""
    return rx.cond(DemoDataState.demo_data, rx.el.span(" " + DEMO_CLAIM_NOTE, class_name=NOTE_CLASS))


def claim_text(text: str, **props) -> rx.Component:
    """``rx.text(text)``, and the demo note after it when the text claims public records."""
    return rx.text(text, *([demo_claim_suffix()] if claims_public_records(text) else []), **props)
