// The map, loaded when it is wanted (issue 41): a box of the map's size stands in its place until it
// comes within a screen of the viewport, then Leaflet and the map (assets/lead_map.jsx) load and take
// the box's place. A page whose map is below the fold (the property page's Location card, on a phone)
// then spends nothing on Leaflet while it loads; a map on screen (the marketplace's map view) loads
// at once. Wrapped as a Reflex component in marketplace/features/marketplace/view_lead_map.py.
import { createElement, lazy, Suspense, useEffect, useRef, useState } from "react";
import "./lead_map.css";

const Map = lazy(() => import("./lead_map.jsx").then((module) => ({ default: module.LeadMap })));
// How far outside the viewport the map starts loading: about a phone screen, so it is there when
// the page is scrolled to it.
const AHEAD = "600px 0px";

function Placeholder({ boxRef, id, className }) {
  return createElement("div", { ref: boxRef, id, className, "data-map-deferred": "true" });
}

export function LeadMap(props) {
  const box = useRef(null);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return undefined;
    const element = box.current;
    if (!element || typeof IntersectionObserver === "undefined") {
      setWanted(true);
      return undefined;
    }
    const watcher = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setWanted(true);
        watcher.disconnect();
      }
    }, { rootMargin: AHEAD });
    watcher.observe(element);
    return () => watcher.disconnect();
  }, [wanted]);
  const placeholder = createElement(Placeholder, { boxRef: box, id: props.id, className: props.className });
  if (!wanted) return placeholder;
  return createElement(Suspense, { fallback: placeholder }, createElement(Map, props));
}
