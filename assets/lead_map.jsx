// The marketplace map (issue 15): Leaflet through react-leaflet, with
// leaflet.markercluster. Wrapped as a Reflex component in
// marketplace/features/marketplace/view_lead_map.py and loaded only when a map is shown, once it nears
// the viewport (assets/lead_map_deferred.jsx, which also brings lead_map.css).
//
// `points` is the compact payload of marketplace.features.marketplace.rules_map:
// {ids: [token, ...], coords: [lat, lng, lat, lng, ...], open: [positions of unlocked leads]}.
// Markers are made here, in plain Leaflet (one shared icon per kind), and
// clustered in chunks so that 10,000 leads never become 10,000 React trees.
import { createElement, useEffect, useRef } from "react";
import { MapContainer, TileLayer, useMap } from "react-leaflet";
import L from "leaflet";
import "leaflet/dist/leaflet.css";
import "leaflet.markercluster/dist/MarkerCluster.css";

// leaflet.markercluster extends the global `L`.
if (typeof window !== "undefined" && !window.L) window.L = L;
const clusterReady = import("leaflet.markercluster");

const US_CENTRE = [39.5, -98.35];
const PIN = [26, 26];

function pinIcon(kind) {
  return L.divIcon({
    className: `lv-map-pin lv-map-pin-${kind}`,
    html: "<span></span>",
    iconSize: PIN,
    iconAnchor: [PIN[0] / 2, PIN[1] / 2],
  });
}

function clusterIcon(cluster) {
  const count = cluster.getChildCount();
  const size = count < 10 ? "s" : count < 100 ? "m" : count < 1000 ? "l" : "xl";
  return L.divIcon({
    className: `lv-map-cluster lv-map-cluster-${size}`,
    html: `<span>${count.toLocaleString("en-US")}</span><span class="lv-sr-only"> leads, zoom in</span>`,
    iconSize: null,
  });
}

function fitTo(map, coords, single) {
  if (coords.length < 2) {
    map.setView(US_CENTRE, 4);
    return;
  }
  let south = 90, west = 180, north = -90, east = -180;
  for (let i = 0; i < coords.length; i += 2) {
    const lat = coords[i], lng = coords[i + 1];
    if (lat < south) south = lat;
    if (lat > north) north = lat;
    if (lng < west) west = lng;
    if (lng > east) east = lng;
  }
  if (south === north && west === east) {
    map.setView([south, west], single ? 15 : 12);
  } else {
    // Several points on a single (not clickable) map: the property and its comparable sales.
    map.fitBounds([[south, west], [north, east]], { padding: [24, 24], maxZoom: single ? 16 : 13 });
  }
}

function Markers({ points, fitKey, selected, single, onSelect, markerLabel }) {
  const map = useMap();
  const group = useRef(null);
  const byToken = useRef(new Map());
  const fitted = useRef(null);
  const icons = useRef(null);
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    let cancelled = false;
    const ids = (points && points.ids) || [];
    const coords = (points && points.coords) || [];
    const open = new Set((points && points.open) || []);
    if (!icons.current) {
      icons.current = { locked: pinIcon("locked"), open: pinIcon("open"), selected: pinIcon("selected") };
    }
    clusterReady.then(() => {
      if (cancelled) return;
      if (!group.current) {
        group.current = single
          ? L.layerGroup()
          : L.markerClusterGroup({
              chunkedLoading: true,
              chunkInterval: 100,
              showCoverageOnHover: false,
              spiderfyOnMaxZoom: true,
              spiderfyDistanceMultiplier: 1.6, // spread markers stay 24px+ targets apart
              maxClusterRadius: 60,
              iconCreateFunction: clusterIcon,
            });
        map.addLayer(group.current);
      }
      group.current.clearLayers();
      byToken.current = new Map();
      const markers = new Array(ids.length);
      for (let i = 0; i < ids.length; i++) {
        const token = ids[i];
        const unlocked = open.has(i);
        const marker = L.marker([coords[2 * i], coords[2 * i + 1]], {
          icon: token === selected ? icons.current.selected : unlocked ? icons.current.open : icons.current.locked,
          title: unlocked ? markerLabel.open : markerLabel.locked,
          keyboard: !single,
          interactive: !single,
        });
        marker.lvToken = token;
        marker.lvOpen = unlocked;
        // The lead's token on its element (tests and benchmarks find a marker by it).
        marker.on("add", () => {
          const el = marker.getElement();
          if (el) el.dataset.lead = token;
        });
        if (!single) {
          marker.on("click", () => select.current && select.current(token));
          // Leaflet 1.9 fires no "click" for Enter on a focused marker (only a bound popup
          // opens): Enter and Space open the card like a click, without scrolling the page.
          marker.on("keydown", (e) => {
            const ev = e.originalEvent;
            if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
            if (ev.key !== "Enter" && ev.key !== " " && ev.key !== "Spacebar") return;
            L.DomEvent.preventDefault(ev);
            if (!ev.repeat && select.current) select.current(token);
          });
        }
        markers[i] = marker;
        byToken.current.set(token, marker);
      }
      group.current.addLayers ? group.current.addLayers(markers) : markers.forEach((m) => group.current.addLayer(m));
      if (fitted.current !== fitKey) {
        fitted.current = fitKey;
        fitTo(map, coords, single);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [points, fitKey, single, map]);

  // The selected marker stands out; the others keep their kind.
  useEffect(() => {
    if (!icons.current) return;
    byToken.current.forEach((marker, token) => {
      const want = token === selected ? icons.current.selected : marker.lvOpen ? icons.current.open : icons.current.locked;
      if (marker.options.icon !== want) marker.setIcon(want);
    });
  }, [selected, points]);

  useEffect(() => () => {
    if (group.current) map.removeLayer(group.current);
  }, [map]);
  return null;
}

export function LeadMap({
  points, fitKey = "", selected = "", single = false, tileUrl = "", attribution = "",
  onSelect, lockedLabel = "Locked lead (ZIP code area)", openLabel = "Unlocked lead", id, className,
}) {
  const tiles = tileUrl
    ? createElement(TileLayer, { url: tileUrl, attribution, maxZoom: 19, crossOrigin: "anonymous" })
    : null;
  return createElement(
    MapContainer,
    {
      id,
      className,
      center: US_CENTRE,
      zoom: 4,
      minZoom: 2,
      maxZoom: 18,
      scrollWheelZoom: !single,
      worldCopyJump: true,
      attributionControl: true,
    },
    tiles,
    createElement(Markers, {
      points, fitKey, selected, single, onSelect,
      markerLabel: { locked: lockedLabel, open: openLabel },
    }),
  );
}
