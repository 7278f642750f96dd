// report.html's script: draws the timelines, violation list and plots from the
// JSON in #report-data. No network access, no libraries.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var SVG = 'http://www.w3.org/2000/svg';
  var WIDTH = 1200, LEFT = 90, RIGHT = 12, LANE = 20;
  var view = { a: data.t0, b: data.t1 };
  var selected = -1;
  var palette = ['#4a7bd0', '#3aa57a', '#8e63c7', '#d0824a', '#3a9fb5', '#b5527a', '#7a8a3a', '#5a6bd0'];

  function el(name, attrs, parent, text) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(name, attrs, parent, text) {
    var e = document.createElement(name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function x(t) { return LEFT + (t - view.a) / Math.max(1e-9, view.b - view.a) * (WIDTH - LEFT - RIGHT); }
  function tAt(px) { return view.a + (px - LEFT) / (WIDTH - LEFT - RIGHT) * (view.b - view.a); }
  function clampX(v) { return Math.max(LEFT, Math.min(WIDTH - RIGHT, v)); }
  function fmtMs(ms) { return ms >= 1000 ? (ms / 1000).toFixed(2) + ' s' : ms.toFixed(1) + ' ms'; }
  function title(node, text) { el('title', {}, node, text); }

  function showOps(heading, ops) {
    var lines = [heading];
    ops.forEach(function (i) {
      var op = data.linked_ops[String(i)];
      lines.push(op ? JSON.stringify(op) : 'op ' + i + ' (see history.jsonl)');
    });
    document.getElementById('op-details').textContent = lines.join('\n');
  }

  function axis(svg, y) {
    var g = el('g', { 'class': 'axis' }, svg);
    el('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: y, y2: y }, g);
    for (var i = 0; i <= 8; i++) {
      var t = view.a + (view.b - view.a) * i / 8, px = x(t);
      el('line', { x1: px, x2: px, y1: y, y2: y + 4 }, g);
      el('text', { x: px, y: y + 15, 'text-anchor': 'middle' }, g, fmtMs(t));
    }
  }

  function laneOf(key, p) { return key.processes.indexOf(p); }

  function drawKey(key, container) {
    html('div', { 'class': 'key-title' }, container,
      "Lock '" + key.key + "' — " + key.holds_total + ' sessions, ' + key.attempts_total + ' acquire attempts');
    var lanes = key.processes.length, top = 14, height = top + lanes * LANE + 36;
    var svg = el('svg', { width: WIDTH, height: height, 'class': 'timeline', 'data-key': key.key }, container);
    key.processes.forEach(function (p, i) {
      el('rect', { 'class': 'lane-bg', x: LEFT, y: top + i * LANE + 1, width: WIDTH - LEFT - RIGHT, height: LANE - 2 }, svg);
      el('text', { x: 4, y: top + i * LANE + 14 }, svg, 'worker ' + p);
    });
    data.faults.forEach(function (f) {
      if (f.t1 < view.a || f.t0 > view.b) return;
      var x0 = clampX(x(f.t0)), x1 = clampX(x(f.t1));
      var band = el('rect', { 'class': 'fault-band', x: x0, y: top, width: Math.max(1, x1 - x0), height: lanes * LANE }, svg);
      title(band, f.kind + ' #' + f.id + (f.targets.length ? ' on ' + f.targets.join(', ') : '') + ': ' + fmtMs(f.t0) + ' – ' + fmtMs(f.t1));
      el('text', { x: x0 + 2, y: top - 3 }, svg, f.kind + ' #' + f.id);
      f.targets.forEach(function (target) {
        var m = /^worker (\d+)$/.exec(target);
        var lane = m ? laneOf(key, Number(m[1])) : -1;
        if (lane >= 0) el('rect', { 'class': 'fault-target', x: x0, y: top + lane * LANE + LANE - 5, width: Math.max(1, x1 - x0), height: 4 }, svg);
      });
    });
    data.violations.forEach(function (v, i) {
      if (v.key && v.key !== key.key) return;
      if (v.t1 < view.a || v.t0 > view.b) return;
      if (v.advisory) return;
      var lanesOf = v.processes.map(function (p) { return laneOf(key, p); }).filter(function (l) { return l >= 0; });
      if (!lanesOf.length) lanesOf = key.processes.map(function (p, l) { return l; });
      var x0 = clampX(x(v.t0)), x1 = clampX(x(v.t1)), nodes = [];
      lanesOf.forEach(function (lane) {
        nodes.push(el('rect', { 'class': 'violation-span' + (i === selected ? ' selected' : ''), x: x0, y: top + lane * LANE + 1,
          width: Math.max(2, x1 - x0), height: LANE - 2, 'data-violation': i }, svg));
      });
      nodes.push(el('path', { 'class': 'violation-marker' + (i === selected ? ' selected' : ''), 'data-violation': i,
        d: 'M' + (x0 - 5) + ',' + (top + lanes * LANE + 12) + ' l5,-9 l5,9 z' }, svg));
      nodes.forEach(function (node) {
        title(node, v.kind + ': ' + v.description);
        node.addEventListener('click', function () { select(i, false); });
      });
    });
    var cited = {};
    data.violations.forEach(function (v) { if (!v.advisory) v.ops.forEach(function (o) { cited[o] = true; }); });
    key.holds.forEach(function (h) {
      if (h.t1 < view.a || h.t0 > view.b) return;
      var lane = laneOf(key, h.p), y = top + lane * LANE + 4, x0 = clampX(x(h.t0)), x1 = clampX(x(h.t1));
      var bar = el('rect', { 'class': 'hold' + (cited[h.acq] ? ' cited' : ''), x: x0, y: y, width: Math.max(1.5, x1 - x0), height: LANE - 8,
        fill: palette[lane % palette.length] }, svg);
      if (h.lease !== null && h.lease < h.t1) {
        var l0 = clampX(x(Math.max(h.lease, h.t0)));
        el('rect', { x: l0, y: y, width: Math.max(0, x1 - l0), height: LANE - 8, fill: 'url(#past-lease)', 'pointer-events': 'none' }, svg);
      }
      var text = 'worker ' + h.p + ' holds ' + key.key + ' (' + h.owner + (h.token !== null ? ', token ' + h.token : '') + ') ' +
        fmtMs(h.t0) + ' – ' + fmtMs(h.t1) + (h.lease !== null && h.lease < h.t1 ? ', ' + fmtMs(h.t1 - h.lease) + ' past its lease' : '') +
        '; acquire op ' + h.acq + (h.rel >= 0 ? ', release op ' + h.rel : ', never released');
      title(bar, text);
      bar.addEventListener('click', function () { document.getElementById('op-details').textContent = text; });
    });
    var colors = { ok: '#2e7d32', held: '#9aa3b2', fail: '#7b1fa2', info: '#ef6c00', open: '#ef6c00' };
    key.attempts.forEach(function (a) {
      if (a.t < view.a || a.t > view.b) return;
      var lane = laneOf(key, a.p), px = x(a.t), y = top + lane * LANE;
      var tick = el('line', { 'class': 'attempt', x1: px, x2: px, y1: y + 2, y2: y + 6, stroke: colors[a.o] || '#555' }, svg);
      title(tick, 'acquire by worker ' + a.p + ' at ' + fmtMs(a.t) + ': ' + a.o + ' (op ' + a.op + ')');
    });
    axis(svg, top + lanes * LANE + 16);
    brush(svg, height);
  }

  function brush(svg, height) {
    var start = null, rect = null;
    svg.addEventListener('mousedown', function (e) {
      var box = svg.getBoundingClientRect();
      start = e.clientX - box.left;
      rect = el('rect', { 'class': 'brush', x: start, y: 0, width: 0, height: height }, svg);
    });
    svg.addEventListener('mousemove', function (e) {
      if (start === null) return;
      var now = e.clientX - svg.getBoundingClientRect().left;
      rect.setAttribute('x', Math.min(start, now));
      rect.setAttribute('width', Math.abs(now - start));
    });
    svg.addEventListener('mouseup', function (e) {
      if (start === null) return;
      var end = e.clientX - svg.getBoundingClientRect().left, a = Math.min(start, end), b = Math.max(start, end);
      start = null;
      rect.remove();
      if (b - a > 6) zoom(tAt(clampX(a)), tAt(clampX(b)));
    });
  }

  function zoom(a, b) {
    view.a = Math.max(data.t0, a);
    view.b = Math.min(data.t1, Math.max(b, view.a + 0.01));
    draw();
  }

  function drawTimelines() {
    var container = document.getElementById('timelines');
    container.textContent = '';
    var defs = el('svg', { width: 0, height: 0, style: 'position:absolute' }, container);
    var pattern = el('pattern', { id: 'past-lease', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, el('defs', {}, defs));
    el('rect', { width: 3, height: 6, fill: 'rgba(255,255,255,0.75)' }, pattern);
    if (!data.keys.length) html('p', {}, container, 'No lock operations in this history.');
    data.keys.forEach(function (key) { drawKey(key, container); });
    var legend = html('div', { 'class': 'legend' }, container);
    [['#4a7bd0', 'lock held'], ['#f6c343', 'fault'], ['#e53935', 'violation (▲ marker)'], ['#2e7d32', 'acquire granted'],
     ['#9aa3b2', 'acquire busy'], ['#ef6c00', 'acquire unsure']].forEach(function (item) {
      var s = html('span', {}, legend);
      html('i', { style: 'background:' + item[0] }, s);
      s.appendChild(document.createTextNode(item[1]));
    });
    document.getElementById('zoom-label').textContent = 'showing ' + fmtMs(view.a) + ' – ' + fmtMs(view.b) +
      ' of ' + fmtMs(data.t1 - data.t0);
  }

  function select(i, scroll) {
    var v = data.violations[i];
    selected = i;
    var pad = Math.max(50, (v.t1 - v.t0) * 1.5);
    showOps(v.checker + ' / ' + v.kind + ': ' + v.description + '\nops ' + v.ops.join(', ') + ':', v.ops);
    zoom(v.t0 - pad, v.t1 + pad);
    if (scroll) document.getElementById('timeline-section').scrollIntoView();
  }

  function drawViolations() {
    var list = document.getElementById('violations');
    list.textContent = '';
    if (!data.violations.length) html('p', {}, list, 'None.');
    data.violations.forEach(function (v, i) {
      var li = html('li', { id: 'v' + i, 'class': 'violation' + (v.advisory ? ' advisory' : '') + (i === selected ? ' selected' : ''),
        'data-violation': i }, list);
      html('span', { 'class': 'kind' }, li, v.kind + ' ');
      li.appendChild(document.createTextNode('(' + v.checker + (v.advisory ? ', advisory: not drawn, not counted' : '') + ') ' +
        v.description + ' '));
      html('span', { 'class': 'ops' }, li, '— ops ' + v.ops.join(', ') + ' at ' + fmtMs(v.t0));
      li.addEventListener('click', function () { select(i, true); });
    });
    if (data.violations_total > data.violations.length)
      html('p', {}, list, (data.violations_total - data.violations.length) + ' more, counted in results.json (violations_total).');
  }

  function plotFrame(id, height, yLabel) {
    var svg = el('svg', { width: WIDTH, height: height }, null);
    var holder = document.getElementById(id);
    holder.textContent = '';
    holder.appendChild(svg);
    data.faults.forEach(function (f) {
      if (f.t1 < view.a || f.t0 > view.b) return;
      var x0 = clampX(x(f.t0)), x1 = clampX(x(f.t1));
      el('rect', { 'class': 'fault-band', x: x0, y: 0, width: Math.max(1, x1 - x0), height: height - 24 }, svg);
    });
    el('text', { x: 4, y: 12 }, svg, yLabel);
    axis(svg, height - 24);
    return svg;
  }

  function drawLatency() {
    var height = 220, svg = plotFrame('latency', height, 'ms (log)');
    var pts = data.latency.filter(function (p) { return p[0] >= view.a && p[0] <= view.b; });
    var max = 1;
    pts.forEach(function (p) { max = Math.max(max, p[1]); });
    var lo = 0.01, y = function (ms) { return (height - 30) - (Math.log10(Math.max(lo, ms)) - Math.log10(lo)) / (Math.log10(max) - Math.log10(lo)) * (height - 50); };
    [0.1, 1, 10, 100, 1000, 10000].forEach(function (v) {
      if (v > max) return;
      el('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: y(v), y2: y(v), stroke: '#e3e6ee' }, svg);
      el('text', { x: LEFT - 4, y: y(v) + 4, 'text-anchor': 'end' }, svg, String(v));
    });
    var colors = { acquire: '#4a7bd0', release: '#3aa57a', read: '#8e63c7', write: '#d0824a', renew: '#3a9fb5' };
    pts.forEach(function (p) {
      el('circle', { cx: x(p[0]), cy: y(p[1]), r: p[3] === 'ok' ? 1.6 : 2.4, fill: colors[p[2]] || '#555',
        opacity: p[3] === 'info' ? 1 : 0.6 }, svg);
    });
    var legend = html('div', { 'class': 'legend' }, document.getElementById('latency'));
    Object.keys(colors).forEach(function (f) {
      var s = html('span', {}, legend);
      html('i', { style: 'background:' + colors[f] }, s);
      s.appendChild(document.createTextNode(f));
    });
    legend.appendChild(document.createTextNode(pts.length + ' of ' + data.latency_total + ' ops drawn in this window'));
  }

  function drawThroughput() {
    var height = 170, svg = plotFrame('throughput', height, 'ops/s');
    var perS = 1000 / data.bucket_ms, max = 1;
    data.throughput.forEach(function (b) { max = Math.max(max, (b[1] + b[2] + b[3]) * perS); });
    var scale = (height - 40) / max, base = height - 24;
    data.throughput.forEach(function (b) {
      if (b[0] + data.bucket_ms < view.a || b[0] > view.b) return;
      var x0 = clampX(x(b[0])), x1 = clampX(x(b[0] + data.bucket_ms)), y = base;
      [[b[1], '#3aa57a', 'ok'], [b[2], '#9aa3b2', 'fail'], [b[3], '#ef6c00', 'info']].forEach(function (part) {
        var h = part[0] * perS * scale;
        if (h <= 0) return;
        y -= h;
        title(el('rect', { x: x0, y: y, width: Math.max(1, x1 - x0 - 1), height: h, fill: part[1] }, svg),
          Math.round(part[0] * perS) + ' ' + part[2] + ' ops/s at ' + fmtMs(b[0]));
      });
    });
    el('text', { x: LEFT - 4, y: base - max * scale + 4, 'text-anchor': 'end' }, svg, String(Math.round(max)));
  }

  function draw() {
    drawTimelines();
    drawViolations();
    drawLatency();
    drawThroughput();
  }

  document.getElementById('zoom-reset').addEventListener('click', function () { selected = -1; zoom(data.t0, data.t1); });
  Array.prototype.forEach.call(document.querySelectorAll('a.jump'), function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); select(Number(a.getAttribute('data-violation')), true); });
  });
  draw();
  document.body.setAttribute('data-rendered', 'true');
})();
