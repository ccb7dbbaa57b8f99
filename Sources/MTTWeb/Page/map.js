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
    Object.keys(params || {}).forEach(function (k) {
      var v = params[k];
      if (v !== '' && v !== null && v !== undefined) url.searchParams.set(k, v);
    });
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
  // The header wraps as its lists fill; the map keeps its centre when its box changes with it.
  if (window.ResizeObserver) new ResizeObserver(function () { map.invalidateSize(); }).observe($('map'));
  map.setView([52.09, 5.12], 12);
  var trackLayer = L.layerGroup().addTo(map);
  var dotLayer = L.layerGroup().addTo(map);
  var gatewayLayer = L.layerGroup().addTo(map);
  var linkLayer = L.layerGroup().addTo(map);
  var cellLayer = L.layerGroup();
  // Tiles nobody measured, predicted (mtt coverage predict): under the measured cells, pale and
  // dashed, never one of them.
  var predictedLayer = L.layerGroup();
  var reachLayer = L.layerGroup().addTo(map);
  // What changed since a day (box "changes since", mtt coverage diff): outlines over the rest.
  var diffLayer = L.layerGroup().addTo(map);
  // `all`: every dot loaded; `features`: the ones drawn (the device filter's).
  var state = { all: [], features: [], bands: {}, gateways: {}, filter: {}, nodes: [], nodeNames: {}, places: [] };

  // Nodes mapping side by side send from the same places: each node's dots are drawn a few pixels
  // apart, left to right in the legend's order, at every zoom, so none hides another's. A fleet of
  // trackers is not side by side: past a few devices, dots are drawn where they are.
  var SHIFT_PX = 10, SIDE_BY_SIDE = 8;
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
    return n < 2 || n > SIDE_BY_SIDE || i < 0 ? 0 : (i - (n - 1) / 2) * SHIFT_PX;
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

  // The device filter: a device id or DevEUI, or nothing for every device.
  function shownDevice(p) {
    var d = $('device-filter').value.trim();
    return !d || p.device === d || p.dev_eui === d;
  }

  // Each device with its dots, most first: a fleet's hundreds are listed by the 20 that sent most,
  // all of them offered by the filter as it is typed.
  var DEVICES_LISTED = 20;
  function listDevices() {
    var counts = {};
    state.all.forEach(function (f) { var d = f.properties.device || f.properties.dev_eui; if (d) counts[d] = (counts[d] || 0) + 1; });
    var names = Object.keys(counts).sort();
    $('device-list').replaceChildren();
    names.forEach(function (d) { $('device-list').appendChild(new Option(d, d)); });
    $('devices').hidden = names.length < 2;
    var most = names.slice().sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
    var rows = most.slice(0, DEVICES_LISTED).map(function (d) {
      var pick = el('a', [d]);
      pick.href = '#';
      pick.addEventListener('click', function (e) { e.preventDefault(); $('device-filter').value = d; deviceChanged(); });
      return [pick, counts[d]];
    });
    if (most.length > DEVICES_LISTED) rows.push(['… ' + (most.length - DEVICES_LISTED) + ' more: type one in Device', '']);
    fillTable($('device-table'), [names.length + ' devices', 'dots'], rows);
  }

  function deviceChanged() {
    drawSamples({ features: state.all }, false);
  }

  // A live sample: a node not seen before moves every node's dots to their new places.
  function addLiveFeature(f) {
    state.all.push(f);
    if (!shownDevice(f.properties)) return;
    var known = state.nodes.length;
    noteNodes([f]);
    if (state.nodes.length !== known) {
      drawSamples({ features: state.all }, false);
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

  // Coverage. Below DOT_ZOOM the map draws cells: TTN Mapper's zoom-19 tiles summed into tiles
  // CELL_ZOOM_STEP zooms finer than the view (about 8 px wide), so a city reads as areas; from
  // DOT_ZOOM on, the dots of each attempt and sample.
  // A community's map has no dots (nobody's drive is served): cells at every zoom.
  var community = config.community === true;
  var DOT_ZOOM = community ? Infinity : 16, CELL_ZOOM_STEP = 5;
  // [name, colour, range] of each signal bucket by index, and the colours of cells nobody heard,
  // from the server (MTTCore's SignalBucket and CoverageLayer), as the bands are.
  var BUCKETS = config.buckets || [], UNHEARD = config.unheard || {};
  var cellRequest = 0, cellTimer = null;

  // Where cells, a cell's gateways and a gateway's reach come from: the server's aggregates, or,
  // in a report (offline), the zoom-19 rows the report carries, summed here as the server sums them.
  var coverage = embedded ? reportCoverage(embedded.coverage || { cells: [], antennas: [], attempts: [], reach: { features: [] } }) : {
    cells: function (z, box, f) { return getJSON('api/cells', Object.assign({ z: z, bbox: box.join(',') }, state.filter, f)); },
    cell: function (p, f) { return getJSON('api/cell', Object.assign({ z: p.z, x: p.x, y: p.y }, state.filter, f)); },
    reach: function (gateway) { return getJSON('api/reach', { gateway: gateway }); }
  };

  // A report's rows: cells [x, y, antenna, sf, last, best, best bucket, counts by bucket…] and
  // attempts [x, y, sf, attempts, heard, network known, last], times in seconds. The answers have
  // the shape of /api/cells and /api/cell.
  function reportCoverage(data) {
    var COUNTS = 7;
    function kept(row, f, sfAt, antennaAt) {
      if (f.sf && String(row[sfAt]) !== String(f.sf)) return false;
      return antennaAt === undefined || !f.gateway || data.antennas[row[antennaAt]].gateway === f.gateway;
    }
    function zeros() { return BUCKETS.map(function () { return 0; }); }
    function named(counts) {
      var b = {};
      counts.forEach(function (n, i) { if (n > 0) b[BUCKETS[i][0]] = n; });
      return b;
    }
    function total(counts) { return counts.reduce(function (a, b) { return a + b; }, 0); }
    function iso(seconds) { return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'); }
    return {
      cells: function (z, box, f) {
        var k = 19 - z, tiles = {};
        function tile(row) {
          var x = row[0] >> k, y = row[1] >> k, key = x + ',' + y;
          return tiles[key] || (tiles[key] = { z: z, x: x, y: y, counts: zeros(), best: null, bestBucket: null, gateways: 0, attempts: 0, heard: 0, estimated: 0, known: false, last: 0 });
        }
        // A tile's gateways: the most that heard you in any one of its zoom-19 cells.
        var heardIn = {};
        data.cells.forEach(function (r) {
          if (!kept(r, f, 3, 2)) return;
          var t = tile(r), cell = heardIn[r[0] + ',' + r[1]] || (heardIn[r[0] + ',' + r[1]] = { tile: t, gateways: {} });
          for (var i = 0; i < BUCKETS.length; i++) t.counts[i] += r[COUNTS + i];
          if (t.best === null || r[5] > t.best) { t.best = r[5]; t.bestBucket = r[6]; }
          cell.gateways[data.antennas[r[2]].gateway] = true;
          t.last = Math.max(t.last, r[4]);
        });
        Object.keys(heardIn).forEach(function (k) {
          var c = heardIn[k];
          c.tile.gateways = Math.max(c.tile.gateways, Object.keys(c.gateways).length);
        });
        // Attempts are not any gateway's: with a gateway chosen, a cell it did not hear is one nobody heard.
        data.attempts.forEach(function (r) {
          if (!kept(r, f, 2)) return;
          var t = tile(r);
          t.attempts += r[3]; t.heard += r[4]; t.estimated += r[7]; t.known = t.known || r[5] === 1; t.last = Math.max(t.last, r[6]);
        });
        return Promise.resolve({ features: Object.keys(tiles).map(function (key) {
          var t = tiles[key], receptions = total(t.counts), common = null;
          // The bucket with most receptions, the stronger of equals (as CoverageCell.commonest).
          t.counts.forEach(function (n, i) { if (n > 0 && (common === null || n > t.counts[common])) common = i; });
          var state = receptions > 0 ? 'heard' : !t.known ? 'unknown' : t.attempts === 0 ? 'not-heard-estimated' : 'not-heard';
          return { properties: {
            z: t.z, x: t.x, y: t.y, state: state, color: state === 'heard' ? BUCKETS[common][1] : UNHEARD[state],
            bucket: common === null ? null : BUCKETS[common][0], best: t.best,
            best_color: t.bestBucket === null ? null : BUCKETS[t.bestBucket][1], receptions: receptions, buckets: named(t.counts),
            gateways: t.gateways, attempts: t.attempts, heard_attempts: t.heard, estimated_attempts: t.estimated, last: iso(t.last)
          } };
        }) });
      },
      cell: function (p, f) {
        var k = 19 - p.z, by = {};
        data.cells.forEach(function (r) {
          if ((r[0] >> k) !== p.x || (r[1] >> k) !== p.y || !kept(r, f, 3, 2)) return;
          var a = data.antennas[r[2]];
          var g = by[r[2]] || (by[r[2]] = { gateway: a.gateway, network: a.network, antenna: a.antenna, counts: zeros(), best: r[5], last: 0 });
          for (var i = 0; i < BUCKETS.length; i++) g.counts[i] += r[COUNTS + i];
          g.best = Math.max(g.best, r[5]);
          g.last = Math.max(g.last, r[4]);
        });
        var list = Object.keys(by).map(function (i) {
          var g = by[i];
          return { properties: { gateway: g.gateway, network: g.network, antenna: g.antenna, receptions: total(g.counts), buckets: named(g.counts), best: g.best, last: iso(g.last) } };
        }).sort(function (a, b) {
          return b.properties.receptions - a.properties.receptions || (a.properties.gateway < b.properties.gateway ? -1 : a.properties.gateway > b.properties.gateway ? 1 : 0);
        });
        return Promise.resolve({ features: list });
      },
      reach: function (gateway) {
        return Promise.resolve({ features: data.reach.features.filter(function (f) { return f.properties.gateway === gateway; }) });
      }
    };
  }

  // The server leaves out the cells of gateways silent for days unless the box asks for them.
  function coverageFilter() {
    return { gateway: $('gateway-filter').value, sf: $('sf-filter').value, silent: $('silent').checked ? 'show' : 'hide' };
  }
  function tileLon(x, z) { return x / Math.pow(2, z) * 360 - 180; }
  function tileLat(y, z) { return 180 / Math.PI * Math.atan(Math.sinh(Math.PI * (1 - 2 * y / Math.pow(2, z)))); }
  function tileBounds(p) { return [[tileLat(p.y + 1, p.z), tileLon(p.x, p.z)], [tileLat(p.y, p.z), tileLon(p.x + 1, p.z)]]; }
  // The view as west,south,east,north, within the part of the earth the tiles cover.
  function viewBox() {
    var b = map.getBounds();
    function clamp(v, m) { return Math.max(-m, Math.min(m, v)).toFixed(6); }
    return [clamp(b.getWest(), 180), clamp(b.getSouth(), 85.05), clamp(b.getEast(), 180), clamp(b.getNorth(), 85.05)];
  }
  // Fading by age: a cell mapped within the last month is drawn full, one last mapped a year ago
  // or more faintly: old coverage may be gone.
  function cellOpacity(p) {
    // Heard only by gateways silent for days (box "silent gateways"): likely gone.
    if (p.silent) return 0.15;
    if (!$('fade').checked) return 0.7;
    var days = (Date.now() - Date.parse(p.last)) / 86400000;
    return 0.7 - 0.55 * Math.min(1, Math.max(0, (days - 30) / 335));
  }
  function cellColour(p) { return p.state === 'heard' && $('colour').value === 'best' && p.best_color ? p.best_color : p.color; }

  function drawCells(fc) {
    cellLayer.clearLayers();
    var colours = {};
    fc.features.forEach(function (f) {
      var p = f.properties, colour = cellColour(p);
      L.rectangle(tileBounds(p), { renderer: renderer, stroke: !!p.silent, weight: 1, dashArray: '3', color: colour, fillColor: colour, fillOpacity: cellOpacity(p) })
        .on('click', function (e) { cellDetails(p, e.latlng); }).addTo(cellLayer);
      colours[colour] = (colours[colour] || 0) + 1;
    });
    var d = $('drawn');
    d.dataset.cells = String(fc.features.length);
    d.dataset.silentCells = String(fc.features.filter(function (f) { return f.properties.silent; }).length);
    d.dataset.cellColours = JSON.stringify(colours);
    d.dataset.cellZoom = String(fc.features.length ? fc.features[0].properties.z : '');
    d.dataset.cellsAt = String(Math.round(performance.now()));
  }

  function loadCells() {
    if (map.getZoom() >= DOT_ZOOM) return;
    var asked = ++cellRequest, z = Math.min(19, Math.round(map.getZoom()) + CELL_ZOOM_STEP);
    coverage.cells(z, viewBox(), coverageFilter()).then(function (fc) { if (asked === cellRequest) drawCells(fc); }).catch(problem);
    loadPredicted(asked);
  }

  // The predicted layer, asked for the view once the box is ticked (from zoom 12: wider, a smear).
  function loadPredicted(asked) {
    predictedLayer.clearLayers();
    $('drawn').dataset.predicted = '0';
    if (embedded || !$('predicted').checked || map.getZoom() < 12) return;
    getJSON('api/predicted', Object.assign({ z: Math.round(map.getZoom()), bbox: viewBox().join(',') }, state.filter, coverageFilter())).then(function (fc) {
      if (asked !== cellRequest) return;
      predictedLayer.clearLayers();
      fc.features.forEach(function (f) {
        var p = f.properties;
        // As pale as hearing there is unlikely: a weak signal nobody is likely to hear all but fades.
        L.rectangle(tileBounds(p), { renderer: renderer, color: p.color, weight: 1, opacity: 0.3 + 0.5 * p.p_heard_any, dashArray: '2 4', fillColor: p.color, fillOpacity: 0.05 + 0.3 * p.p_heard_any })
          .on('click', function (e) { predictedDetails(p, e.latlng); }).addTo(predictedLayer);
      });
      $('drawn').dataset.predicted = String(fc.features.length);
    }).catch(problem);
  }
  function predictedDetails(p, where) {
    var box = el('div', [
      el('b', ['predicted: nobody measured here']), el('br'),
      'heard by anyone: ' + Math.round(100 * p.p_heard_any) + ' %', el('br'),
      gatewayName(p.gateway) + ': ' + text(p.signal, ' dBm') + ' (80 %: ' + text(p.low) + ' … ' + text(p.high, ' dBm') + '), heard ' + Math.round(100 * p.p_heard) + ' %', el('br'),
      'mtt coverage validate says how far to trust it'
    ], 'predicted');
    L.popup().setLatLng(where).setContent(box).openOn(map);
  }
  // A live sample changes the cells; the view asks again at most every few seconds.
  function cellsChanged() {
    if (cellTimer || map.getZoom() >= DOT_ZOOM) return;
    cellTimer = setTimeout(function () { cellTimer = null; loadCells(); }, 3000);
  }

  // Cells or dots, by the view's zoom.
  function showLayers() {
    var dots = map.getZoom() >= DOT_ZOOM;
    [dotLayer, linkLayer].forEach(function (layer) { if (dots) layer.addTo(map); else layer.remove(); });
    if (dots) { cellLayer.remove(); predictedLayer.remove(); } else { predictedLayer.addTo(map); cellLayer.addTo(map); loadCells(); }
    $('drawn').dataset.layer = dots ? 'dots' : 'cells';
  }
  map.on('moveend', showLayers);

  function bucketText(buckets) {
    return BUCKETS.filter(function (b) { return buckets[b[0]]; }).map(function (b) { return b[2] + ': ' + buckets[b[0]]; }).join(' · ');
  }
  // A click on a cell: who heard you there, with how many receptions in each bucket.
  function cellDetails(p, where) {
    coverage.cell(p, coverageFilter()).then(function (fc) {
      var said = {
        heard: p.receptions + ' receptions by ' + fc.features.length + (fc.features.length === 1 ? ' gateway' : ' gateways'),
        'not-heard': 'nobody heard you here',
        'not-heard-estimated': 'nobody heard a tracker here (estimated: frames missing from its counters)',
        'heard-linkcheck': 'heard by ' + p.linkcheck_gateways + (p.linkcheck_gateways === 1 ? ' gateway' : ' gateways') + ', margin ' + p.linkcheck_margin + ' dB (LinkCheck)',
        unknown: 'no network source: heard or not is unknown'
      }[p.state];
      var box = el('div', [
        el('b', [said]), el('br'),
        p.attempts ? p.attempts + ' attempts sent here, ' + p.heard_attempts + ' heard' : null, p.attempts ? el('br') : null,
        p.estimated_attempts ? p.estimated_attempts + ' frames sent here nobody heard (estimated)' : null, p.estimated_attempts ? el('br') : null,
        p.linkcheck_checked ? 'link checks: ' + p.linkcheck_answered + ' of ' + p.linkcheck_checked + ' answered' : null, p.linkcheck_checked ? el('br') : null,
        'last mapped ' + p.last
      ]);
      if (fc.features.length) {
        var table = el('table', [], 'gw');
        fillTable(table, ['gateway', 'receptions', 'best', 'by signal'], fc.features.map(function (f) {
          var g = f.properties;
          var name = gatewayName(g.gateway);
          return [g.silent_days ? el('span', [name, ' (silent ' + g.silent_days + ' days)']) : name, g.receptions, text(g.best, ' dBm'), bucketText(g.buckets)];
        }));
        box.appendChild(table);
      }
      L.popup().setLatLng(where).setContent(box).openOn(map);
      $('drawn').dataset.cellGateways = JSON.stringify(fc.features.map(function (f) { return [f.properties.gateway, f.properties.receptions]; }));
    }).catch(problem);
  }

  // The chosen gateway's reach: a polygon per signal level, the weakest (widest) below.
  function drawReach() {
    reachLayer.clearLayers();
    var gateway = $('gateway-filter').value;
    $('drawn').dataset.reach = '0';
    if (!gateway) return;
    coverage.reach(gateway).then(function (fc) {
      function threshold(f) { return f.properties.threshold === null ? -Infinity : f.properties.threshold; }
      var levels = fc.features.slice().sort(function (a, b) { return threshold(a) - threshold(b); });
      levels.forEach(function (f) {
        var p = f.properties, ring = f.geometry.coordinates[0].map(function (c) { return [c[1], c[0]]; });
        L.polygon(ring, { renderer: renderer, color: p.color, weight: 1, fillColor: p.color, fillOpacity: 0.12, interactive: false }).addTo(reachLayer);
      });
      $('drawn').dataset.reach = String(levels.length);
    }).catch(problem);
  }

  function coverageChanged() { loadCells(); drawReach(); loadDiff(); }

  // The cells newly heard since the day chosen (green) and those heard before, mapped again since
  // and not heard any more (red, dashed): "did the new gateway help?".
  function loadDiff() {
    diffLayer.clearLayers();
    var since = $('diff-since').value, d = $('drawn');
    d.dataset.diffNew = '0';
    d.dataset.diffLost = '0';
    if (community || embedded || !since) return;
    // The day from its start, in UTC as the server keeps time.
    getJSON('api/diff', Object.assign({ since: since + 'T00:00:00Z' }, $('gateway-filter').value ? { gateway: $('gateway-filter').value } : {})).then(function (fc) {
      if ($('diff-since').value !== since) return;
      diffLayer.clearLayers();
      var counts = { 'new': 0, lost: 0 };
      fc.features.forEach(function (f) {
        var p = f.properties, lost = p.change === 'lost';
        counts[p.change] += 1;
        // Thin, and filled lightly: a zoom-19 cell is a few pixels wide in a city's view.
        var colour = lost ? '#c62828' : '#2e7d32';
        L.rectangle(tileBounds(p), { renderer: renderer, color: colour, weight: 1.5, dashArray: lost ? '4 3' : null, fillColor: colour, fillOpacity: 0.3 })
          .bindTooltip(lost ? 'heard before ' + since + ', not since' : 'newly heard since ' + since).addTo(diffLayer);
      });
      d.dataset.diffNew = String(counts['new']);
      d.dataset.diffLost = String(counts.lost);
    }).catch(problem);
  }

  // A field tester's reply (SPEC §10.2's six bytes, in hex), as its screen showed it.
  function fieldTestText(hex) {
    var b = (hex.match(/../g) || []).map(function (x) { return parseInt(x, 16); });
    if (b.length !== 6) return 'field test answered: ' + hex;
    var where = b[3] ? ' · ' + (b[3] / 4) + '–' + (b[4] / 4) + ' km' : ' · distances unknown';
    return 'field test answered: ' + b[5] + (b[5] === 1 ? ' gateway' : ' gateways') + ' · ' + (b[1] - 200) + '…' + (b[2] - 200) + ' dBm' + where;
  }

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
      p.linkcheck_margin !== undefined ? 'LinkCheck: heard by ' + p.gateways + (p.gateways === 1 ? ' gateway' : ' gateways') + ', margin ' + p.linkcheck_margin + ' dB' : null,
      p.linkcheck_margin !== undefined ? el('br') : null,
      'SF ' + text(p.sf) + ' · RSSI ' + text(p.rssi, ' dBm') + ' · SNR ' + text(p.snr, ' dB')
    ]);
    if (p.field_test) box.appendChild(el('div', [fieldTestText(p.field_test)], 'field-test'));
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
    state.all = fc.features;
    var shown = fc.features.filter(function (f) { return shownDevice(f.properties); });
    noteNodes(shown);
    shown.forEach(addFeature);
    listDevices();
    state.places = findPlaces(shown);
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
      // A position estimated from where it heard you is drawn dashed, and says so.
      L.circleMarker([g.lat, g.lon], {
        renderer: renderer, radius: 7, weight: 3, color: g.estimated ? '#555555' : '#000000', dashArray: g.estimated ? '3 3' : null,
        fillColor: '#ffffff', fillOpacity: 1
      }).bindTooltip(el('span', [gatewayName(g.gateway) + (g.estimated ? ' (estimated position)' : '') + (g.position_check ? ' ⚠ position?' : '')]), { permanent: labelled, direction: 'right', offset: [8, 0] })
        .on('click', function () { $('gateway-filter').value = g.gateway; coverageChanged(); })
        .addTo(gatewayLayer);
    });
    function where(g) {
      var w = g.lat !== null ? g.lat.toFixed(4) + ', ' + g.lon.toFixed(4) : 'not public';
      // Its receptions contradict where it says it is (mtt coverage --gateway tells the same).
      if (g.position_check) w += ' ⚠ ' + g.position_check;
      return g.estimated ? '≈ ' + w + ' (estimated)' : w;
    }
    // A community's gateways come from the coverage: cells and receptions, not uplinks.
    if (community) fillTable($('gateways'), ['gateway', 'cells', 'receptions', 'best signal', 'position'], list.map(function (g) {
      return [gatewayName(g.gateway), g.cells, g.receptions, text(g.best, ' dBm'), where(g)];
    }));
    else fillTable($('gateways'), ['gateway', 'uplinks', 'best RSSI', 'best SNR', 'position'], list.map(function (g) {
      return [gatewayName(g.gateway), g.uplinks, text(g.best_rssi, ' dBm'), text(g.best_snr, ' dB'), where(g)];
    }));
    // The gateway filter lists them, keeping the choice.
    var chosen = $('gateway-filter').value;
    $('gateway-filter').replaceChildren(new Option('all gateways', ''));
    list.forEach(function (g) { if (g.gateway) $('gateway-filter').appendChild(new Option(g.gateway, g.gateway)); });
    $('gateway-filter').value = chosen;
    summary();
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
    var who = community ? 'a mapper' : 'you';
    $('legend').appendChild(el('div', [el('span', [], 'swatch gateway'), 'gateway that heard ' + who + (community ? '' : ' (dashed: position estimated)')]));
    var black = el('span', [], 'swatch cell'), grey = el('span', [], 'swatch cell');
    black.style.background = UNHEARD['not-heard'];
    grey.style.background = UNHEARD.unknown;
    $('legend').appendChild(el('div', [community ? 'Cells: the colour of the signal most heard there (or the best).'
      : 'Zoomed out, cells: the colour of the signal most heard there (or the best); zoomed in, the dots.']));
    $('legend').appendChild(el('div', [black, 'cell where ' + who + ' sent and nobody heard']));
    $('legend').appendChild(el('div', [grey, 'cell where ' + who + ' sent without a network source: not known']));
    if (!community) {
      var purple = el('span', [], 'swatch cell');
      purple.style.background = UNHEARD['not-heard-estimated'];
      $('legend').appendChild(el('div', [purple, 'cell where a tracker\'s frames went unheard (estimated from its frame counters)']));
      var teal = el('span', [], 'swatch cell');
      teal.style.background = UNHEARD['heard-linkcheck'];
      $('legend').appendChild(el('div', [teal, 'cell heard by your modem\'s link check (LinkCheck: no signal measured)']));
      var pale = el('span', [], 'swatch cell predicted');
      $('legend').appendChild(el('div', [pale, 'pale, dashed (box "predicted"): nobody measured here; the signal predicted for the gateway most likely to hear you']));
    }
    if (!community && !embedded) {
      var gained = el('span', [], 'swatch cell diff-new'), lost = el('span', [], 'swatch cell diff-lost');
      $('legend').appendChild(el('div', [gained, 'green ("Changes since" a day): heard since that day, never before']));
      $('legend').appendChild(el('div', [lost, 'red, dashed edge: heard before that day, mapped again since and not heard']));
    }
    if (!embedded) {
      var faded = el('span', [], 'swatch cell silent');
      $('legend').appendChild(el('div', [faded, 'left out unless the box "silent gateways" is ticked, then faded: cells heard only by gateways silent for 5 days before the newest reception (likely gone)']));
    }
    $('legend').appendChild(el('div', ['Click a cell for its gateways; choose a gateway (or click it) for its reach.']));
    if (state.nodes.length > 1 && state.nodes.length <= SIDE_BY_SIDE) {
      $('legend').appendChild(el('div', ['Nodes, side by side from left to right: ' + state.nodes.map(function (k) { return state.nodeNames[k]; }).join(', ')]));
    }
  }

  // Under the title: where, and the totals of what the page shows.
  function summary() {
    if (community) return;  // renderCommunity writes a community's
    var st = state.store, parts = [];
    if (state.place) parts.push('around ' + placeName(state.place));
    if (st) {
      var sent = st.confirmed + st.failed;
      parts.push(st.attempts + ' attempts', st.heard + ' heard', 'loss ' + (sent > 0 ? (100 * (sent - st.heard) / sent).toFixed(0) + ' %' : 'n/a'));
      if (st.linkchecks) parts.push(st.linkchecks_answered + ' of ' + st.linkchecks + ' link checks answered');
      parts.push(st.samples + ' samples', Object.keys(state.gateways).length + ' gateways');
    }
    $('summary').textContent = parts.join(' · ');
  }

  // A community's status: what each mapper gave, and the area mapped.
  function renderCommunity(s, fit) {
    var lines = s.mappers.map(function (m) {
      return [m.name, m.samples + ' samples · ' + m.attempts + ' attempts · ' + m.heard + ' heard · ' + m.sessions + (m.sessions === 1 ? ' session' : ' sessions') +
        (m.last_record ? ' · last ' + m.last_record.slice(0, 10) : '')];
    });
    lines.push(['Mapped', s.cells + ' cells · ' + s.heard_cells + ' heard · ' + s.gateways + ' gateways']);
    lines.push(['Updated', new Date().toISOString().slice(0, 19) + 'Z']);
    // Served from a standby: how fresh its copy is.
    if (s.replica) {
      lines.push(['Copy', s.replica.lag_s === 0 ? 'a standby, up to date' : s.replica.lag_s === null ? 'a standby, nothing replayed yet'
        : 'a standby, ' + Math.round(s.replica.lag_s) + ' s behind (as of ' + (s.replica.replayed_at || '?') + ')']);
    }
    // The silent gateways hidden as the database last made its map without them.
    if (s.without_silent_as_of) lines.push(['Silent hidden', 'as of ' + s.without_silent_as_of]);
    var samples = s.mappers.reduce(function (n, m) { return n + m.samples; }, 0);
    $('summary').textContent = [s.mappers.length + ' mappers', samples + ' samples', s.cells + ' cells', s.gateways + ' gateways'].join(' · ');
    var box = $('status');
    box.replaceChildren(el('h2', ['Mappers']), el('table', lines.map(function (l) { return el('tr', [el('th', [l[0]]), el('td', [l[1]])]); })));
    box.dataset.updates = String(Number(box.dataset.updates || 0) + 1);
    box.dataset.mappers = String(s.mappers.length);
    box.dataset.samples = String(samples);
    box.dataset.lag = s.replica ? String(s.replica.lag_s) : '';
    box.dataset.silentHiddenAsOf = s.without_silent_as_of || '';
    if (fit && s.bounds) map.fitBounds([[s.bounds[1], s.bounds[0]], [s.bounds[3], s.bounds[2]]], { padding: [20, 20], maxZoom: 16 });
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
    if (st.linkchecks) lines.push(['LinkCheck', st.linkchecks_answered + ' of ' + st.linkchecks + ' answered (heard by the network, gateways counted)']);
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
    if (community) {
      return getJSON('api/gateways').then(function (list) { drawGateways(list); showLayers(); $('problem').textContent = ''; }).catch(problem);
    }
    if (embedded) {
      drawTrack(embedded.track);
      drawGateways(embedded.gateways);
      drawSamples(embedded.samples, fit);
      showLayers();
      renderStatus(embedded.status);
      return Promise.resolve();
    }
    var params = state.filter;
    return Promise.all([getJSON('api/track.geojson', params), getJSON('api/gateways', params), getJSON('api/samples.geojson', params)])
      .then(function (r) { drawTrack(r[0]); drawGateways(r[1]); drawSamples(r[2], fit); showLayers(); $('problem').textContent = ''; })
      .catch(problem);
  }

  function sessions(list) {
    $('session').replaceChildren(new Option('all sessions', ''));
    list.forEach(function (s) {
      $('session').appendChild(new Option(s.id + ' · ' + s.mode + ' · ' + s.started_at.slice(0, 16).replace('T', ' '), String(s.id)));
    });
  }

  // An event's link (a hook's notification) names its place: #at=LAT,LON centres the map there,
  // marked. #view=LAT,LON,ZOOM opens a view, unmarked: a link to a place at a zoom.
  var focusMarker = null;
  function focusFromHash() {
    var v = /(?:^#|&)view=(-?[0-9.]+),(-?[0-9.]+),([0-9]+)/.exec(location.hash);
    if (v) {
      map.setView([Number(v[1]), Number(v[2])], Math.min(19, Number(v[3])));
      return true;
    }
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
  ['colour', 'gateway-filter', 'sf-filter', 'fade', 'predicted', 'silent'].forEach(function (id) { $(id).addEventListener('change', coverageChanged); });
  if (embedded) $('predicted-choice').hidden = true;
  if (embedded) $('silent-choice').hidden = true;
  if (community || embedded) $('diff-choice').hidden = true;
  $('diff-since').addEventListener('change', loadDiff);
  $('device-filter').addEventListener('change', deviceChanged);
  var focused = focusFromHash();
  if (community) {
    // Everybody's coverage: no sessions, no time window, no samples by spreading factor; the
    // cells and mappers' totals looked at again each minute.
    $('filters').hidden = true;
    $('device-filters').hidden = true;
    $('sfs').parentNode.hidden = true;
    getJSON('api/status').then(function (s) { renderCommunity(s, !focused); load(); }).catch(problem);
    setInterval(function () {
      getJSON('api/status').then(function (s) { renderCommunity(s, false); }).catch(problem);
      loadCells();
    }, 60000);
  } else if (embedded) {
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
        if (matchesFilter(f)) { addLiveFeature(f); cellsChanged(); }
      });
    }
  }
})();
