"""``deferred(*children)``: a section rendered after the page's first screen (issue 41).

It renders nothing when its page renders, then its children in a task of the browser's of its own;
several deferred sections render one after the other, in page order (``assets/deferred.jsx``). A page
whose data arrives in one piece (the property page) then paints what is at the top first and never
blocks a phone's main thread with the whole page in one task. For content below the first screen
only: a deferred section is not in the prerendered HTML and appears a few milliseconds after the rest.
"""

from __future__ import annotations

import reflex as rx


class Deferred(rx.Component):
    library = "$/public/deferred.jsx"
    tag = "Deferred"


def deferred(*children: rx.Component) -> rx.Component:
    return Deferred.create(*children)
