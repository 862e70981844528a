/* The academic map page: world -> country -> city -> institution -> researchers.
 *
 * Data comes from the inline <script id="map-data"> (the server and the CLI inject map.json there),
 * or from the URL given as ?data=..., or from "map.json" next to the page. Country shapes come from
 * the bundled world-atlas TopoJSON, so the map renders with no network; web tiles are an optional
 * layer the user switches on. `window.scholarMap` exposes the drill-down for tests and scripts.
 */
(function () {
  "use strict";

  var BREAKS = [1, 2, 5, 10, 25, 50];
  var COLOURS = ["#f2f0f7", "#dadaeb", "#bcbddc", "#9e9ac8", "#807dba", "#6a51a3", "#4a1486"];
  var EMPTY = "#f4f4f2";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function colour(count) {
    if (!count) return EMPTY;
    var index = 0;
    while (index < BREAKS.length && count >= BREAKS[index]) index++;
    return COLOURS[index];
  }

  // Rings that cross the antimeridian (Russia, Fiji) jump from +180 to -180 and would be drawn as a
  // band across the world: keep each ring continuous by shifting longitudes by 360 where they jump.
  function unwrapRing(ring) {
    var out = [];
    var shift = 0;
    for (var i = 0; i < ring.length; i++) {
      if (i > 0) {
        var step = ring[i][0] + shift - out[i - 1][0];
        if (step > 180) shift -= 360; else if (step < -180) shift += 360;
      }
      out.push([ring[i][0] + shift, ring[i][1]]);
    }
    return out;
  }

  function unwrap(feature) {
    var g = feature.geometry;
    if (!g) return feature;
    if (g.type === "Polygon") g.coordinates = g.coordinates.map(unwrapRing);
    else if (g.type === "MultiPolygon") g.coordinates = g.coordinates.map(function (p) { return p.map(unwrapRing); });
    return feature;
  }

  function inlineJson(id) {
    var node = document.getElementById(id);
    var text = node && node.textContent.trim();
    return text ? JSON.parse(text) : null;
  }

  function loadJson(inlineId, url) {
    var data = inlineJson(inlineId);
    if (data) return Promise.resolve(data);
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      return response.json();
    });
  }

  function start(data, world) {
    var map = L.map("map", { worldCopyJump: true, minZoom: 1, maxZoom: 14, zoomSnap: 0.25, preferCanvas: false });
    var tiles = L.tileLayer("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", {
      attribution: "&copy; OpenStreetMap contributors", maxZoom: 18
    });
    var countriesByCode = {};
    var countriesByNumeric = {};
    data.countries.forEach(function (country) {
      countriesByCode[country.code] = country;
      if (country.iso_numeric) countriesByNumeric[country.iso_numeric] = country;
    });
    var institutionsById = {};
    function indexInstitution(node, country, city) {
      institutionsById[node.id] = { node: node, country: country, city: city };
    }
    data.countries.forEach(function (country) {
      country.cities.forEach(function (city) {
        city.institutions.forEach(function (node) { indexInstitution(node, country, city); });
      });
      country.unplaced_institutions.forEach(function (node) { indexInstitution(node, country, null); });
    });
    (data.unplaced_institutions || []).forEach(function (node) { indexInstitution(node, null, null); });

    // -- country shapes (offline) -----------------------------------------------------------------
    var shapes = {};
    var features = topojson.feature(world, world.objects.countries).features
      .filter(function (f) { return f.id !== "010"; })  // Antarctica: no institutions, and it wraps the pole
      .map(unwrap);
    var shapeLayer = L.geoJSON(features, {
      style: function (feature) {
        var country = countriesByNumeric[feature.id];
        return { color: "#7d8797", weight: 0.6, fillOpacity: 0.85, fillColor: colour(country && country.researcher_count) };
      },
      onEachFeature: function (feature, layer) {
        var country = countriesByNumeric[feature.id];
        if (feature.id) shapes[feature.id] = layer;
        layer.on("add", function () {
          var path = layer.getElement && layer.getElement();
          if (!path) return;
          path.classList.add("country-shape");
          path.setAttribute("data-iso", feature.id || "");
          if (country) path.setAttribute("data-country", country.code);
        });
        var name = (country && country.name) || (feature.properties && feature.properties.name) || "";
        layer.bindTooltip(name + (country ? ": " + plural(country.researcher_count, "researcher") : ""), { sticky: true });
        if (country) layer.on("click", function () { showCountry(country.code); });
      }
    }).addTo(map);

    var markers = L.layerGroup().addTo(map);
    // Institutions that share a point (a city centroid) are spread on a circle whose size is in screen
    // pixels, at every zoom, so each marker can be seen and clicked on its own.
    var spreadMarkers = [];
    function spread() {
      spreadMarkers.forEach(function (entry) {
        var centre = map.latLngToLayerPoint(entry.base);
        var radiusPx = 12 + 3 * entry.count;
        var angle = (2 * Math.PI * entry.index) / entry.count - Math.PI / 2;
        entry.marker.setLatLng(map.layerPointToLatLng(centre.add(L.point(radiusPx * Math.cos(angle), radiusPx * Math.sin(angle)))));
      });
    }
    map.on("zoomend", spread);
    var state = { level: "world", country: null, city: null, institution: null };

    // -- panel ------------------------------------------------------------------------------------
    var list = document.getElementById("list");
    var listTitle = document.getElementById("list-title");
    var unplacedSection = document.getElementById("unplaced-section");
    var unplacedList = document.getElementById("unplaced");
    var details = document.getElementById("details");

    function item(className, dataName, dataValue, label, count, onClick) {
      var li = el("li", { className: className, tabindex: "0" }, [el("span", { className: "label", text: label }), el("span", { className: "count", text: count })]);
      li.setAttribute(dataName, dataValue);
      li.addEventListener("click", onClick);
      li.addEventListener("keydown", function (event) { if (event.key === "Enter") onClick(); });
      return li;
    }

    function breadcrumb() {
      var nav = document.getElementById("breadcrumb");
      nav.textContent = "";
      var parts = [["World", showWorld]];
      if (state.country) {
        var country = countriesByCode[state.country];
        parts.push([country.name, function () { showCountry(country.code); }]);
      }
      if (state.city) parts.push([state.city.name, null]);
      parts.forEach(function (part, index) {
        if (index) nav.appendChild(el("span", { className: "sep", text: "›" }));
        if (part[1] && index < parts.length - 1) {
          var link = el("a", { text: part[0], "data-level": index === 0 ? "world" : "country" });
          link.addEventListener("click", part[1]);
          nav.appendChild(link);
        } else {
          nav.appendChild(el("span", { className: "current", text: part[0] }));
        }
      });
    }

    function fillUnplaced(nodes) {
      unplacedList.textContent = "";
      unplacedSection.hidden = !nodes.length;
      nodes.forEach(function (node) {
        unplacedList.appendChild(item("institution-item unplaced", "data-institution-id", node.id, node.name,
          plural(node.researcher_count, "researcher"), function () { showInstitution(node.id); }));
      });
    }

    function radius(count, scale) { return Math.max(5, Math.min(28, scale * Math.sqrt(count || 1))); }

    // -- levels -----------------------------------------------------------------------------------
    function showWorld() {
      state = { level: "world", country: null, city: null, institution: null };
      map.closePopup();
      markers.clearLayers();
      spreadMarkers = [];
      details.hidden = true;
      listTitle.textContent = "Countries";
      list.textContent = "";
      data.countries.forEach(function (country) {
        list.appendChild(item("country-item", "data-country", country.code, country.name,
          plural(country.researcher_count, "researcher"), function () { showCountry(country.code); }));
        // a dot too, so countries too small for the 1:110m shapes (Singapore, Hong Kong) can be found
        var points = country.cities.filter(function (c) { return c.latitude !== null; });
        if (points.length && !shapes[country.iso_numeric]) {
          var lat = points.reduce(function (s, c) { return s + c.latitude; }, 0) / points.length;
          var lon = points.reduce(function (s, c) { return s + c.longitude; }, 0) / points.length;
          L.circleMarker([lat, lon], { radius: radius(country.researcher_count, 3), className: "country-marker", color: "#4a1486", fillColor: colour(country.researcher_count), fillOpacity: 0.9, weight: 1 })
            .bindTooltip(country.name + ": " + plural(country.researcher_count, "researcher"))
            .on("click", function () { showCountry(country.code); }).addTo(markers);
        }
      });
      fillUnplaced(data.unplaced_institutions || []);
      breadcrumb();
      map.fitBounds([[-55, -170], [75, 180]]);
    }

    function showCountry(code) {
      var country = countriesByCode[code];
      if (!country) return;
      state = { level: "country", country: code, city: null, institution: null };
      map.closePopup();
      markers.clearLayers();
      spreadMarkers = [];
      details.hidden = true;
      listTitle.textContent = "Cities in " + country.name;
      list.textContent = "";
      var bounds = [];
      country.cities.forEach(function (city) {
        list.appendChild(item("city-item", "data-city", city.name, city.name,
          plural(city.researcher_count, "researcher") + " · " + plural(city.institution_count, "institution"),
          function () { showCity(code, city.name); }));
        if (city.latitude === null) return;
        bounds.push([city.latitude, city.longitude]);
        var marker = L.circleMarker([city.latitude, city.longitude], {
          radius: radius(city.researcher_count, 4), className: "city-marker", color: "#1f4e99", fillColor: "#3b7dd8", fillOpacity: 0.75, weight: 1
        }).bindTooltip(city.name + ": " + plural(city.researcher_count, "researcher"));
        marker.on("add", function () { var p = marker.getElement(); if (p) p.setAttribute("data-city", city.name); });
        marker.on("click", function () { showCity(code, city.name); });
        marker.addTo(markers);
      });
      fillUnplaced(country.unplaced_institutions);
      breadcrumb();
      var shape = shapes[country.iso_numeric];
      if (shape) map.fitBounds(shape.getBounds(), { maxZoom: 6, padding: [20, 20] });
      else if (bounds.length) map.fitBounds(L.latLngBounds(bounds).pad(0.5), { maxZoom: 8 });
    }

    function showCity(code, cityName) {
      var country = countriesByCode[code];
      var city = country && country.cities.filter(function (c) { return c.name === cityName; })[0];
      if (!city) return;
      state = { level: "city", country: code, city: city, institution: null };
      map.closePopup();
      markers.clearLayers();
      spreadMarkers = [];
      details.hidden = true;
      listTitle.textContent = "Institutions in " + city.name;
      list.textContent = "";
      var bounds = [];
      var groups = {};  // "lat,lon" -> institutions placed at that same point (often a city centroid)
      city.institutions.forEach(function (node) {
        var key = node.latitude + "," + node.longitude;
        (groups[key] = groups[key] || []).push(node);
      });
      city.institutions.forEach(function (node, index) {
        list.appendChild(item("institution-item", "data-institution-id", node.id, node.name,
          plural(node.researcher_count, "researcher"), function () { showInstitution(node.id); }));
        var point = [node.latitude, node.longitude];
        bounds.push(point);
        var marker = L.circleMarker(point, {
          radius: radius(node.researcher_count, 4), className: "institution-marker", color: "#8a3b00", fillColor: "#f08c2e", fillOpacity: 0.85, weight: 1
        }).bindTooltip(node.name);
        marker.bindPopup(function () { return popupContent(node); }, { maxWidth: 480, minWidth: 280 });
        marker.on("add", function () { var p = marker.getElement(); if (p) p.setAttribute("data-institution-id", node.id); });
        marker.addTo(markers);
        node._marker = marker;
        var group = groups[node.latitude + "," + node.longitude];
        if (group.length > 1) spreadMarkers.push({ marker: marker, base: L.latLng(point), index: group.indexOf(node), count: group.length });
      });
      fillUnplaced([]);
      breadcrumb();
      if (bounds.length) map.fitBounds(L.latLngBounds(bounds).pad(0.6), { maxZoom: 7 });
      spread();  // again on zoomend when fitting the bounds changed the zoom
    }

    function popupContent(node) {
      var meta = [node.city, node.country].filter(Boolean).join(", ");
      var box = el("div", { className: "institution-popup", "data-institution-id": node.id }, [
        el("h3", { text: node.name }),
        el("div", { className: "meta", text: meta + (node.ror ? " · ROR " + node.ror : "") + " · " + plural(node.paper_count, "paper") + " in this Run" })
      ]);
      if (!node.researchers.length) {
        box.appendChild(el("p", { text: "No researchers of this institution in this Run." }));
        return box;
      }
      var head = el("tr", {}, ["Researcher", "PI", "Career", "Research in this Run"].map(function (t) { return el("th", { text: t }); }));
      var body = node.researchers.map(function (r) {
        var pct = Math.round(r.pi_confidence * 100) + "%";
        var pi = el("td", { className: r.is_pi ? "pi-yes" : "pi-no", title: (r.pi_reasons || []).join("; "), text: (r.is_pi ? "Yes" : "No") + " (" + pct + ")" });
        return el("tr", { className: "researcher", "data-researcher-id": r.id }, [
          el("td", { className: "name", text: r.name }), pi,
          el("td", { className: "career", text: r.career_label || "" }),
          el("td", { className: "summary", text: r.summary || "" })
        ]);
      });
      box.appendChild(el("table", { className: "researchers" }, [el("thead", {}, [head]), el("tbody", {}, body)]));
      return box;
    }

    function showInstitution(id) {
      var found = institutionsById[id];
      if (!found) return;
      var node = found.node;
      if (found.city && node.latitude !== null) {
        if (!state.city || state.city.name !== found.city.name || state.country !== found.country.code) {
          showCity(found.country.code, found.city.name);
        }
        state.institution = id;
        found.node._marker.openPopup();
        return;
      }
      // no coordinates: the researchers are shown in the panel instead of a popup
      state.institution = id;
      details.textContent = "";
      details.appendChild(popupContent(node));
      details.hidden = false;
      details.scrollIntoView({ block: "nearest" });
    }

    // -- header, legend, tiles ------------------------------------------------------------------------
    document.getElementById("run-label").textContent = "Run " + data.run_id;
    document.getElementById("scope-note").textContent = data.note;
    var c = data.counts;
    document.getElementById("counts").textContent = plural(c.researchers, "researcher") + " · " +
      plural(c.institutions, "institution") + " (" + c.unplaced_institutions + " without coordinates) · " +
      plural(c.countries, "country").replace("countrys", "countries") + " · " + plural(c.papers, "paper") +
      " · researchers are counted per institution";
    var legend = document.getElementById("legend");
    legend.appendChild(el("div", { text: "Researchers per country" }));
    [[0, "none"]].concat(BREAKS.map(function (b, i) {
      var upper = BREAKS[i + 1] ? BREAKS[i + 1] - 1 : null;
      return [b, upper === null ? b + "+" : upper === b ? String(b) : b + "–" + upper];
    })).forEach(function (entry) {
      var swatch = el("span", { className: "swatch" });
      swatch.style.background = colour(entry[0]);
      legend.appendChild(el("div", {}, [swatch, entry[1]]));
    });
    document.getElementById("notes").textContent = (data.notes || []).join(" · ");
    var toggle = document.getElementById("tiles-toggle");
    toggle.addEventListener("change", function () {
      if (toggle.checked) tiles.addTo(map); else map.removeLayer(tiles);
    });
    if (new URLSearchParams(location.search).get("tiles") === "1") { toggle.checked = true; tiles.addTo(map); }

    showWorld();
    window.scholarMap = {
      map: map, data: data, state: function () { return state; },
      showWorld: showWorld, showCountry: showCountry, showCity: showCity, showInstitution: showInstitution,
      ready: true
    };
    document.body.setAttribute("data-ready", "true");
  }

  function fail(error) {
    var note = document.getElementById("scope-note");
    note.textContent = "The map could not be loaded: " + error.message;
    note.classList.add("error");
    document.body.setAttribute("data-ready", "error");
  }

  var params = new URLSearchParams(location.search);
  var worldNode = document.getElementById("world-data");
  Promise.all([
    loadJson("map-data", params.get("data") || "map.json"),
    loadJson("world-data", worldNode.getAttribute("data-src"))
  ]).then(function (loaded) { start(loaded[0], loaded[1]); }).catch(fail);
})();
