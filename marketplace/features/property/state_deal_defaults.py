"""Settings > Deal defaults: what a new deal analysis starts from (``property.service_deals.load_defaults`` /
``save_defaults``). The form's text is read by ``property.rules_deal.form.read_defaults``: each field's problem is
shown under it and in the toast ('Check the deal inputs'), and nothing is stored until every field is
valid (the service validates again)."""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.platform import texts as msg
from marketplace.platform import routes
from marketplace.features.property.rules_deal.form import DEFAULT_FIELDS, defaults_form, read_defaults
from marketplace.platform.errors import UserError
from marketplace.features.property import texts_deal as text
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service_deals as deals
from marketplace.platform.ui.state_auth import AuthState, success_toast
from marketplace.platform.ui.state_signed_in import signed_in

KEYS = tuple(f.key for f in DEFAULT_FIELDS)


def _to_sign_in(state: "DealDefaultsState"):
    state.loaded_for = ""
    return rx.redirect(routes.AUTH, replace=True)


class DealDefaultsState(AuthState):
    loaded_for: str = ""
    values: dict[str, str] = {}  # field key -> its text
    errors: dict[str, str] = {}
    form_key: int = 0
    saving: bool = False

    def _show(self, defaults) -> None:
        self.values = defaults_form(defaults)
        self.errors = {}
        self.form_key += 1

    @rx.event
    @signed_in(text.DEFAULTS_LOAD_FAILED, signed_out=_to_sign_in)
    async def load(self, user_id: uuid.UUID):
        self._show(await run_blocking(deals.load_defaults, user_id))
        self.loaded_for = str(user_id)

    @rx.event
    @signed_in(text.DEFAULTS_SAVE_FAILED, signed_out=_to_sign_in, busy="saving")
    async def save(self, user_id: uuid.UUID, form: dict):
        typed = {key: str(form.get(key, ""))[:40] for key in KEYS} if isinstance(form, dict) else {}
        self.values = typed
        defaults, errors = read_defaults(typed)
        self.errors = errors
        if defaults is None:
            raise UserError(msg.DEAL_INPUT_TITLE, " ".join(dict.fromkeys(errors.values())))
        yield
        self._show(await run_blocking(deals.save_defaults, user_id, defaults))
        self.saving = False
        yield success_toast(*text.DEFAULTS_SAVED)
