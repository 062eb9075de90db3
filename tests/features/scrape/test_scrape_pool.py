"""Issue 26, item 4: a webhook scrape run in a worker process (``scrape.service_pool``) stores, charges and
logs exactly as on the thread pool; a refusal comes back as its own class and words; three at once all
arrive; the pool is per process, shut down cleanly, and absent it scrapes run on threads."""

from __future__ import annotations

import asyncio
import functools
import os

from sqlmodel import select

from marketplace.features.scrape import rules
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, UserLead, WebhookRequest
from marketplace.platform import ledger
from marketplace.features.scrape import (
    service_pool as scrape_pool,
    service as scrapes,
    service_webhook_answers as webhook_answers,
)
from tests import aio


def _within(user_id, claim_id=None):
    return functools.partial(webhook_answers.record_accepted, user_id=user_id, method="POST",
                             endpoint=f"/functions/v1/webhook-bulk-scrape/{user_id}", ip_address="203.0.113.5",
                             request_body={"leadCount": 120, "location": "TX"}, claim_id=claim_id)


def test_scrapes_in_worker_processes_store_charge_and_log_as_on_threads(new_user):
    rich = new_user(credits=1_000_000)
    poor = new_user(credits=150)
    others = [new_user(credits=1_000_000) for _ in range(2)]
    assert scrape_pool._pool is None

    async def scenario():
        async with scrape_pool.lifespan():
            pool = scrape_pool._pool
            assert pool is not None
            workers = set(await asyncio.gather(*(asyncio.get_running_loop().run_in_executor(pool, os.getpid)
                                                 for _ in range(4))))
            assert os.getpid() not in workers
            result = await scrape_pool.run_scrape(rich.id, rules.ScrapeRequest(lead_count=120, states=("TX",)),
                                                  origin="webhook", charge=True, within=_within(rich.id))
            try:
                await scrape_pool.run_scrape(poor.id, rules.ScrapeRequest(lead_count=120), origin="webhook",
                                             charge=True, within=_within(poor.id))
            except scrapes.ScrapeInsufficientCredits as exc:
                refusal = (exc.title, exc.message)
            three = await asyncio.gather(*(
                scrape_pool.run_scrape(user.id, rules.ScrapeRequest(lead_count=200), origin="webhook", charge=True,
                                       within=_within(user.id)) for user in [rich, *others]))
        assert scrape_pool._pool is None  # shut down with the app
        return result, refusal, three

    result, refusal, three = aio.run(scenario())
    cost = rules.scrape_cost(120)
    assert (result.leads_generated, result.credits_used, result.balance) == (120, cost, 1_000_000 - cost)
    assert {lead["state"] for lead in result.leads} == {"TX"}
    assert refusal == ("Insufficient Credits", rules.need_credits_message(cost, 150))
    assert [r.leads_generated for r in three] == [200, 200, 200]
    with session_scope() as s:
        scrape = s.get(BulkScrape, result.scrape_id)
        assert (scrape.origin, scrape.credits_used, len(scrape.output)) == ("webhook", cost, 120)
        assert len(s.exec(select(UserLead).where(UserLead.user_id == rich.id)).all()) == 320
        (logged, *_) = s.exec(select(WebhookRequest).where(WebhookRequest.user_id == rich.id)
                              .order_by(WebhookRequest.created_at)).all()
        assert (logged.response_status, logged.bulk_scrape_id) == (200, result.scrape_id)
        assert logged.response_body["output"] == "120 leads (stored with bulk scrape)"
        assert ledger.balance(s, rich.id) == ledger.ledger_sum(s, rich.id) == 1_000_000 - cost - rules.scrape_cost(200)
        assert ledger.balance(s, poor.id) == 150
        assert s.exec(select(WebhookRequest).where(WebhookRequest.user_id == poor.id)).all() == []


def test_without_a_pool_a_scrape_runs_on_threads(new_user, monkeypatch):
    monkeypatch.setenv("SCRAPE_PROCESSES", "0")
    user = new_user(credits=10_000)

    async def scenario():
        async with scrape_pool.lifespan():
            assert scrape_pool._pool is None
            return await scrape_pool.run_scrape(user.id, rules.ScrapeRequest(lead_count=3), origin="webhook",
                                                charge=True, within=_within(user.id))

    result = aio.run(scenario())
    assert (result.leads_generated, result.credits_used) == (3, rules.scrape_cost(3))


def test_workers_stopped_while_warming_leave_one_line_not_a_traceback(caplog):
    """The server stopping (SIGTERM to its process group) kills the pool's workers while they warm: one
    warning line in the log, no traceback."""
    pool = scrape_pool._new_pool(2)

    async def scenario():
        warming = asyncio.ensure_future(scrape_pool.warm(pool, 2))
        while not pool._processes:  # spawned on the first submit
            await asyncio.sleep(0.01)
        for process in list(pool._processes.values()):
            process.kill()
        await warming

    try:
        with caplog.at_level("WARNING", logger=scrape_pool.log.name):
            aio.run(scenario())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    records = [r for r in caplog.records if r.name == scrape_pool.log.name]
    assert [(r.levelname, r.getMessage(), r.exc_info) for r in records] == [
        ("WARNING", "scrape workers stopped before they were warm", None)]
