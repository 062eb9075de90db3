// Sections rendered after the page's first screen (issue 41): a Deferred section renders nothing when
// the page renders, then its content in a task of its own, sections one after the other in page order.
// A page whose data brings the whole page at once (the property page: its photos, figures, comps,
// deal desk, owner contact and pipeline) then never renders it in one piece, during which a phone
// answers no tap. Wrapped as a Reflex component in marketplace/platform/ui/deferred.py.
import { useEffect, useRef, useState } from "react";

// Sections waiting to render, in the order they mounted (page order), and the one rendering now (until
// its commit is done, or it unmounts).
const waiting = [];
let current = null;

function next() {
  current = waiting.shift() || null;
  const show = current;
  if (show) setTimeout(() => current === show && show(), 0);
}

function enqueue(show) {
  waiting.push(show);
  if (!current) next();
}

function done(show) {
  if (current === show) next();
}

function drop(show) {
  const at = waiting.indexOf(show);
  if (at >= 0) waiting.splice(at, 1);
  done(show);
}

export function Deferred({ children }) {
  const [shown, setShown] = useState(false);
  const show = useRef(null);
  useEffect(() => {
    const mine = () => setShown(true);
    show.current = mine;
    enqueue(mine);
    return () => drop(mine);
  }, []);
  // Once this section's commit is done, the next one may render.
  useEffect(() => {
    if (shown) done(show.current);
  }, [shown]);
  return shown ? children : null;
}
