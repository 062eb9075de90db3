"""The whole data model: SQLModel tables shared by the app, the API and the jobs.

Conventions:
- ids that can appear in a URL (users, leads, scrapes, purchases) are UUIDs;
- money is whole US dollars in integers, except Stripe amounts in cents;
- ROI is a float percent (22.4 means 22.4 %);
- every timestamp is timezone-aware UTC (``UTCDateTime`` restores the zone on
  SQLite, which stores naive text).
"""

# One package, one module per area; every name is importable from ``marketplace.models``,
# and importing it registers every table.
from marketplace.models.base import (  # noqa: F401
    IMAGE_STATUSES, LEDGER_REASONS, PURCHASE_STATUSES, JSONType, UTCDateTime, bigint_pk, created_column, ts_column,
    utcnow,
)
from marketplace.models.accounts import (  # noqa: F401
    AuthSession, EmailOutbox, LoginAttempt, Profile, Subscription, SuperAdmin, User,
)
from marketplace.models.credits import CreditLedger, CreditPurchase  # noqa: F401
from marketplace.models.leads import (  # noqa: F401
    BulkScrape, DemoCheckout, HeldProperty, Lead, LeadFacet, LeadRefreshRun, UserLead, WebhookIdempotencyKey,
    WebhookRefusal, WebhookRequest,
)
from marketplace.models.alerts import Notification, SavedSearch, SavedSearchCriterion  # noqa: F401
from marketplace.models.records import (  # noqa: F401
    DatasetRun, HpiPointRow, Property, PropertySignal, RecordJob, RecordedSale,
)
from marketplace.models.deals import (  # noqa: F401
    CONTACT_STATUSES, SKIP_TRACE_RUN_STATUSES, DealAnalysisRow, DealDefaultsRow, OwnerContact, SkipTraceRun,
)
from marketplace.models.comps import CompChoice, LeadCompCache  # noqa: F401
from marketplace.models.pipeline import PIPELINE_STAGES, PipelineEntry, PipelineNote  # noqa: F401
