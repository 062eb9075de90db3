"""The dashboard's bulk owner search (``features/property/state_owner_outreach.py``), its real handlers on a stand-in for the
state: the selection takes only rows the dashboard shows, the confirm step quotes the most it can cost and
the balance from the server, a selection with nothing left to search says so, and an export link is signed
for the user and its layout only."""

from __future__ import annotations

import uuid

from marketplace.platform import downloads
from marketplace.features.unlock import service as unlocks
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.property.state_owner_outreach import OwnerOutreachState
from tests import aio
from tests.factories import add_lead


class Tab:
    _error_text = AuthState._error_text
    _error_toast = AuthState._error_toast
    _access_denied = AuthState._access_denied
    _zone = AuthState._zone
    _ot_shown = OwnerOutreachState._ot_shown
    toggle = OwnerOutreachState.ot_toggle.fn
    ask = OwnerOutreachState.ot_ask.fn
    export = OwnerOutreachState.ot_export.fn

    def __init__(self, user: uuid.UUID, lead_ids: list[str]):
        self.user, self.credits, self.time_zone = user, 0, "UTC"
        self.unlocked = [{"lead_id": i, "address": f"{n} Oak St"} for n, i in enumerate(lead_ids)]
        self.ot_selected, self.ot_running, self.ot_asking, self.ot_confirm_open = [], False, False, False
        self.ot_confirm_text = self.ot_confirm_balance = self.ot_confirm_button = ""

    async def _current_user_id(self):
        return self.user


def test_selection_confirm_and_export(db_url, new_user):
    user = new_user(credits=500)
    mine = [str(add_lead(address=f"{n} Contact Ln", credit_cost=60)) for n in (100, 103)]
    for lead_id in mine:
        unlocks.unlock_lead(user.id, lead_id)  # 380 left
    tab = Tab(user.id, mine)
    tab.toggle(str(uuid.uuid4()))  # not a row of this dashboard: ignored
    tab.toggle(7)
    assert tab.ot_selected == []
    tab.toggle(mine[0])
    tab.toggle(mine[1])
    assert tab.ot_selected == mine
    aio.run(tab.ask())
    assert tab.ot_confirm_open and tab.credits == 380
    assert tab.ot_confirm_text == ("Searches 2 of 2 selected leads. At most 4 credits: 2 credits per owner found, "
                                   "charged once for all hits; leads with no contact found are free.")
    assert tab.ot_confirm_balance == "Balance: 380 credits, after the most it can cost: 376 credits"
    assert tab.ot_confirm_button == "Search 2 leads (at most 4 credits)"
    tab.toggle(mine[1])
    assert tab.ot_selected == [mine[0]] and not tab.ot_confirm_open  # a changed selection asks again

    event = aio.run(tab.export("hubspot"))
    url = str(event)
    token = url.split("token=")[1].split('"')[0].split("'")[0].split("\\")[0]
    assert "/api/owners.csv?layout=hubspot" in url
    assert downloads.read_token(token, downloads.OWNERS_CSV, "hubspot") == user.id
    assert downloads.read_token(token, downloads.OWNERS_CSV, "dialer") is None
    assert aio.run(tab.export("../etc")) is None
