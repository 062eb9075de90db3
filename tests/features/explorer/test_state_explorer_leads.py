"""The explorer's leads table (``features/explorer/state_leads.py``), its real handlers on a real tab against the
test database: a member sending its events by hand gets 'Access Denied' and no rows; the super admin's table
holds one page with its counts; a search narrows it; an empty view's export is 'No Data'."""

from __future__ import annotations

from marketplace.features.explorer.state_leads import ExplorerLeadsState
from tests.factories import add_lead
from tests.platform.tabs import open_tab, seen, toasts

DENIED = ("toast", "error", "Access Denied: You don't have super admin privileges", "")


def _leads(active: int, archived: int = 0) -> None:
    for n in range(active):
        add_lead(address=f"{n + 1} Cedar Ct", city="Austin")
    for n in range(archived):
        add_lead(address=f"{n + 1} Old Mill Rd", city="Waco", is_active=False)


def test_a_member_gets_access_denied_and_no_rows(db_url, new_user):
    _leads(3)
    tab = open_tab(ExplorerLeadsState, new_user().id, path="/explorerdev")
    for result in (tab.load_leads(), tab.search_leads({"q": "Cedar"}), tab.leads_go_to_page(2), tab.export_leads()):
        assert seen(result) == [DENIED, ("redirect", "/")]
    assert (tab.lead_rows, tab.leads_loaded, tab.access_granted) == ([], False, False)


def test_the_table_holds_one_page_with_its_counts(db_url, new_user):
    _leads(27, archived=2)
    tab = open_tab(ExplorerLeadsState, new_user(admin=True).id, path="/explorerdev")
    assert seen(tab.load_leads()) == []
    assert (len(tab.lead_rows), tab.leads_pages, tab.leads_page, tab.leads_loaded) == (25, 2, 1, True)
    assert (tab.leads_range, tab.leads_counts) == ("Showing 1-25 of 29 leads", "27 active, 2 archived")
    seen(tab.leads_go_to_page(99))
    assert (tab.leads_page, len(tab.lead_rows), tab.leads_range) == (2, 4, "Showing 26-29 of 29 leads")
    seen(tab.set_leads_page_size("7"))  # not one of the sizes: nothing changes
    assert (tab.leads_page_size, tab.leads_page) == (25, 2)
    seen(tab.set_leads_page_size("50"))
    assert (tab.leads_page_size, tab.leads_page, len(tab.lead_rows), tab.leads_pages) == (50, 1, 29, 1)
    seen(tab.set_leads_status("archived"))
    assert (len(tab.lead_rows), tab.leads_range) == (2, "Showing 1-2 of 2 leads")


def test_a_search_narrows_the_table_and_an_empty_export_is_no_data(db_url, new_user):
    _leads(3, archived=1)
    tab = open_tab(ExplorerLeadsState, new_user(admin=True).id, path="/explorerdev")
    seen(tab.load_leads())
    seen(tab.search_leads({"q": "waco"}))  # a city, ignoring case
    assert (tab.leads_query, len(tab.lead_rows), tab.leads_counts) == ("waco", 1, "0 active, 1 archived")
    assert (tab.lead_rows[0]["address"], tab.leads_search_label) == ("1 Old Mill Rd", 'city "waco"')
    (kind, url), = seen(tab.export_leads())
    assert kind == "download" and url
    seen(tab.search_leads({"q": "Nowhere"}))
    assert (tab.lead_rows, tab.leads_range) == ([], "No leads")
    assert toasts(seen(tab.export_leads())) == [("error", "No Data", "No leads to export")]
    seen(tab.clear_leads_search())
    assert (tab.leads_query, len(tab.lead_rows)) == ("", 4)
