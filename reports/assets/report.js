// report.html's script: draws the timelines, violation list and plots from the
// JSON in #report-data. No network access, no libraries. Every SVG is as wide
// as its container (redrawn when the window is resized), so the page reads on
// a phone as on a desktop.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var SVG = 'http://www.w3.org/2000/svg';
  var LANE = 20, RIGHT = 16;
  var WIDTH = 1200, LEFT = 90;
  var view = { a: data.t0, b: data.t1 };
  var selected = -1;
  // Keys drawn aggregated (key.aggregated: too many lanes over all keys) whose every lane the user asked for.
  var expanded = {};
  var SHARED = -1;  // in a key's list of drawn lanes: the lane the workers without one of their own share
  // One meaning per colour: lock sessions are blue whatever the worker (the lane says which worker).
  var C = {
    hold: '#4a7bd0', fault: '#f6c343', faultTarget: '#b8860b', overlap: '#e53935', write: '#6a1b9a', other: '#ad1457',
    ok: '#2e7d32', held: '#aab2bf', fail: '#37474f', info: '#ef6c00'
  };
  var ATTEMPTS = { ok: ['ok', 'acquire granted'], held: ['held', 'acquire refused: lock busy'], fail: ['fail', 'acquire failed'],
    info: ['info', 'acquire unsure (no definite answer)'], open: ['info', 'acquire unsure (no definite answer)'] };
  var HATCH = { wait: 'repeating-linear-gradient(45deg,#c9ced8 0 3px,#fff 3px 6px)',
    lease: 'repeating-linear-gradient(45deg,#4a7bd0 0 3px,#c8d6f0 3px 6px)' };

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
  function visible(t0, t1) { return t1 >= view.a && t0 <= view.b; }
  function fmtMs(ms) { return Math.abs(ms) >= 1000 ? (ms / 1000).toFixed(2) + ' s' : ms.toFixed(1) + ' ms'; }
  function title(node, text) { el('title', {}, node, text); }

  // Round tick steps (1, 2 or 5 times a power of ten) with at least `minGap` pixels between ticks.
  function niceStep(range, pixels, minGap) {
    var raw = range / Math.max(1, Math.floor(pixels / minGap)), p = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * p >= raw) return steps[i] * p;
    return 10 * p;
  }
  function tickText(t, step) {
    if (step >= 1000 || Math.abs(view.b - view.a) >= 2000) {
      var decimals = Math.max(0, -Math.floor(Math.log10(step / 1000) + 1e-9));
      return (t / 1000).toFixed(decimals) + ' s';
    }
    return t.toFixed(Math.max(0, -Math.floor(Math.log10(step) + 1e-9))) + ' ms';
  }

  // The time axis: round ticks, none clipped at either end.
  function axis(svg, y) {
    var g = el('g', { 'class': 'axis' }, svg);
    el('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: y, y2: y }, g);
    var step = niceStep(view.b - view.a, WIDTH - LEFT - RIGHT, WIDTH < 600 ? 70 : 90);
    for (var t = Math.ceil(view.a / step) * step; t <= view.b + 1e-9; t += step) {
      var px = x(t), anchor = px > WIDTH - RIGHT - 24 ? 'end' : 'middle';
      el('line', { x1: px, x2: px, y1: y, y2: y + 4 }, g);
      el('text', { 'class': 'tick', x: anchor === 'end' ? WIDTH - 2 : px, y: y + 15, 'text-anchor': anchor }, g, tickText(t, step));
    }
  }

  // The lanes a key draws, top to bottom: a worker each, or (aggregated) the shared lane, then the workers a
  // violation cites. Sets key.laneAt: worker -> the index of the lane its bars and ticks go on.
  function assignLanes(key) {
    var shared = key.aggregated && !expanded[key.key], drawn = shared ? [SHARED].concat(key.own_lanes) : key.processes;
    key.laneAt = {};
    if (shared) key.processes.forEach(function (p) { key.laneAt[p] = 0; });
    drawn.forEach(function (p, i) { if (p !== SHARED) key.laneAt[p] = i; });
    return drawn;
  }
  function laneOf(key, p) { return key.laneAt.hasOwnProperty(p) ? key.laneAt[p] : -1; }
  function isWorkerTarget(target) { return /^worker (\d+)$/.exec(target); }

  // Neighbouring bands of one kind share a label when their own labels would overlap or they lie
  // less than 30 px apart: "kill-restart ×12".
  function faultLabels(svg, top) {
    var groups = [];
    data.faults.slice().sort(function (a, b) { return a.ti - b.ti; }).forEach(function (f) {
      if (!visible(f.ti, f.t1)) return;
      var x0 = clampX(x(f.ti)), x1 = clampX(x(f.t1)), last = groups[groups.length - 1];
      if (last && last.kind === f.kind && last.bands[0].status === f.status && (x0 < last.textEnd || x0 - last.x1 < 30)) {  // a dense run of one kind: one label
        last.bands.push(f);
        last.x1 = Math.max(last.x1, x1);
        last.textEnd = last.x0 + (f.kind.length + 8) * 6.2;
      } else {
        groups.push({ kind: f.kind, x0: x0, x1: x1, bands: [f], textEnd: x0 + (f.kind.length + 5) * 6.2 });
      }
    });
    var end = -1;
    groups.forEach(function (g) {
      var one = g.bands.length === 1, f = g.bands[0];
      var text = one ? f.kind + ' #' + f.id + (f.status === 'effective' ? '' : ' (' + f.status.replace('-', ' ') + ')')
        : f.kind + ' ×' + g.bands.length;
      var width = text.length * 6.2, lx = Math.max(LEFT, Math.min(g.x0 + 2, WIDTH - RIGHT - width));
      if (lx < end) return;  // the label before it is in the way: its tooltip still names it
      var label = el('text', { 'class': 'fault-label', x: lx, y: top - 3 }, svg, text);
      title(label, g.bands.map(function (b) { return b.kind + ' #' + b.id + ' ' + b.status; }).join(', '));
      end = lx + width + 8;
    });
  }

  function faultTitle(f) {
    var text = f.kind + ' #' + f.id + (f.targets.length ? ' on ' + f.targets.join(', ') : '');
    if (f.status === 'not-run') return text + ': scheduled at ' + fmtMs(f.ti) + ', not started before the run ended';
    if (f.status === 'failed') return text + ': asked for at ' + fmtMs(f.ti) + ', did not take effect (' + f.error + ')';
    if (f.status === 'unfinished') return text + ': asked for at ' + fmtMs(f.ti) + ', still starting when the run ended';
    return text + ': in effect ' + fmtMs(f.t0) + ' – ' + fmtMs(f.t1) +
      (f.t0 - f.ti >= 1 ? ' (asked for at ' + fmtMs(f.ti) + ', waited ' + fmtMs(f.t0 - f.ti) + ' before it took effect)' : '');
  }

  // A fault: the wait before it took effect hatched, then the band; one that never took effect dashed.
  function drawFault(svg, f, top, height) {
    var nodes = [];
    if (f.status === 'effective' && f.t0 - f.ti > 0 && visible(f.ti, f.t0)) {
      var w0 = clampX(x(f.ti)), w1 = clampX(x(f.t0));
      if (w1 - w0 >= 1) nodes.push(el('rect', { 'class': 'fault-wait', x: w0, y: top, width: w1 - w0, height: height, fill: 'url(#wait-hatch)' }, svg));
    }
    if (visible(f.t0, f.t1)) {
      var x0 = clampX(x(f.t0)), x1 = clampX(x(f.t1));
      if (f.status === 'effective') {
        nodes.push(el('rect', { 'class': 'fault-band', x: x0, y: top, width: Math.max(1, x1 - x0), height: height }, svg));
      } else {
        var s0 = clampX(x(f.ti));
        nodes.push(el('rect', { 'class': 'fault-missed', x: s0, y: top + 0.5, width: Math.max(2, (f.status === 'not-run' ? x1 : x0) - s0), height: height - 1 }, svg));
      }
    }
    nodes.forEach(function (n) { title(n, faultTitle(f)); });
  }

  // A strip under the bars on the lane of a worker the fault targets (a paused holder).
  function drawFaultTargets(svg, f, top, key) {
    if (f.status !== 'effective' || !visible(f.t0, f.t1)) return;
    var x0 = clampX(x(f.t0)), x1 = clampX(x(f.t1));
    f.targets.forEach(function (target) {
      var m = isWorkerTarget(target), lane = m ? laneOf(key, Number(m[1])) : -1;
      if (lane < 0) return;
      title(el('rect', { 'class': 'fault-target', x: x0, y: top + lane * LANE + LANE - 4, width: Math.max(1, x1 - x0), height: 3 }, svg),
        faultTitle(f));
    });
  }

  function markerPath(shape, px, y) {
    if (shape === 'overlap') return 'M' + (px - 5) + ',' + (y + 9) + ' l5,-9 l5,9 z';          // ▲
    if (shape === 'write') return 'M' + px + ',' + y + ' l5,5 l-5,5 l-5,-5 z';                 // ◆
    return 'M' + (px - 4) + ',' + y + ' h8 v8 h-8 z';                                           // ■
  }

  function drawViolations(svg, key, top, lanes) {
    data.violations.forEach(function (v, i) {
      if (v.advisory || (v.key && v.key !== key.key) || !visible(v.t0, v.t1)) return;
      var sel = i === selected ? ' selected' : '', nodes = [];
      v.spans.forEach(function (s) {
        var lane = laneOf(key, s[0]);
        if (lane < 0 || !visible(s[1], s[2])) return;
        var x0 = clampX(x(s[1])), x1 = clampX(x(s[2])), w = Math.max(3, x1 - x0);
        // A write is a strip over the lower half of the lane, so the bar it belongs to stays visible above it.
        var half = v.shape === 'write';
        nodes.push(el('rect', { 'class': 'violation-span ' + v.shape + sel, x: half && w === 3 ? x0 - 1.5 : x0,
          y: top + lane * LANE + (half ? LANE / 2 + 1 : 1), width: w, height: half ? LANE / 2 - 2 : LANE - 2, 'data-violation': i }, svg));
      });
      if (v.at >= view.a && v.at <= view.b) {
        nodes.push(el('path', { 'class': 'violation-marker ' + v.shape + sel, 'data-violation': i,
          d: markerPath(v.shape, x(v.at), top + lanes * LANE + 3) }, svg));
        if (i === selected)
          el('line', { 'class': 'violation-guide', x1: x(v.at), x2: x(v.at), y1: top - 12, y2: top + lanes * LANE + 12 }, svg);
      }
      nodes.forEach(function (node) {
        title(node, v.kind + ' at ' + fmtMs(v.at) + ': ' + v.description);
        node.addEventListener('click', function () { select(i, false); });
      });
    });
  }

  function drawHolds(svg, key, top) {
    var cited = {};
    data.violations.forEach(function (v) { if (!v.advisory) v.ops.forEach(function (o) { cited[o] = true; }); });
    key.holds.forEach(function (h) {
      if (!visible(h.t0, h.t1)) return;
      var lane = laneOf(key, h.p), y = top + lane * LANE + 4, x0 = clampX(x(h.t0)), x1 = clampX(x(h.t1));
      var bar = el('rect', { 'class': 'hold' + (cited[h.acq] ? ' cited' : ''), x: x0, y: y, width: Math.max(1.5, x1 - x0),
        height: LANE - 8, fill: C.hold }, svg);
      if (h.lease !== null && h.lease < h.t1) {
        var l0 = clampX(x(Math.max(h.lease, h.t0)));
        el('rect', { 'class': 'past-lease', x: l0, y: y, width: Math.max(0, x1 - l0), height: LANE - 8, fill: 'url(#past-lease)',
          'pointer-events': 'none' }, svg);
      }
      var text = 'worker ' + h.p + ' holds ' + key.key + ' (' + h.owner + (h.token !== null ? ', token ' + h.token : '') + ') ' +
        fmtMs(h.t0) + ' – ' + fmtMs(h.t1) + (h.lease !== null && h.lease < h.t1 ? ', ' + fmtMs(h.t1 - h.lease) + ' past its lease' : '') +
        '; acquire op ' + h.acq + (h.rel >= 0 ? ', release op ' + h.rel : ', never released');
      title(bar, text);
      bar.addEventListener('click', function () { document.getElementById('op-details').textContent = text; });
    });
  }

  function drawAttempts(svg, key, top) {
    key.attempts.forEach(function (a) {
      if (a.t < view.a || a.t > view.b) return;
      var lane = laneOf(key, a.p), px = x(a.t), y = top + lane * LANE;
      var outcome = (ATTEMPTS[a.o] || ATTEMPTS.info)[0];
      var tick = el('line', { 'class': 'attempt ' + outcome, x1: px, x2: px, y1: y + 2, y2: y + 6, stroke: C[outcome] }, svg);
      title(tick, 'acquire by worker ' + a.p + ' at ' + fmtMs(a.t) + ': ' + a.o + ' (op ' + a.op + ')');
    });
  }

  // Above an aggregated key: what its lanes show, and a button that draws every lane (or aggregates them again).
  function lanesToggle(key, heading, shared) {
    var own = key.own_lanes.length, others = key.processes.length - own;
    html('span', { 'class': 'lanes-note' }, heading, !shared ? ' — a lane per worker ' : own ?
      ' — lanes aggregated: the ' + own + ' worker' + (own === 1 ? '' : 's') + ' a violation cites ' + (own === 1 ? 'has its' : 'have their') +
      ' own, the other ' + others + ' share one ' : ' — lanes aggregated: no violation here, its ' + others + ' workers share one ');
    var button = html('button', { type: 'button', 'class': 'lanes-toggle', 'data-key': key.key }, heading,
      shared ? 'Show all ' + key.processes.length + ' lanes' : 'Aggregate the lanes');
    button.addEventListener('click', function () {
      var before = heading.getBoundingClientRect().top;
      expanded[key.key] = shared;
      drawTimelines();
      Array.prototype.forEach.call(document.querySelectorAll('#timelines .key-title'), function (h) {
        if (h.getAttribute('data-key') === key.key) window.scrollBy(0, h.getBoundingClientRect().top - before);  // stay put
      });
    });
  }

  function drawKey(key, container) {
    var heading = html('div', { 'class': 'key-title', 'data-key': key.key }, container,
      "Lock '" + key.key + "' — " + key.holds_total + ' sessions, ' + key.attempts_total + ' acquire attempts');
    var drawn = assignLanes(key), lanes = drawn.length, top = 16, height = top + lanes * LANE + 34;
    if (key.aggregated) lanesToggle(key, heading, drawn[0] === SHARED);
    var svg = el('svg', { width: WIDTH, height: height, 'class': 'timeline', 'data-key': key.key }, container);
    var others = key.processes.length - key.own_lanes.length;
    drawn.forEach(function (p, i) {
      el('rect', { 'class': 'lane-bg' + (p === SHARED ? ' shared' : ''), x: LEFT, y: top + i * LANE + 1, width: WIDTH - LEFT - RIGHT,
        height: LANE - 2 }, svg);
      var label = el('text', { 'class': 'lane-label' + (p === SHARED ? ' shared' : ''), x: 4, y: top + i * LANE + 14 }, svg,
        p !== SHARED ? 'worker ' + p : others + (key.own_lanes.length ? ' others' : ' workers'));
      if (p === SHARED) title(label, others + ' workers share this lane (hover a bar or tick for its worker); "Show all ' +
        key.processes.length + ' lanes" draws a lane for each');
    });
    data.faults.forEach(function (f) { drawFault(svg, f, top, lanes * LANE); });
    faultLabels(svg, top);
    drawHolds(svg, key, top);
    drawAttempts(svg, key, top);
    data.faults.forEach(function (f) { drawFaultTargets(svg, f, top, key); });
    drawViolations(svg, key, top, lanes);  // on top: a violation must never hide behind the bars it concerns
    axis(svg, top + lanes * LANE + 16);
    brush(svg, height);
  }

  function brush(svg, height) {
    var start = null, rect = null;
    svg.addEventListener('pointerdown', function (e) {
      start = e.clientX - svg.getBoundingClientRect().left;
      rect = el('rect', { 'class': 'brush', x: start, y: 0, width: 0, height: height }, svg);
    });
    svg.addEventListener('pointermove', function (e) {
      if (start === null) return;
      var now = e.clientX - svg.getBoundingClientRect().left;
      rect.setAttribute('x', Math.min(start, now));
      rect.setAttribute('width', Math.abs(now - start));
    });
    svg.addEventListener('pointerup', function (e) {
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

  // A legend of what is drawn, never of what does not occur.
  function legend(parent, items) {
    var box = html('div', { 'class': 'legend' }, parent);
    items.forEach(function (item) {
      if (!item) return;
      var s = html('span', { 'data-legend': item[1] }, box);
      html('i', { style: 'background:' + item[0] + (item[2] ? ';' + item[2] : '') }, s);
      s.appendChild(document.createTextNode(item[1]));
    });
    return box;
  }

  function timelineLegend(container) {
    var any = function (list, test) { return list.some(test); };
    var holds = any(data.keys, function (k) { return k.holds.length > 0; });
    var pastLease = any(data.keys, function (k) { return any(k.holds, function (h) { return h.lease !== null && h.lease < h.t1; }); });
    var outcomes = {};
    data.keys.forEach(function (k) { k.attempts.forEach(function (a) { outcomes[(ATTEMPTS[a.o] || ATTEMPTS.info)[0]] = true; }); });
    var shapes = {};
    data.violations.forEach(function (v) { if (!v.advisory) shapes[v.shape] = true; });
    var status = {};
    data.faults.forEach(function (f) { status[f.status] = true; if (f.status === 'effective' && f.t0 - f.ti >= 1) status.wait = true; });
    var workerTargets = any(data.faults, function (f) { return f.status === 'effective' && any(f.targets, isWorkerTarget); });
    legend(container, [
      holds && [C.hold, 'lock held'],
      pastLease && [C.hold, 'held past its lease', 'background:' + HATCH.lease],
      status.effective && [C.fault, 'fault in effect'],
      workerTargets && [C.faultTarget, 'fault on this worker'],
      status.wait && ['#c9ced8', 'fault asked for, not yet in effect', 'background:' + HATCH.wait],
      (status.failed || status.unfinished || status['not-run']) && ['#fff', 'fault that never took effect', 'border:1px dashed #8a6d1a'],
      shapes.overlap && [C.overlap, '▲ overlap: two holders at once'],
      shapes.write && [C.write, '◆ lost update or stale write (the write)'],
      shapes.other && [C.other, '■ other violation'],
      outcomes.ok && [C.ok, ATTEMPTS.ok[1]],
      outcomes.held && [C.held, ATTEMPTS.held[1]],
      outcomes.fail && [C.fail, ATTEMPTS.fail[1]],
      outcomes.info && [C.info, ATTEMPTS.info[1]]
    ]);
  }

  function drawTimelines() {
    var container = document.getElementById('timelines');
    container.textContent = '';
    var defs = el('svg', { width: 0, height: 0, style: 'position:absolute' }, container);
    var pattern = el('pattern', { id: 'past-lease', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, el('defs', {}, defs));
    el('rect', { width: 3, height: 6, fill: 'rgba(255,255,255,0.75)' }, pattern);
    var wait = el('pattern', { id: 'wait-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, pattern.parentNode);
    el('rect', { width: 3, height: 6, fill: '#c9ced8' }, wait);
    if (!data.keys.length) html('p', {}, container, 'No lock operations in this history.');
    data.keys.forEach(function (key) { drawKey(key, container); });
    timelineLegend(container);
    var label = 'showing ' + fmtMs(view.a) + ' – ' + fmtMs(view.b) + ' of ' + fmtMs(data.t1 - data.t0);
    if (selected >= 0) label += ' · selected: violation ' + (selected + 1) + ' (' + data.violations[selected].kind + ' at ' +
      fmtMs(data.violations[selected].at) + ')';
    document.getElementById('zoom-label').textContent = label;
  }

  function select(i, scroll) {
    var v = data.violations[i];
    selected = i;
    var pad = Math.max(50, (v.t1 - v.t0) * 1.5);
    showOps(v.checker + ' / ' + v.kind + ' at ' + fmtMs(v.at) + ': ' + v.description + '\nops ' + v.ops.join(', ') + ':', v.ops);
    zoom(v.t0 - pad, v.t1 + pad);
    if (scroll) document.getElementById('timeline-section').scrollIntoView();
  }

  function showOps(heading, ops) {
    var lines = [heading];
    ops.forEach(function (i) {
      var op = data.linked_ops[String(i)];
      lines.push(op ? JSON.stringify(op) : 'op ' + i + ' (see history.jsonl)');
    });
    document.getElementById('op-details').textContent = lines.join('\n');
  }

  function violationItem(list, v, i) {
    var li = html('li', { id: 'v' + i, 'class': 'violation ' + v.shape + (v.advisory ? ' advisory' : '') + (i === selected ? ' selected' : ''),
      'data-violation': i }, list);
    html('span', { 'class': 'kind' }, li, v.kind + ' ');
    li.appendChild(document.createTextNode('(' + v.checker + ') ' + v.description + ' '));
    html('span', { 'class': 'ops' }, li, '— at ' + fmtMs(v.at) + ', ops ' + v.ops.join(', '));
    li.addEventListener('click', function () { select(i, true); });
  }

  function drawViolationList() {
    var list = document.getElementById('violations');
    list.textContent = '';
    var counted = data.violations.filter(function (v) { return !v.advisory; });
    if (!counted.length) html('p', {}, list, 'None that count toward the verdict.');
    data.violations.forEach(function (v, i) { if (!v.advisory) violationItem(list, v, i); });
    if (data.violations_total > data.violations.length)
      html('p', {}, list, (data.violations_total - data.violations.length) + ' more, counted in results.json (violations_total).');
    var advisory = document.getElementById('advisory');
    advisory.textContent = '';
    // An advisory checker's findings share one root cause: one collapsed, grey entry per kind, with its count.
    data.advisory.forEach(function (g) {
      var box = html('details', { 'class': 'advisory-group', 'data-count': g.count }, advisory);
      html('summary', {}, box, g.kind + ' × ' + g.count + ' — ' + g.checker + ', advisory (does not count toward the verdict)');
      if (g.note) html('p', { 'class': 'note' }, box, g.note + '.');
      var inner = html('ol', {}, box);
      data.violations.forEach(function (v, i) { if (v.advisory && v.checker === g.checker && v.kind === g.kind) violationItem(inner, v, i); });
    });
  }

  // A plot's frame: the faults in effect behind it, its y label, the time axis.
  function plotFrame(id, height, yLabel) {
    var svg = el('svg', { width: WIDTH, height: height, 'class': 'plot' }, null);
    var holder = document.getElementById(id);
    holder.textContent = '';
    holder.appendChild(svg);
    data.faults.forEach(function (f) { if (f.status === 'effective') drawFault(svg, f, 0, height - 24); });
    el('text', { 'class': 'y-label', x: 4, y: 12 }, svg, yLabel);
    axis(svg, height - 24);
    return svg;
  }

  function yTick(svg, y, text) {
    el('line', { 'class': 'grid', x1: LEFT, x2: WIDTH - RIGHT, y1: y, y2: y }, svg);
    el('text', { 'class': 'y-tick', x: LEFT - 4, y: y + 4, 'text-anchor': 'end' }, svg, text);
  }

  function drawLatency() {
    var height = 230, svg = plotFrame('latency', height, 'latency, ms (log)');
    var pts = data.latency.filter(function (p) { return p[0] >= view.a && p[0] <= view.b; });
    var qs = data.latency_quantiles.filter(function (q) { return q[0] + data.bucket_ms >= view.a && q[0] <= view.b; });
    var max = 1, min = 1;
    pts.forEach(function (p) { max = Math.max(max, p[1]); if (p[1] > 0) min = Math.min(min, p[1]); });
    qs.forEach(function (q) { max = Math.max(max, q[5]); });
    var lo = Math.pow(10, Math.floor(Math.log10(Math.max(0.001, min)))), hi = Math.max(lo * 10, Math.pow(10, Math.ceil(Math.log10(max))));
    var y = function (ms) { return (height - 30) - (Math.log10(Math.max(lo, ms)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) * (height - 50); };
    for (var v = lo; v <= hi * 1.001; v *= 10) yTick(svg, y(v), v >= 1 ? String(Math.round(v)) : String(+v.toFixed(3)));
    var colors = { acquire: '#4a7bd0', release: '#3aa57a', read: '#8e63c7', write: '#d0824a', renew: '#3a9fb5' };
    var present = {};
    var dot = function (p, slow) {
      present[p[2]] = true;
      var c = el('circle', { 'class': 'latency-point' + (slow ? ' slow' : ''), cx: x(p[0]), cy: y(p[1]),
        r: slow ? 3.2 : p[3] === 'ok' ? 1.8 : 2.6, fill: colors[p[2]] || '#555', opacity: slow || p[3] === 'info' ? 1 : 0.65 }, svg);
      if (slow) title(c, p[2] + ' ' + p[3] + ': ' + fmtMs(p[1]) + ' (op ' + p[4] + ')');
    };
    pts.forEach(function (p) { if (p[1] <= data.latency_p99) dot(p, false); });
    [[4, 'p99', 'quantile p99'], [2, 'p50', 'quantile p50']].forEach(function (q) {
      if (!qs.length) return;
      var d = qs.map(function (b, i) { return (i ? 'L' : 'M') + x(b[0] + data.bucket_ms / 2).toFixed(1) + ',' + y(b[q[0]]).toFixed(1); }).join(' ');
      el('path', { 'class': 'quantile ' + q[1], d: d }, svg);
    });
    pts.forEach(function (p) { if (p[1] > data.latency_p99) dot(p, true); });  // the slow ones on top of everything
    var items = Object.keys(colors).filter(function (f) { return present[f]; }).map(function (f) { return [colors[f], f]; });
    if (qs.length) items.push(['#263238', 'p99 per ' + fmtMs(data.bucket_ms) + ', all ops'], ['#90a4ae', 'p50']);
    var box = legend(document.getElementById('latency'), items);
    box.appendChild(document.createTextNode(pts.length + ' of ' + data.latency_total + ' ops drawn in this window; every op slower than the p99 (' +
      fmtMs(data.latency_p99) + ') is drawn'));
  }

  function drawThroughput() {
    var height = 180, svg = plotFrame('throughput', height, 'completions / s');
    var perS = 1000 / data.bucket_ms, max = 1, present = {};
    data.throughput.forEach(function (b) { max = Math.max(max, (b[1] + b[2] + b[3]) * perS); });
    var step = niceStep(max, height - 50, 28), top = Math.ceil(max / step) * step;
    var base = height - 24, scale = (height - 44) / top;
    for (var v = 0; v <= top + 1e-9; v += step) yTick(svg, base - v * scale, String(Math.round(v)));
    var parts = [[1, '#3aa57a', 'ok'], [2, '#9aa3b2', 'fail'], [3, '#ef6c00', 'info']];
    data.throughput.forEach(function (b) {
      if (!visible(b[0], b[0] + data.bucket_ms)) return;
      var x0 = clampX(x(b[0])), x1 = clampX(x(b[0] + data.bucket_ms)), y = base;
      parts.forEach(function (part) {
        var h = b[part[0]] * perS * scale;
        if (h <= 0) return;
        present[part[2]] = true;
        y -= h;
        title(el('rect', { 'class': 'throughput ' + part[2], x: x0, y: y, width: Math.max(1, x1 - x0 - 1), height: h, fill: part[1] }, svg),
          Math.round(b[part[0]] * perS) + ' ' + part[2] + ' completions/s at ' + fmtMs(b[0]));
      });
    });
    legend(document.getElementById('throughput'), parts.filter(function (p) { return present[p[2]]; }).map(function (p) {
      return [p[1], p[2] === 'ok' ? 'ok' : p[2] === 'fail' ? 'fail (definitely not done)' : 'info (unknown outcome)'];
    }));
  }

  function measure() {
    var box = document.getElementById('timelines');
    WIDTH = Math.max(300, Math.floor(box.clientWidth || 1200));
    LEFT = WIDTH < 600 ? 64 : 90;
  }

  function draw() {
    measure();
    drawTimelines();
    drawViolationList();
    drawLatency();
    drawThroughput();
  }

  document.getElementById('zoom-reset').addEventListener('click', function () { selected = -1; zoom(data.t0, data.t1); });
  Array.prototype.forEach.call(document.querySelectorAll('a.jump'), function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); select(Number(a.getAttribute('data-violation')), true); });
  });
  var resizing = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { if (Math.floor(document.getElementById('timelines').clientWidth) !== WIDTH) draw(); }, 150);
  });
  draw();
  document.body.setAttribute('data-rendered', 'true');
})();
