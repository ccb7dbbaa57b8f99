/// The map page's script: plain JavaScript over Leaflet, the same for `mtt serve` (data from the
/// API, live through Server-Sent Events) and `mtt report` (data inlined as a JSON block).
///
/// Every string from the data (gateway ids come from whoever runs a gateway) goes into the page as
/// text, through DOM nodes: the script builds no HTML from data at all, and the page's
/// Content-Security-Policy refuses inline event handlers should anything slip through.
enum MapScript {
    static let text = #"""
(function () {
  'use strict';
  // Data blocks, not scripts: the policy lets only the page's own scripts run.
  function block(id) { var e = document.getElementById(id); return e ? JSON.parse(e.textContent) : null; }
  var config = block('mtt-config') || {};
  var embedded = block('mtt-data');
  var token = new URLSearchParams(location.search).get('token');
  var $ = function (id) { return document.getElementById(id); };
  // [colour, label] of TTN Mapper's bands, from the server (MTTCore's SignalBand).
  var BANDS = config.bands || [];

  function apiURL(path, params) {
    var url = new URL(path, location.href);
    Object.keys(params || {}).forEach(function (k) { if (params[k]) url.searchParams.set(k, params[k]); });
    if (token) url.searchParams.set('token', token);
    return url.toString();
  }
  function getJSON(path, params) {
    return fetch(apiURL(path, params)).then(function (r) {
      if (!r.ok) return r.text().then(function (t) { throw new Error(path + ': ' + r.status + ' ' + t); });
      return r.json();
    });
  }
  function text(value, unit) { return value === null || value === undefined ? '–' : value + (unit || ''); }
  // A reception that names no gateway (Packet Broker can leave the id out) still gets a name.
  function gatewayName(id) { return id ? id : '(unnamed gateway)'; }
  // An element with its children: strings become text nodes, never markup.
  function el(tag, children, className) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    });
    return e;
  }
  // A table from a header row and rows of cells (text or nodes).
  function fillTable(table, head, rows) {
    table.replaceChildren(el('tr', head.map(function (h) { return el('th', [h]); })));
    rows.forEach(function (r) { table.appendChild(el('tr', r.map(function (c) { return el('td', [c]); }))); });
  }
  function km(a, b) {
    var r = Math.PI / 180, dLat = (b[0] - a[0]) * r, dLon = (b[1] - a[1]) * r;
    var h = Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
    return 6371 * 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
  }

  var map = L.map('map', { preferCanvas: true, worldCopyJump: true });
  var renderer = L.canvas({ padding: 0.5 });
  if (config.tiles) {
    // Online, the map has streets; offline (the usual case in the field) the dots draw on the
    // plain background, with the scale.
    // The tiles' credit once one has loaded: offline, there is nobody's map to credit.
    var tiles = L.tileLayer(config.tiles, { maxZoom: 19 }).addTo(map);
    tiles.once('tileload', function () {
      if (config.attribution) { map.attributionControl.addAttribution(config.attribution); }
    });
  }
  L.control.scale({ imperial: false }).addTo(map);
  map.setView([52.09, 5.12], 12);
  var trackLayer = L.layerGroup().addTo(map);
  var dotLayer = L.layerGroup().addTo(map);
  var gatewayLayer = L.layerGroup().addTo(map);
  var linkLayer = L.layerGroup().addTo(map);
  var state = { features: [], bands: {}, gateways: {}, filter: {}, nodes: [], nodeNames: {}, places: [] };

  // Nodes mapping side by side send from the same places: each node's dots are drawn a few pixels
  // apart, left to right in the legend's order, at every zoom, so none hides another's.
  var SHIFT_PX = 10;
  var ShiftedDot = L.CircleMarker.extend({
    _project: function () {
      L.CircleMarker.prototype._project.call(this);
      if (this.options.shift) { this._point = this._point.add([this.options.shift, 0]); this._updateBounds(); }
    }
  });
  // A heard dot names the uplink's device, an unheard one the node: the DevEUI is what both share.
  function nodeKey(p) { return p.dev_eui || p.device || ''; }
  function nodeShift(p) {
    var n = state.nodes.length, i = state.nodes.indexOf(nodeKey(p));
    return n < 2 || i < 0 ? 0 : (i - (n - 1) / 2) * SHIFT_PX;
  }
  function noteNodes(features) {
    features.forEach(function (f) {
      var k = nodeKey(f.properties);
      if (state.nodeNames[k] === undefined) state.nodeNames[k] = f.properties.device || k;
    });
    state.nodes = Object.keys(state.nodeNames).sort();
  }

  function addFeature(f) {
    var c = f.geometry.coordinates, p = f.properties;
    var marker = new ShiftedDot([c[1], c[0]], {
      renderer: renderer, radius: 5, weight: 1, color: p.color === '#000000' ? '#ffffff' : '#333333',
      fillColor: p.color, fillOpacity: 1, shift: nodeShift(p)
    });
    marker.on('click', function () { details(f, marker); });
    marker.addTo(dotLayer);
    state.features.push(f);
    state.bands[p.color] = (state.bands[p.color] || 0) + 1;
  }

  // A live sample: a node not seen before moves every node's dots to their new places.
  function addLiveFeature(f) {
    var known = state.nodes.length;
    noteNodes([f]);
    if (state.nodes.length !== known) {
      drawSamples({ features: state.features.concat([f]) }, false);
    } else {
      addFeature(f);
      tables();
      showDrawn();
    }
  }

  // Places: dots within some 20 km of each other, so that a database of drives in two cities opens
  // on one of them (the one with the most dots), with a button to jump to each other one.
  var PLACE_DEG = 0.2;
  function findPlaces(features) {
    var cells = {}, parent = {};
    function find(k) { while (parent[k] !== k) { parent[k] = parent[parent[k]]; k = parent[k]; } return k; }
    features.forEach(function (f) {
      var c = f.geometry.coordinates, k = Math.floor(c[1] / PLACE_DEG) + ',' + Math.floor(c[0] / PLACE_DEG);
      (cells[k] || (cells[k] = [])).push(f);
      parent[k] = k;
    });
    Object.keys(cells).forEach(function (k) {
      var ij = k.split(',').map(Number);
      for (var di = -1; di <= 1; di++) for (var dj = -1; dj <= 1; dj++) {
        var n = (ij[0] + di) + ',' + (ij[1] + dj);
        if (parent[n] !== undefined) parent[find(n)] = find(k);
      }
    });
    var groups = {};
    Object.keys(cells).forEach(function (k) { var r = find(k); groups[r] = (groups[r] || []).concat(cells[k]); });
    return Object.keys(groups).map(function (r) {
      var fs = groups[r], lat = 0, lon = 0;
      fs.forEach(function (f) { lat += f.geometry.coordinates[1]; lon += f.geometry.coordinates[0]; });
      return { features: fs, count: fs.length, lat: lat / fs.length, lon: lon / fs.length };
    }).sort(function (a, b) { return b.count - a.count; });
  }
  function placeName(place) {
    return Math.abs(place.lat).toFixed(3) + '° ' + (place.lat < 0 ? 'S' : 'N') + ', ' + Math.abs(place.lon).toFixed(3) + '° ' + (place.lon < 0 ? 'W' : 'E');
  }
  // The dots of a place and the gateways that heard them (with a public position): who heard you from where.
  function showPlace(place) {
    var points = place.features.map(function (f) { return [f.geometry.coordinates[1], f.geometry.coordinates[0]]; });
    place.features.forEach(function (f) {
      (f.properties.heard_by || []).forEach(function (g) {
        if (g.lat !== undefined && g.lon !== undefined && g.lat !== null && g.lon !== null) points.push([g.lat, g.lon]);
      });
    });
    map.fitBounds(L.latLngBounds(points), { padding: [20, 20], maxZoom: 16 });
    state.place = place;
    summary();
  }
  function listPlaces() {
    var box = $('places');
    box.hidden = state.places.length < 2;
    box.replaceChildren(el('h2', ['Places']));
    state.places.forEach(function (place) {
      var button = el('button', [placeName(place) + ' · ' + place.count + ' dots'], 'place');
      button.type = 'button';
      button.addEventListener('click', function () { showPlace(place); });
      box.appendChild(button);
    });
  }
  map.on('moveend', function () { var c = map.getCenter(); $('drawn').dataset.view = c.lat.toFixed(3) + ',' + c.lng.toFixed(3); });

  function details(f, marker) {
    var p = f.properties, here = [f.geometry.coordinates[1], f.geometry.coordinates[0]];
    linkLayer.clearLayers();
    var rows = (p.heard_by || []).map(function (g) {
      var known = g.lat !== undefined && g.lon !== undefined;
      if (known) L.polyline([here, [g.lat, g.lon]], { renderer: renderer, color: p.color, weight: 2, opacity: 0.8 }).addTo(linkLayer);
      return [gatewayName(g.gateway), text(g.rssi, ' dBm'), text(g.snr, ' dB'), known ? km(here, [g.lat, g.lon]).toFixed(2) + ' km' : 'position not public'];
    });
    var box = el('div', [
      el('b', [p.time]), el('br'),
      p.status + (p.device ? ' · ' + p.device : '') + (p.f_cnt !== null ? ' · f_cnt ' + p.f_cnt : ''), el('br'),
      'SF ' + text(p.sf) + ' · RSSI ' + text(p.rssi, ' dBm') + ' · SNR ' + text(p.snr, ' dB')
    ]);
    if (rows.length) {
      var table = el('table', [], 'gw');
      fillTable(table, ['gateway', 'RSSI', 'SNR', 'distance'], rows);
      box.appendChild(table);
    }
    marker.bindPopup(box).openPopup();
  }

  function showDrawn() {
    var d = $('drawn');
    d.dataset.count = state.features.length;
    d.dataset.bands = JSON.stringify(state.bands);
    d.textContent = state.features.length + ' dots';
    // When the dots were drawn, for the benchmark of a page with 100,000 of them.
    d.dataset.drawnAt = String(Math.round(performance.now()));
  }

  function drawSamples(fc, fit) {
    dotLayer.clearLayers();
    linkLayer.clearLayers();
    state.features = [];
    state.bands = {};
    state.nodeNames = {};
    noteNodes(fc.features);
    fc.features.forEach(addFeature);
    state.places = findPlaces(fc.features);
    listPlaces();
    if (fit && state.places.length) showPlace(state.places[0]);
    tables();
    legend();
    showDrawn();
  }

  function drawTrack(fc) {
    trackLayer.clearLayers();
    fc.features.forEach(function (f) {
      var points = f.geometry.coordinates.map(function (c) { return [c[1], c[0]]; });
      if (points.length > 1) L.polyline(points, { renderer: renderer, color: '#555555', weight: 2, opacity: 0.6 }).addTo(trackLayer);
    });
  }

  function drawGateways(list) {
    gatewayLayer.clearLayers();
    state.gateways = {};
    // Named on the map while there are few enough to read; on hover beyond that.
    var placed = list.filter(function (g) { return g.lat !== null && g.lon !== null; });
    var labelled = placed.length <= 12;
    list.forEach(function (g) { state.gateways[g.gateway] = g; });
    placed.forEach(function (g) {
      L.circleMarker([g.lat, g.lon], { renderer: renderer, radius: 7, weight: 3, color: '#000000', fillColor: '#ffffff', fillOpacity: 1 })
        .bindTooltip(el('span', [gatewayName(g.gateway)]), { permanent: labelled, direction: 'right', offset: [8, 0] }).addTo(gatewayLayer);
    });
    fillTable($('gateways'), ['gateway', 'uplinks', 'best RSSI', 'best SNR', 'position'], list.map(function (g) {
      return [gatewayName(g.gateway), g.uplinks, text(g.best_rssi, ' dBm'), text(g.best_snr, ' dB'), g.lat !== null ? g.lat.toFixed(4) + ', ' + g.lon.toFixed(4) : 'not public'];
    }));
  }

  function tables() {
    var bySF = {};
    state.features.forEach(function (f) {
      var sf = f.properties.sf === null ? '?' : 'SF' + f.properties.sf;
      var row = bySF[sf] || (bySF[sf] = { heard: 0, other: 0 });
      if (f.properties.status === 'heard') row.heard++; else row.other++;
    });
    fillTable($('sfs'), ['SF', 'heard', 'not heard'], Object.keys(bySF).sort().map(function (k) {
      return [k, bySF[k].heard, bySF[k].other];
    }));
  }

  function legend() {
    $('legend').replaceChildren(el('h2', ['RSSI + min(SNR, 0)']));
    BANDS.forEach(function (b) {
      var swatch = el('span', [], 'swatch');
      swatch.style.background = b[0];
      $('legend').appendChild(el('div', [swatch, b[1]]));
    });
    $('legend').appendChild(el('div', [el('span', [], 'swatch gateway'), 'gateway that heard you']));
    if (state.nodes.length > 1) {
      $('legend').appendChild(el('div', ['Nodes, side by side from left to right: ' + state.nodes.map(function (k) { return state.nodeNames[k]; }).join(', ')]));
    }
  }

  // Under the title: where, and the totals of what the page shows.
  function summary() {
    var st = state.store, parts = [];
    if (state.place) parts.push('around ' + placeName(state.place));
    if (st) {
      var sent = st.confirmed + st.failed;
      parts.push(st.attempts + ' attempts', st.heard + ' heard', 'loss ' + (sent > 0 ? (100 * (sent - st.heard) / sent).toFixed(0) + ' %' : 'n/a'));
      parts.push(st.samples + ' samples', Object.keys(state.gateways).length + ' gateways');
    }
    $('summary').textContent = parts.join(' · ');
  }

  function renderStatus(s) {
    var st = s.store, run = s.run, lines = [];
    if (run) {
      lines.push(['GPS', run.gps + (run.fix ? ' · ' + run.fix.lat.toFixed(5) + ', ' + run.fix.lon.toFixed(5) + (run.fix.satellites ? ' · ' + run.fix.satellites + ' sats' : '') : '')]);
      lines.push(['Network', run.network]);
      lines.push(['Last attempt', run.last_attempt ? run.last_attempt.time + ' by ' + run.last_attempt.node : '–']);
      lines.push(['Last heard', run.last_success ? run.last_success.time + ' · ' + text(run.last_success.rssi, ' dBm') + ' · ' + run.last_success.gateways + ' gw' : '–']);
      lines.push(['This run', run.attempts + ' attempts · ' + run.confirmed + ' sent · ' + run.heard + ' heard · loss ' + (run.loss_percent === null || run.loss_percent === undefined ? 'n/a' : run.loss_percent.toFixed(0) + ' %')]);
    }
    (st.nodes || []).forEach(function (n) {
      lines.push(['Node ' + n.node, (n.state === 'connected' ? 'connected' : 'LOST: ' + (n.reason || '')) + ' · ' + n.reconnects + ' reconnects']);
    });
    lines.push(['Stored', st.attempts + ' attempts · ' + st.heard + ' heard · ' + st.uplinks + ' uplinks · ' + st.samples + ' samples']);
    var loss = st.confirmed + st.failed > 0 ? (100 * (st.confirmed + st.failed - st.heard) / (st.confirmed + st.failed)).toFixed(0) + ' %' : 'n/a';
    lines.push(['Loss', loss]);
    lines.push(['To upload', Object.keys(st.unsynced).sort().map(function (k) { return k + ' ' + st.unsynced[k]; }).join(' · ')]);
    lines.push(['Updated', s.time]);
    state.store = st;
    summary();
    var box = $('status');
    box.replaceChildren(el('h2', ['Status']), el('table', lines.map(function (l) { return el('tr', [el('th', [l[0]]), el('td', [l[1]])]); })));
    box.dataset.updates = String(Number(box.dataset.updates || 0) + 1);
    box.dataset.attempts = String(st.attempts);
    box.dataset.samples = String(st.samples);
  }

  function matchesFilter(f) {
    var p = f.properties, filter = state.filter;
    if (filter.session && String(p.session) !== String(filter.session)) return false;
    if (filter.since && p.time < filter.since) return false;
    if (filter.until && p.time > filter.until) return false;
    return true;
  }

  function readFilter() {
    var iso = function (v) { return v ? new Date(v).toISOString() : ''; };
    state.filter = { session: $('session').value, since: iso($('since').value), until: iso($('until').value) };
  }

  function problem(e) { $('problem').textContent = String(e && e.message || e); }

  function load(fit) {
    if (embedded) {
      drawTrack(embedded.track);
      drawGateways(embedded.gateways);
      drawSamples(embedded.samples, fit);
      renderStatus(embedded.status);
      return Promise.resolve();
    }
    var params = state.filter;
    return Promise.all([getJSON('api/track.geojson', params), getJSON('api/gateways', params), getJSON('api/samples.geojson', params)])
      .then(function (r) { drawTrack(r[0]); drawGateways(r[1]); drawSamples(r[2], fit); $('problem').textContent = ''; })
      .catch(problem);
  }

  function sessions(list) {
    $('session').replaceChildren(new Option('all sessions', ''));
    list.forEach(function (s) {
      $('session').appendChild(new Option(s.id + ' · ' + s.mode + ' · ' + s.started_at.slice(0, 16).replace('T', ' '), String(s.id)));
    });
  }

  // An event's link (a hook's notification) names its place: #at=LAT,LON centres the map there.
  var focusMarker = null;
  function focusFromHash() {
    var m = /(?:^#|&)at=(-?[0-9.]+),(-?[0-9.]+)/.exec(location.hash);
    if (!m) return false;
    var here = [Number(m[1]), Number(m[2])];
    if (focusMarker) focusMarker.remove();
    focusMarker = L.circleMarker(here, { radius: 14, weight: 3, color: '#d40000', fill: false }).addTo(map);
    map.setView(here, 16);
    $('drawn').dataset.focus = here.join(',');
    return true;
  }
  window.addEventListener('hashchange', focusFromHash);

  legend();
  $('apply').addEventListener('click', function () { readFilter(); load(true); });
  var focused = focusFromHash();
  if (embedded) {
    sessions(embedded.sessions);
    $('filters').hidden = true;
    load(!focused);
  } else {
    getJSON('api/sessions').then(sessions).catch(problem);
    load(!focused);
    getJSON('api/status').then(function (s) { renderStatus({ store: s, run: null, time: new Date().toISOString() }); }).catch(problem);
    if (window.EventSource) {
      var events = new EventSource(apiURL('api/events'));
      events.addEventListener('status', function (e) { renderStatus(JSON.parse(e.data)); });
      events.addEventListener('sample', function (e) {
        var f = JSON.parse(e.data);
        if (matchesFilter(f)) addLiveFeature(f);
      });
    }
  }
})();
"""#
}
