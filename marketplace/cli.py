"""Operator commands. Every command has ``--help``; bad input prints a clear
error on stderr and exits with status 1."""

from __future__ import annotations

import argparse
import json
import sys

from marketplace.platform.db import session_scope


class CommandError(Exception):
    """A user mistake: printed as ``error: ...``, exit status 1."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be greater than 0")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return value


def _user_by_email(session, email: str):
    from marketplace.features.accounts import service as accounts

    user = accounts.find_user_by_email(session, email)
    if user is None:
        raise CommandError(f"no user with e-mail {email!r}")
    return user


def cmd_migrate(args) -> None:
    from marketplace.platform import migrations

    migrations.upgrade()
    print("database is at the latest migration")


def cmd_create_user(args) -> None:
    from marketplace.features.accounts import service as accounts

    try:
        with session_scope() as session:
            user = accounts.create_user(
                session, args.email, args.password, args.first_name, args.last_name,
                credits=args.credits, confirmed=args.confirmed, admin=args.admin,
            )
    except accounts.AuthError as exc:
        raise CommandError(f"{args.email}: {exc.message}") from None
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    print(json.dumps({"user_id": str(user.id), "email": user.email, "credits": args.credits, "admin": args.admin}))


def cmd_grant_credits(args) -> None:
    from marketplace.platform import ledger

    with session_scope() as session:
        user = _user_by_email(session, args.email)
        if args.credits == 0:
            raise CommandError("credits must not be 0")
        try:
            balance = ledger.apply_credits(session, user.id, args.credits, "admin_grant")
        except ledger.InsufficientCredits as exc:
            raise CommandError(str(exc)) from None
    print(json.dumps({"email": user.email, "granted": args.credits, "credits_remaining": balance}))


def cmd_make_admin(args) -> None:
    from marketplace.features.accounts import service_users as users

    with session_scope() as session:
        try:
            user = users.make_admin(session, args.email)
        except LookupError as exc:
            raise CommandError(str(exc)) from None
    print(json.dumps({"email": user.email, "super_admin": True}))


def cmd_webhook_key(args) -> None:
    from marketplace.features.scrape import service_webhook_keys as webhook_keys

    with session_scope() as session:
        user = _user_by_email(session, args.email)
        key = webhook_keys.rotate_key(session, user.id)
    print(json.dumps({"user_id": str(user.id), "webhook_auth_key": key}))


def cmd_seed_leads(args) -> None:
    from marketplace.features.scrape import service_seeding as seeding

    try:
        added = seeding.seed_leads(args.count, seed=args.seed, progress=not args.quiet)
    except seeding.ProductionRefused as exc:
        raise CommandError(str(exc)) from None
    print(json.dumps({"leads_added": added}))


def cmd_refresh_leads(args) -> None:
    from marketplace.features.records import jobs_refresh as refresh

    result = refresh.run_refresh(trigger="manual", force=args.force)
    print(json.dumps(result, default=str))
    if result.get("status") == "failed":
        raise CommandError(result.get("error") or "refresh failed")


def cmd_match_alerts(args) -> None:
    from marketplace.features.marketplace.service_alerts import match_refresh

    print(json.dumps(match_refresh(args.run_id), default=str))


def cmd_fetch_images(args) -> None:
    from marketplace.features.marketplace.service_images import fetch_property_images

    print(json.dumps(fetch_property_images(limit=args.limit)))


def cmd_grant_subscription(args) -> None:
    from marketplace.platform import subscriptions

    with session_scope() as session:
        user = _user_by_email(session, args.email)
        status = subscriptions.grant(session, user.id, args.type, args.leads, args.days)
    print(json.dumps({"email": user.email, "subscribed": status.subscribed, "subscription_type": status.subscription_type,
                      "leads_remaining": status.leads_remaining,
                      "subscription_end": status.subscription_end.isoformat() if status.subscription_end else None}))


def _dataset_errors():
    """The exceptions a public-record command turns into a clear 'error: ...' line."""
    from marketplace.features.records.service_imports import UnknownDataset
    from marketplace.features.records.source_opendata import DatasetError

    return UnknownDataset, DatasetError, FileNotFoundError, ValueError


def _count(value) -> str:
    return "-" if value is None else str(value)


def cmd_sources(args) -> None:
    from marketplace.features.records.service_imports import source_rows

    header = ("dataset", "protocol", "last run", "read", "added", "updated", "closed", "archived", "rejected",
              "newest record", "freshness")
    rows = source_rows()
    table = [header] + [
        (r.dataset_id, r.protocol, r.last_run, _count(r.read), _count(r.added), _count(r.updated), _count(r.closed),
         _count(r.archived), _count(r.rejected), r.newest, r.freshness)
        for r in rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
    for r in rows:
        if r.warning:
            print(f"warning: {r.dataset_id}: {r.warning}")


def cmd_sources_check(args) -> None:
    from marketplace.features.records.service_imports import find_dataset, live
    from marketplace.features.records import source_opendata as opendata

    try:
        dataset = find_dataset(args.dataset)
        if not live(dataset):
            raise CommandError(f"{dataset.id}: published only as a download: use import-records")
        report = opendata.check(dataset)
    except _dataset_errors() as exc:
        raise CommandError(str(exc)) from None
    print(f"{report.dataset_id}: {report.url}")
    print(f"rows {report.rows}, mapped {report.mapped}, rejected {report.rejected}, newest record "
          f"{report.newest_as_of.isoformat() if report.newest_as_of else '-'}")
    if report.missing_columns:
        print(f"missing columns: {', '.join(report.missing_columns)}")
    for reject in report.sample_rejects:
        print(f"rejected row {reject.row_number}: {reject.reason}")
    if report.rows == 0 or report.mapped == 0 or report.missing_columns:
        raise CommandError(f"{report.dataset_id}: the live page does not fit the mapping")
    print("ok")


def _as_of_day(text: str):
    from datetime import date

    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date: use YYYY-MM-DD") from None


def _print_run(summary) -> None:
    print(f"{summary.dataset_id}: read {summary.rows_read}, added {summary.added}, updated {summary.updated}, "
          f"unchanged {summary.unchanged}, closed {summary.closed}, archived {summary.archived}, "
          f"rejected {summary.rejected}; leads added {summary.leads_added}, updated {summary.leads_updated}")
    for reason in summary.rejections[:5]:
        print(f"rejected: {reason}")
    if summary.warning:
        print(f"warning: {summary.warning}")
    if getattr(summary, "leads_note", None):
        print(summary.leads_note)  # the summary ends with why no lead was made, in numbers


def cmd_import_records(args) -> None:
    import logging

    from marketplace.features.records.jobs_heartbeat import heartbeat
    from marketplace.features.records import service_runs as record_runs
    from marketplace.features.records.service_imports import import_file

    if not logging.getLogger().handlers:  # the failure is printed once, below (the run row records it too)
        logging.getLogger("marketplace.public_records").addHandler(logging.NullHandler())
    record_runs.reap()  # a run killed earlier (no heartbeat for a minute) no longer holds the dataset
    try:
        with heartbeat([args.dataset]):  # a killed import's run is failed within RECORD_DEAD_AFTER_SECONDS
            summary = import_file(args.dataset, args.file, partial=args.partial, allow_drop=args.allow_drop,
                                  as_of=args.as_of)
    except _dataset_errors() as exc:
        raise CommandError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - a bad file ends in one line (the run row records it), no traceback
        from marketplace.platform.db import is_outage

        if is_outage(exc):
            raise  # main() says it in one line: the database, not the file
        first = (str(exc).splitlines() or [""])[0][:300]
        raise CommandError(f"{args.dataset}: the import failed ({type(exc).__name__}: {first})") from None
    _print_run(summary)
    if summary.rows_read and summary.unmapped == summary.rows_read:
        raise CommandError(f"no row of {args.file} could be read with the mapping of {args.dataset}")


def cmd_refresh_records(args) -> None:
    from marketplace.platform.config import lead_settings
    from marketplace.features.records.jobs_heartbeat import heartbeat
    from marketplace.features.records.jobs_queue import configured_datasets
    from marketplace.features.records.jobs import run_records_refresh
    from marketplace.features.records import service_runs as record_runs

    if not lead_settings().records_configured:
        print("no live dataset enabled (set OPEN_DATA_DATASETS, or BATCHDATA_API_KEY, BATCHDATA_LISTS and "
              "BATCHDATA_LOCATION)")
    record_runs.reap()
    with heartbeat(configured_datasets()):
        run = run_records_refresh("manual", force=True)
    for result in run.get("results", []):
        print(json.dumps(result, default=str))
    print(json.dumps({k: v for k, v in run.items() if k != "results"}, default=str))
    if run["status"] == "failed" or any(r.get("status") == "failed" for r in run.get("results", [])):
        raise CommandError("a dataset refresh failed")


def cmd_worker(args) -> None:
    import logging

    from marketplace.platform.config import lead_settings
    from marketplace.features.records.jobs_worker import RecordsWorker

    if not lead_settings().records_configured:
        print("records worker: nothing to pull (OPEN_DATA_DATASETS and BatchData lists are not set)")
        if args.if_configured:
            return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    RecordsWorker().serve()


def cmd_seed_demo(args) -> None:
    from marketplace.platform.config import get_settings
    from marketplace.features.scrape import service_seeding as seeding

    if args.unless_production and get_settings().is_production:
        print("APP_ENV=production: no demo data seeded")
        return
    try:
        seeding.seed_demo(lead_count=args.leads)
    except seeding.ProductionRefused as exc:
        raise CommandError(str(exc)) from None


def cmd_check_production(args) -> None:
    from marketplace.platform.config import exit_unless_ready, get_settings

    exit_unless_ready()  # a bad setting, or production without what it needs: one line, exit 1
    print("APP_ENV=production: the production settings are complete" if get_settings().is_production
          else "APP_ENV=development: a demo install (no production checks)")


class _Parser(argparse.ArgumentParser):
    """argparse exits 2 on bad input; the CLI contract is exit status 1."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(1, f"error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m marketplace", description="LeadVault operator commands.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("migrate", help="apply database migrations (alembic upgrade head)")
    p.set_defaults(func=cmd_migrate)

    p = sub.add_parser("create-user", help="create an account")
    p.add_argument("email")
    p.add_argument("password")
    p.add_argument("--first-name", required=True)
    p.add_argument("--last-name", required=True)
    p.add_argument("--credits", type=_non_negative_int, default=0, help="opening credits (through the ledger)")
    p.add_argument("--admin", action="store_true", help="also make the user a super admin")
    p.add_argument("--confirmed", action="store_true", help="mark the e-mail address as confirmed")
    p.set_defaults(func=cmd_create_user)

    p = sub.add_parser("grant-credits", help="add (or with a negative N remove) credits through the ledger")
    p.add_argument("email")
    p.add_argument("credits", type=int, metavar="N")
    p.set_defaults(func=cmd_grant_credits)

    p = sub.add_parser("make-admin", help="make a user a super admin")
    p.add_argument("email")
    p.set_defaults(func=cmd_make_admin)

    p = sub.add_parser("webhook-key", help="create or rotate a user's webhook key; prints it once as JSON")
    p.add_argument("email")
    p.set_defaults(func=cmd_webhook_key)

    p = sub.add_parser("seed-leads", help="load N generated leads from the built-in source")
    p.add_argument("count", type=_positive_int, metavar="N")
    p.add_argument("--seed", type=int, default=None, help="random seed for reproducible data")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_seed_leads)

    p = sub.add_parser("refresh-leads", help="run the daily lead refresh now")
    p.add_argument("--force", action="store_true", help="run even if today's refresh already ran")
    p.set_defaults(func=cmd_refresh_leads)

    p = sub.add_parser("match-alerts", help="saved-search alerts for a refresh run again (sends nothing twice)")
    p.add_argument("run_id", type=_positive_int, metavar="RUN_ID")
    p.set_defaults(func=cmd_match_alerts)

    p = sub.add_parser("fetch-property-images", help="find images for leads whose images are pending or failed")
    p.add_argument("--limit", type=_positive_int, default=500)
    p.set_defaults(func=cmd_fetch_images)

    p = sub.add_parser("grant-subscription", help="give a user a subscription with N leads")
    p.add_argument("email")
    p.add_argument("--type", required=True, help="subscription type shown in the header, e.g. Pro")
    p.add_argument("--leads", type=_non_negative_int, required=True, help="leads remaining")
    p.add_argument("--days", type=_positive_int, default=30, help="days until it ends (default 30)")
    p.set_defaults(func=cmd_grant_subscription)

    p = sub.add_parser("sources", help="every public-record dataset with its last run and freshness")
    p.set_defaults(func=cmd_sources)
    actions = p.add_subparsers(dest="sources_action", metavar="ACTION", parser_class=_Parser)
    check = actions.add_parser("check", help="fetch one live page of DATASET and validate its mapping")
    check.add_argument("dataset", metavar="DATASET")
    check.set_defaults(func=cmd_sources_check)

    p = sub.add_parser("import-records", help="ingest a downloaded public-record file (CSV or the API's JSON)")
    p.add_argument("dataset", metavar="DATASET")
    p.add_argument("--file", required=True, metavar="PATH")
    p.add_argument("--partial", action="store_true",
                   help="the file is part of the dataset: records absent from it are not closed")
    p.add_argument("--allow-drop", action="store_true",
                   help="the dataset shrank: close what is absent even when the file holds more than 20%% fewer "
                        "open records than the dataset has")
    p.add_argument("--as-of", type=_as_of_day, default=None, metavar="YYYY-MM-DD",
                   help="the day the export was taken: an open (status) list is as of that day, whatever its "
                        "items' own dates (required when the dataset's file name pattern gives no date)")
    p.set_defaults(func=cmd_import_records)

    p = sub.add_parser("refresh-records", help="fetch and ingest the live datasets named in OPEN_DATA_DATASETS")
    p.set_defaults(func=cmd_refresh_records)

    p = sub.add_parser("worker", help="the records worker: the daily 8:00 Pacific public-record refresh, "
                                      "in a process of its own (stops on SIGTERM)")
    p.add_argument("--if-configured", action="store_true",
                   help="exit at once when no dataset or BatchData list is configured (make run)")
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("seed-demo", help="first-run demo data when the database is empty (refused in production)")
    p.add_argument("--leads", type=_positive_int, default=3000)
    p.add_argument("--unless-production", action="store_true",
                   help="under APP_ENV=production say so and seed nothing, exit 0 (make run)")
    p.set_defaults(func=cmd_seed_demo)

    p = sub.add_parser("check-production", help="check the settings as the app does at start (exit 1 with one "
                                                "line when APP_ENV=production lacks what it needs)")
    p.set_defaults(func=cmd_check_production)
    return parser


def main(argv: list[str] | None = None) -> int:
    from marketplace.platform.db import is_outage, outage_line

    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - a refused database is one line, never a traceback
        if not is_outage(exc):
            raise
        print(outage_line(exc), file=sys.stderr)
        return 1
    return 0
