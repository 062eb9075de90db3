// A panel that opens from a button as the browser's own popover (issue 41), wrapped as a Reflex component
// in marketplace/platform/ui/popover.py. The browser shows it in its top layer, closes it on Escape, on a
// click outside and when another opens; nothing of it but an empty <div popover> renders with the page:
// its content renders the first time it opens (synchronously, before it shows) and stays rendered; a state
// may hold whether it is open (``open``, ``onOpenChange`` told each time the user opens or closes it). Open,
// it sits below its button (6 px apart), inside the viewport (8 px margins; never above it: a tall panel
// is no taller than the room below and scrolls inside), and follows its button on scroll and resize.
import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

function place(panel) {
  const button = document.querySelector('[popovertarget="' + panel.id + '"]');
  if (!button) return;
  const box = button.getBoundingClientRect();
  const top = box.bottom + 6;
  panel.style.top = top + "px";
  panel.style.maxHeight = Math.max(120, window.innerHeight - top - 8) + "px";
  panel.style.left = Math.max(8, Math.min(box.left, window.innerWidth - panel.offsetWidth - 8)) + "px";
}

export function PopoverPanel({ children, ref: outer, open, onOpenChange, ...props }) {
  const [shown, setShown] = useState(false);
  const ref = useRef(null);
  const told = useRef(onOpenChange); // the latest handler (a state's event): told when the user opens or closes it
  told.current = onOpenChange;
  // Reflex's ref (the element id's) and this panel's own.
  const both = useCallback((node) => {
    ref.current = node;
    if (typeof outer === "function") outer(node);
    else if (outer) outer.current = node;
  }, [outer]);
  useEffect(() => {
    const panel = ref.current;
    if (!panel) return undefined;
    const again = () => panel.matches(":popover-open") && place(panel);
    const before = (event) => {
      if (event.newState !== "open") return;
      flushSync(() => setShown(true));
      place(panel);
    };
    const toggled = (event) => {
      if (event.newState === "open") place(panel); // its width is known once shown
      if (told.current) told.current(event.newState === "open");
    };
    panel.addEventListener("beforetoggle", before);
    panel.addEventListener("toggle", toggled);
    window.addEventListener("resize", again, { passive: true });
    window.addEventListener("scroll", again, { passive: true, capture: true });
    return () => {
      panel.removeEventListener("beforetoggle", before);
      panel.removeEventListener("toggle", toggled);
      window.removeEventListener("resize", again);
      window.removeEventListener("scroll", again, { capture: true });
    };
  }, []);
  // A state that holds the panel open or closed (``open``) opens and closes it.
  useEffect(() => {
    const panel = ref.current;
    if (!panel || open === undefined || open === null) return;
    const isOpen = panel.matches(":popover-open");
    if (open && !isOpen) panel.showPopover();
    else if (!open && isOpen) panel.hidePopover();
  }, [open]);
  return (
    <div {...props} ref={both} popover="auto">
      {shown ? children : null}
    </div>
  );
}
