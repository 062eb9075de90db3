"""The whole data model: SQLModel tables shared by the app, the API and the jobs.

Conventions:
- ids that can appear in a URL (users, leads, scrapes, purchases) are UUIDs;
- money is whole US dollars in integers, except Stripe amounts in cents;
- ROI is a float percent (22.4 means 22.4 %);
- every timestamp is timezone-aware UTC (``UTCDateTime`` restores the zone on
  SQLite, which stores naive text).
"""

# One package, one module per area; every name is importable from ``marketplace.platform.models``,
# and importing it registers every table.
from marketplace.platform.models.base import (
    IMAGE_STATUSES,
    LEDGER_REASONS,
    PURCHASE_STATUSES,
    JSONType,
    UTCDateTime,
    bigint_pk,
    created_column,
    ts_column,
    utcnow,
)
from marketplace.platform.models.accounts import (
    AuthSession,
    EmailOutbox,
    LoginAttempt,
    Profile,
    Subscription,
    SuperAdmin,
    User,
)
from marketplace.platform.models.credits import CreditLedger, CreditPurchase  # noqa: F401
from marketplace.platform.models.leads import (
    BulkScrape,
    DemoCheckout,
    HeldProperty,
    Lead,
    LeadFacet,
    LeadRefreshRun,
    UserLead,
    WebhookIdempotencyKey,
    WebhookRefusal,
    WebhookRequest,
)
from marketplace.platform.models.alerts import Notification, SavedSearch, SavedSearchCriterion  # noqa: F401
from marketplace.platform.models.records import (
    DatasetRun,
    HpiPointRow,
    Property,
    PropertySignal,
    RecordJob,
    RecordedSale,
)
from marketplace.platform.models.deals import (
    CONTACT_STATUSES,
    SKIP_TRACE_RUN_STATUSES,
    DealAnalysisRow,
    DealDefaultsRow,
    OwnerContact,
    SkipTraceRun,
)
from marketplace.platform.models.comps import CompChoice, LeadCompCache  # noqa: F401
from marketplace.platform.models.pipeline import PIPELINE_STAGES, PipelineEntry, PipelineNote  # noqa: F401
