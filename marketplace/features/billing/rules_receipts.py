"""Purchase receipts and history rows as text (pure: the caller passes the dates
already formatted in the user's zone, ``platform.times``)."""

from __future__ import annotations

from marketplace.platform.routes import SUPPORT_EMAIL

STATUS_LABELS = {"pending": "Pending", "paid": "Paid", "failed": "Failed", "canceled": "Canceled"}
SUPPORT_LINE = f"Questions about this purchase? Write to {SUPPORT_EMAIL} with the receipt number."


def money(cents: int) -> str:
    """'$270.00'."""
    return f"${cents / 100:,.2f}"


def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, status.title() or "N/A")


def receipt_number(purchase_id: str) -> str:
    """A short, readable reference: 'LV-' and the first 8 hex digits of the purchase id."""
    return "LV-" + purchase_id.replace("-", "")[:8].upper()


def pack_credits_text(base: int, bonus: int, percent: int) -> str:
    """'1,250 + 250 bonus (20%)', or '500' without a pack bonus (``billing.rules_packs.breakdown_text``)."""
    return f"{base:,} + {bonus:,} bonus ({percent}%)" if bonus else f"{base:,}"


def receipt_text(*, purchase_id: str, pack_name: str, amount_cents: int, base: int, bonus: int, percent: int,
                 referral_bonus: int, status: str, date: str, paid_date: str, provider: str) -> str:
    """The plain-text receipt a buyer downloads."""
    credits = base + bonus
    lines = [
        "LeadVault - purchase receipt",
        "",
        f"Receipt number: {receipt_number(purchase_id)}",
        f"Purchase id:    {purchase_id}",
        f"Date:           {date}",
        f"Status:         {status_label(status)}",
    ]
    if paid_date:
        lines.append(f"Paid:           {paid_date}")
    lines += [
        "",
        f"Pack:           {pack_name}",
        f"Price:          {money(amount_cents)} (USD, one-time)",
        f"Pack credits:   {credits:,}" + (f" ({pack_credits_text(base, bonus, percent)})" if bonus else ""),
        f"Referral bonus: {'+' + format(referral_bonus, ',') if referral_bonus else 'none'}",
        f"Total credits:  {credits + referral_bonus:,}",
        f"Payment:        {'Stripe' if provider == 'stripe' else 'TEST MODE checkout (no real payment)'}",
        "",
        SUPPORT_LINE,
        "",
    ]
    return "\n".join(lines)
