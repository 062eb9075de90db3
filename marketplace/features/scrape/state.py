"""/bulkscraper: configure, confirm and run a bulk scrape; results; CSV (SPEC 2, 4, 5, 8, 9).

The form keeps what the user typed (strings); ``scrape.rules`` parses and clamps
it, so the expected cost shown is the cost charged. The scrape runs as a
background task: the lead generation and the one transaction that charges and
stores run on the blocking pool (``run_blocking``) while the task reports real
progress to the page; other users' events are never delayed by it.

The full results stay in the backend var ``_results``; the public ``rows``
hold one page of the filtered, sorted results (filters apply to the loaded
results, SPEC 5). After a reload the page shows the user's last scrape from
this page again (``scrape.service_history.last_scrape``). Cities typed without a
state are resolved as the scrape will resolve them (``scrape.source_markets``), and
the form says which city it picked before the user confirms. Every handler
re-checks the session on the server.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import reflex as rx

from marketplace.platform import routes
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.marketplace import CriteriaError
from marketplace.platform.leads import SCRAPER_LEAD_TYPES, SOURCES, US_STATES
from marketplace.features.marketplace import beds_baths_text
from marketplace.features.marketplace import ROI_BANDS, SIZE_BANDS, percent, usd
from marketplace.platform.paging import parse_whole_number
from marketplace.platform.pricing import display_confidence
from marketplace.platform.texts import (
    CHECK_CRITERIA_TITLE,
    INSUFFICIENT_CREDITS_TITLE,
    SCRAPE_DONE_TITLE,
    SCRAPE_FAILED,
    SCRAPE_FAILED_TITLE,
    SCRAPE_LOGIN_REQUIRED,
)
from marketplace.platform.times import format_datetime
from marketplace.platform.offloop import run_blocking
from marketplace.platform import downloads
from marketplace.features.scrape import service_history as scrape_history, service as scrapes
from marketplace.features.scrape.source_markets import keys_by_name, resolve_cities
from marketplace.platform.ui.state_auth import AuthState, error_toast, success_toast
from marketplace.platform.ui.state_progress import ProgressVars, run_with_progress
from marketplace.platform.ui.state_signed_in import signed_in


FILTER_GROUPS = {
    "roi": {value for value, _ in ROI_BANDS},
    "size": {value for value, _ in SIZE_BANDS},
    "tag": {value for value, _ in scrape_rules.RESULT_TAGS},
}
SORT_VALUES = {value for value, _ in scrape_rules.RESULT_SORTS}


def result_row(lead: dict) -> dict[str, str]:
    return {
        "id": str(lead.get("id", "")),
        "address": lead.get("address") or "",
        "city_line": f"{lead.get('city') or ''}, {lead.get('state') or ''} {lead.get('zip_code') or ''}".strip(),
        "lead_type": lead.get("lead_type") or "",
        "asking_price": usd(lead.get("asking_price")),
        "zestimate": usd(lead.get("zestimate")),
        "arv": usd(lead.get("arv")),
        "rehab": usd(lead.get("rehab_estimate")),
        "roi": percent(lead.get("roi")),
        "beds_baths": beds_baths_text(lead.get("beds"), lead.get("baths")),
        "sqft": "N/A" if lead.get("square_footage") is None else f"{lead['square_footage']:,}",
        "confidence": str(display_confidence(lead.get("confidence_score"))),
        "href": routes.property_url(str(lead.get("id", ""))),
        "provenance": lead.get("provenance") or "",  # 'Demo data (generated)' (scrape.service)
    }


class BulkScraperState(ProgressVars, AuthState):
    # ------------------------------------------------------------------ form (as typed)
    lead_count: str = str(scrape_rules.DEFAULT_LEADS)
    cities: str = ""
    states: list[str] = []
    lead_types: list[str] = []
    sources: list[str] = []
    price_min: str = str(scrape_rules.PRICE_DEFAULTS[0])
    price_max: str = str(scrape_rules.PRICE_DEFAULTS[1])
    size_min: str = str(scrape_rules.SIZE_DEFAULTS[0])
    size_max: str = str(scrape_rules.SIZE_DEFAULTS[1])
    roi_min: str = str(scrape_rules.ROI_DEFAULTS[0])
    roi_max: str = str(scrape_rules.ROI_DEFAULTS[1])
    min_confidence: str = str(scrape_rules.DEFAULT_CONFIDENCE)

    # ------------------------------------------------------------------ run
    loaded: bool = False
    confirm_open: bool = False
    scraping: bool = False
    error_title: str = ""
    error_message: str = ""
    shortfall: str = ""

    # ------------------------------------------------------------------ results
    _results: list[dict] = []
    _results_for: str = ""  # the user the loaded results belong to
    scrape_id: str = ""
    results_when: str = ""  # 'Nov 25, 2026': when the shown scrape ran
    result_count: int = 0
    result_credits: int = 0
    roi_filter: list[str] = []
    size_filter: list[str] = []
    tag_filter: list[str] = []
    sort: str = "roi_desc"
    page: int = 1
    rows: list[dict[str, str]] = []
    filtered_count: int = 0

    # ------------------------------------------------------------------ parsed form
    def _request(self) -> scrape_rules.ScrapeRequest:
        return scrape_rules.ScrapeRequest(
            lead_count=scrape_rules.parse_lead_count(self.lead_count),
            cities=scrape_rules.parse_cities(self.cities),
            states=scrape_rules.pick(self.states, US_STATES),
            lead_types=scrape_rules.pick(self.lead_types, SCRAPER_LEAD_TYPES),
            sources=scrape_rules.pick(self.sources, SOURCES),
            price=(scrape_rules.parse_at_least_zero(self.price_min, scrape_rules.PRICE_DEFAULTS[0]),
                   scrape_rules.parse_at_least_zero(self.price_max, scrape_rules.PRICE_DEFAULTS[1])),
            size=(scrape_rules.parse_at_least_zero(self.size_min, scrape_rules.SIZE_DEFAULTS[0]),
                  scrape_rules.parse_at_least_zero(self.size_max, scrape_rules.SIZE_DEFAULTS[1])),
            roi=(scrape_rules.parse_roi(self.roi_min, scrape_rules.ROI_DEFAULTS[0]),
                 scrape_rules.parse_roi(self.roi_max, scrape_rules.ROI_DEFAULTS[1])),
            min_confidence=scrape_rules.parse_confidence(self.min_confidence),
        )

    @rx.var
    def expected_cost(self) -> int:
        return scrape_rules.scrape_cost(scrape_rules.parse_lead_count(self.lead_count))

    @rx.var
    def cost_label(self) -> str:
        return f"{self.expected_cost:,} credits"

    @rx.var
    def full_price_label(self) -> str:
        return scrape_rules.base_price_label(scrape_rules.parse_lead_count(self.lead_count))

    @rx.var
    def leads_label(self) -> str:
        return scrape_rules.leads_text(scrape_rules.parse_lead_count(self.lead_count))

    @rx.var
    def discount_label(self) -> str:
        count = scrape_rules.parse_lead_count(self.lead_count)
        pct = scrape_rules.discount_percent(count)
        saved = scrape_rules.full_price(count) - scrape_rules.scrape_cost(count)
        return f"{pct}% (-{saved:,} credits)" if pct else "0%"

    @rx.var
    def discount_percent(self) -> int:
        return scrape_rules.discount_percent(scrape_rules.parse_lead_count(self.lead_count))

    @rx.var
    def credits_label(self) -> str:
        return f"{self.credits:,} credits"

    @rx.var
    def balance_after_label(self) -> str:
        return scrape_rules.balance_after_label(self.credits, self.expected_cost)

    @rx.var
    def short_of_credits(self) -> bool:
        return self.credits < self.expected_cost

    @rx.var
    def need_message(self) -> str:
        return scrape_rules.need_credits_message(self.expected_cost, self.credits)

    @rx.var
    def start_disabled(self) -> bool:
        return self.scraping or self.credits < self.expected_cost or bool(self._problems())

    def _problems(self) -> list[str]:
        """What makes the form's scrape impossible: a minimum above its maximum, an unknown city."""
        unknown_city = self._city_check()[1]
        return self._request().problems() + ([unknown_city] if unknown_city else [])

    def _city_check(self) -> tuple[list[str], str]:
        """(the notes of cities picked as the largest of their name, the unknown-city problem)."""
        try:
            found = resolve_cities(scrape_rules.parse_cities(self.cities), scrape_rules.pick(self.states, US_STATES))
        except CriteriaError as exc:
            return [], str(exc)
        return [match.note for match in found if match.note], ""

    @rx.var
    def form_problems(self) -> str:
        """Why Start is disabled when the balance is not the reason."""
        return " ".join(self._problems())

    @rx.var
    def range_problems(self) -> dict[str, str]:
        """Each range's own problem ('' when none), shown under it: {'price': 'Price: the minimum ...'}."""
        found = {text.split(":")[0].lower(): text for text in self._request().problems()}
        return {slug: found.get(slug, "") for slug in ("price", "size", "roi")}

    @rx.var
    def city_notes(self) -> list[str]:
        """'Austin → Austin, TX (largest of 8 cities named Austin)' for each city typed without a
        state while no state is selected: shown under Cities and in the confirmation."""
        return self._city_check()[0]

    @rx.var
    def city_problem(self) -> str:
        return self._city_check()[1]

    @rx.var
    def pages(self) -> int:
        return max(1, -(-self.filtered_count // scrape_rules.RESULTS_PAGE_SIZE))

    @rx.var
    def results_label(self) -> str:
        if not self.result_count:
            return ""
        shown = f"{self.filtered_count:,} of {scrape_rules.leads_text(self.result_count)}" \
            if self.filtered_count != self.result_count else scrape_rules.leads_text(self.result_count)
        return f"{shown} · page {self.page} of {self.pages}"

    # ------------------------------------------------------------------ form events (no I/O)
    @rx.event
    def set_field(self, name: str, value: str):
        if name in ("lead_count", "cities", "price_min", "price_max", "size_min", "size_max", "roi_min", "roi_max",
                    "min_confidence") and isinstance(value, str) and not self.scraping:
            setattr(self, name, value[:2000 if name == "cities" else 20])

    @rx.event
    def clamp_fields(self):
        """On blur: show the values the scrape will use (SPEC 5's clamps)."""
        request = self._request()
        self.lead_count = str(request.lead_count)
        self.min_confidence = str(request.min_confidence)
        self.price_min, self.price_max = (str(v) for v in request.price)
        self.size_min, self.size_max = (str(v) for v in request.size)
        self.roi_min, self.roi_max = (str(v) for v in request.roi)
        self.cities = ", ".join(request.cities)

    @rx.event
    def toggle_option(self, group: str, value: str):
        allowed = {"states": US_STATES, "lead_types": SCRAPER_LEAD_TYPES, "sources": SOURCES}
        if self.scraping or not isinstance(group, str) or group not in allowed or value not in allowed[group]:
            return
        current = list(getattr(self, group))
        current = [v for v in current if v != value] if value in current else [*current, value]
        setattr(self, group, list(scrape_rules.pick(current, allowed[group])))

    @rx.event
    def clear_options(self, group: str):
        if group in ("states", "lead_types", "sources") and not self.scraping:
            setattr(self, group, [])

    # ------------------------------------------------------------------ load
    @rx.event
    async def load(self):
        self.confirm_open = False
        self.error_title = self.error_message = ""
        user_id = await self._current_user_id()
        if user_id is not None:
            await self._load_user(user_id)
            await run_blocking(keys_by_name)  # the city index, loaded once per process off the loop
            if not self.scrape_id or self._results_for != str(user_id):
                self._clear_results()  # nothing of another user's stays
                last = await run_blocking(scrape_history.last_scrape, user_id)
                if last is not None:  # after a reload: the last scrape's results again
                    self.shortfall = last.shortfall
                    self._show_results(str(last.id), last.output, last.credits_used, last.created_at)
        else:
            self._clear_results()
        self.loaded = True

    # ------------------------------------------------------------------ confirm + run
    @rx.event
    @signed_in((SCRAPE_FAILED_TITLE, SCRAPE_FAILED), signed_out=SCRAPE_LOGIN_REQUIRED)
    async def open_confirm(self, user_id: uuid.UUID):
        await self._load_user(user_id)
        problems = self._problems()
        if problems:
            return error_toast(CHECK_CRITERIA_TITLE, " ".join(problems))
        if self.credits < self.expected_cost:
            return error_toast(INSUFFICIENT_CREDITS_TITLE, self.need_message)
        self.clamp_fields()
        self.confirm_open = True
        return None

    @rx.event
    def set_confirm_open(self, is_open: bool):
        if not self.scraping and isinstance(is_open, bool):
            self.confirm_open = is_open

    @rx.event(background=True)
    async def run_scrape(self):
        """Confirm Scrape: 'Scraping...' with progress, then the results or 'Scrape Failed'."""
        async with self:
            if self.scraping:
                return
            user_id = await self._current_user_id()
            if user_id is None:
                self.confirm_open = False
                return error_toast(SCRAPE_LOGIN_REQUIRED[0], SCRAPE_LOGIN_REQUIRED[1])
            request = self._request()
            self.confirm_open = False
            self.scraping = True
            self.error_title = self.error_message = self.shortfall = ""
            self.progress_done, self.progress_total = 0, request.lead_count
        try:
            result = await run_with_progress(self, scrapes.run_scrape, user_id, request, origin="ui",
                                             total=request.lead_count)
        except Exception as exc:  # noqa: BLE001 - a background task (not wrapped by signed_in): a ScrapeError's
            # message, else the SPEC's, in the page's panel and the toast; nothing was charged
            # Always titled 'Scrape Failed' (SPEC 8), an insufficient-credits refusal included.
            _, message = self._error_text(exc, (SCRAPE_FAILED_TITLE, SCRAPE_FAILED), f"bulk scrape for {user_id}")
            async with self:
                self.scraping = False
                self.error_title, self.error_message = SCRAPE_FAILED_TITLE, message
                if isinstance(exc, scrapes.ScrapeInsufficientCredits):
                    await self._load_user(user_id)
            return error_toast(SCRAPE_FAILED_TITLE, message)
        async with self:
            self.scraping = False
            self.credits = result.balance
            self.shortfall = result.shortfall
            self._show_results(str(result.scrape_id), result.leads, result.credits_used, result.created_at)
        return success_toast(SCRAPE_DONE_TITLE, scrape_rules.completed_message(result.leads_generated, result.credits_used))

    # ------------------------------------------------------------------ results
    def _clear_results(self) -> None:
        self._show_results("", [], 0, None)
        self._results_for = self.shortfall = ""

    def _show_results(self, scrape_id: str, leads: list[dict], credits_used: int, created_at) -> None:
        self._results = leads
        self._results_for = self.user_id
        self.scrape_id = scrape_id
        self.results_when = format_datetime(created_at, self._zone())
        self.result_count = len(leads)
        self.result_credits = credits_used
        self.roi_filter, self.size_filter, self.tag_filter = [], [], []
        self.sort = "roi_desc"
        self.page = 1
        self._render_rows()

    def _render_rows(self) -> None:
        chosen = scrape_rules.filter_results(self._results, self.roi_filter, self.size_filter, self.tag_filter, self.sort,
                                      today=sale_dates.local_today(datetime.now(timezone.utc)))
        self.filtered_count = len(chosen)
        self.page = max(1, min(self.page, self.pages))
        start = (self.page - 1) * scrape_rules.RESULTS_PAGE_SIZE
        self.rows = [result_row(lead) for lead in chosen[start:start + scrape_rules.RESULTS_PAGE_SIZE]]

    @rx.event
    def toggle_result_filter(self, group: str, value: str):
        if not isinstance(group, str) or group not in FILTER_GROUPS or value not in FILTER_GROUPS[group]:
            return
        name = f"{group}_filter"
        current = list(getattr(self, name))
        setattr(self, name, [v for v in current if v != value] if value in current else [*current, value])
        self.page = 1
        self._render_rows()

    @rx.event
    def clear_result_filters(self):
        self.roi_filter, self.size_filter, self.tag_filter = [], [], []
        self.page = 1
        self._render_rows()

    @rx.event
    def set_sort(self, value: str):
        if isinstance(value, str) and value in SORT_VALUES:
            self.sort = value
            self.page = 1
            self._render_rows()

    @rx.event
    def go_to_page(self, number):
        wanted = parse_whole_number(number)
        if wanted is not None:
            self.page = max(1, min(wanted, self.pages))
            self._render_rows()

    @rx.event
    @signed_in(signed_out=SCRAPE_LOGIN_REQUIRED)
    async def download_csv(self, user_id: uuid.UUID):
        """A fresh signed link (5 minutes) for the shown scrape, after a session check."""
        if not self.scrape_id:
            return error_toast(SCRAPE_LOGIN_REQUIRED[0], SCRAPE_LOGIN_REQUIRED[1])
        token = downloads.make_token(downloads.SCRAPE_CSV, user_id, self.scrape_id)
        return rx.download(url=routes.scrape_csv_url(self.scrape_id, token, "results"))

