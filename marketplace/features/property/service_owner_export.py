"""The owners found for a user's unlocked leads, for the owner export (``property.rules_owner_export``).

``owner_rows(user_id)`` (a read) joins the user's unlock records to the user's own found owner contacts, so
a lead appears only while this user holds its unlock record and only with what this user's search found:
the unlock is re-checked per lead on every download, and another user's contacts never appear. The mailing
address is the owner's of record (``properties``) for a lead made from public records; other leads have
none (empty cells). Newest unlock first.
"""

from __future__ import annotations

import uuid

from sqlmodel import select

from marketplace.platform.leads import provenance_line
from marketplace.features.property.rules_owner_export import OwnerRow
from marketplace.platform.db import read_scope
from marketplace.platform.models import Lead, OwnerContact, Property, UserLead


def owner_rows(user_id: uuid.UUID, database_url: str | None = None) -> list[OwnerRow]:
    with read_scope(database_url) as session:
        found = session.exec(
            select(Lead, OwnerContact, Property)
            .join(UserLead, (UserLead.lead_id == Lead.id) & (UserLead.user_id == user_id))
            .join(OwnerContact, (OwnerContact.lead_id == Lead.id) & (OwnerContact.user_id == user_id))
            .outerjoin(Property, Property.id == Lead.property_id)
            .where(OwnerContact.status == "found")
            .order_by(UserLead.unlocked_at.desc(), Lead.id)
        ).all()
        return [OwnerRow(owner_name=contact.owner_name or (prop.owner_name if prop else None),
                         address=lead.address, city=lead.city, state=lead.state, zip_code=lead.zip_code,
                         mailing_address=prop.mailing_address if prop else None,
                         mailing_city=prop.mailing_city if prop else None,
                         mailing_state=prop.mailing_state if prop else None,
                         mailing_zip=prop.mailing_zip if prop else None,
                         phones=tuple(dict(p) for p in contact.phones), emails=tuple(contact.emails),
                         provider=contact.provider, lead_source=provenance_line(lead.raw_data, lead.source))
                for lead, contact, prop in found]
