"""The demo checkout's page (/demo-checkout/{id}, ``PAYMENTS=test``): show a
checkout to its owner, and pay or cancel it.

The checkout itself is opened by ``payments.DemoCheckoutProvider``; paying
credits through ``purchases.fulfil_demo_checkout``. This module sits above
both, so neither imports the other's caller.
"""

from __future__ import annotations

import uuid

from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import DemoCheckout
from marketplace.features.billing import service as purchases
from marketplace.features.billing.service_payments import demo_mode


def details(session_id: str, user_id: uuid.UUID) -> DemoCheckout | None:
    """The open or finished demo checkout of this user (None for anyone else's, and
    for every one when payments are not in demo mode)."""
    if not session_id or not demo_mode():
        return None
    with read_scope() as session:
        row = session.get(DemoCheckout, session_id)
        if row is None or row.user_id != user_id:
            return None
        session.expunge(row)
        return row


def finish(session_id: str, user_id: uuid.UUID, pay: bool) -> str | None:
    """Pay or cancel a demo checkout; returns where to send the buyer (None: not
    this user's checkout, or payments are not in demo mode).

    Pay credits the purchase here, in the same transaction that marks the
    checkout complete, as Stripe's ``checkout.session.completed`` webhook does:
    the result page only shows what happened. Paying again (the Continue
    button, a second click, a retry) books nothing more: ``purchases.fulfil``
    claims the purchase with one conditional UPDATE.
    """
    if not session_id or not demo_mode():
        return None
    with session_scope() as session:
        # FOR UPDATE (PostgreSQL): a Pay racing a Cancel sees the other's outcome.
        # SQLite's BEGIN IMMEDIATE already serialises the two.
        row = session.get(DemoCheckout, session_id, with_for_update=True)
        if row is None or row.user_id != user_id:
            return None
        if row.status == "open":
            row.status = "complete" if pay else "expired"
            session.add(row)
            session.flush()
        if row.status != "complete":
            return row.cancel_url
        purchases.fulfil_demo_checkout(session, row)
        return row.success_url
