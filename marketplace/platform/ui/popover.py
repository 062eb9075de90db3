"""A panel that opens from a button, as the browser's own popover (issue 41): ``panel(panel_id, label,
*children)`` beside a button carrying ``opens(panel_id)`` (``assets/popover.jsx``).

The browser shows the panel in its top layer, closes it on Escape, on a click outside and when another
one opens, and puts it next in the keyboard order after its button. When the page loads only an empty
``<div popover>`` renders: no JavaScript library mounts for it (a Radix popover's anchor sets its state
while the page hydrates, which made the hydration run every effect of the page in the same task) and its
content renders the first time it opens. Open, it sits below its button, inside the viewport (never above
it: a tall panel is no taller than the room below and scrolls inside). A state may hold whether it is open
(``open``, ``on_open_change``: the notifications load when their panel opens).
"""

from __future__ import annotations

import reflex as rx
from reflex.event import EventHandler, passthrough_event_spec


class PopoverPanel(rx.Component):
    library = "$/public/popover.jsx"
    tag = "PopoverPanel"

    open: rx.Var[bool]  # (optional) held by a state: the panel opens and closes with it
    on_open_change: EventHandler[passthrough_event_spec(bool)]  # the user opened (True) or closed it


def opens(panel_id: str) -> dict:
    """The ``custom_attrs`` of the button that opens and closes the panel ``panel_id``."""
    return {"popoverTarget": panel_id}


def panel(panel_id: str, label: str, *children: rx.Component, width: str = "auto",
          min_width: str = "220px", padding: str = "var(--space-4)", **props) -> rx.Component:
    """The panel: a dialog named ``label``, hidden until its button opens it (``open`` and
    ``on_open_change`` when a state holds whether it is open)."""
    return PopoverPanel.create(
        *children,
        id=panel_id,
        **props,
        custom_attrs={"role": "dialog", "aria-label": label, "className": "lv-pop",
                      "style": {"width": width, "minWidth": min_width, "padding": padding}},
    )
