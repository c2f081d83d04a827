// The drawing code of `retarget report`'s page (apps/retarget/report/page.html inlines it; the
// report's data is the JSON of <script id="report-data">). The 3D skeletons are drawn on 2D
// canvases (orthographic projection, orbit by dragging, zoom with the wheel) and the plots as
// inline SVG. With the fragment #selftest the page checks itself once drawn and writes the result
// as JSON into <pre id="selftest">; #frame=N opens it at frame N. docs/report.md.
'use strict';
(function () {
  // Everything that goes wrong is collected from the first line on, for the self-check.
  var errors = [];
  window.addEventListener('error', function (event) { errors.push(String(event.message || event.type)); });
  var originalError = console.error;
  console.error = function () {
    errors.push(Array.prototype.map.call(arguments, String).join(' '));
    originalError.apply(console, arguments);
  };

  var data = JSON.parse(document.getElementById('report-data').textContent);
  var rows = data.rows;
  var times = data.time;
  var frameCount = times.length;
  var colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
  var humanColor = '#333333';
  var view = { yaw: -0.55, pitch: 0.3, zoom: 1 };
  var state = { frame: 0, playing: false, startWall: 0, startTime: 0 };

  function rowColor(i) { return colors[i % colors.length]; }
  function finite(v) { return typeof v === 'number' && isFinite(v); }
  function escapeText(text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  function fixed(v, digits) { return finite(v) ? v.toFixed(digits) : '\u2014'; }

  // ---- 3D panels: a skeleton is a list of points per frame and the segments joining them.
  function skeletonPanel(caption, color, pointsOf, segments) {
    var wrapper = document.createElement('div');
    wrapper.className = 'panel';
    var title = document.createElement('div');
    title.className = 'caption';
    title.style.color = color;
    title.textContent = caption;
    var canvas = document.createElement('canvas');
    canvas.width = 340;
    canvas.height = 380;
    // Read back by the self-check: a CPU-side canvas keeps getImageData cheap.
    var context = canvas.getContext('2d', { willReadFrequently: true });
    wrapper.appendChild(title);
    wrapper.appendChild(canvas);
    document.getElementById('panels').appendChild(wrapper);
    // The box around every point of every frame fixes the panel's centre and scale.
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (var k = 0; k < frameCount; ++k) {
      var points = pointsOf(k);
      for (var i = 0; i < points.length; ++i) {
        if (!points[i]) continue;
        for (var c = 0; c < 3; ++c) {
          lo[c] = Math.min(lo[c], points[i][c]);
          hi[c] = Math.max(hi[c], points[i][c]);
        }
      }
    }
    var empty = !(lo[0] <= hi[0]);
    var centre = empty ? [0, 0, 0] : [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
    var radius = empty ? 1 : Math.max(0.05, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
    return { canvas: canvas, context: context, color: color, pointsOf: pointsOf, segments: segments, centre: centre,
             radius: radius, floor: empty ? 0 : lo[2] };
  }

  // Orthographic view: turn by yaw about z (up), then tilt by pitch; screen right is the
  // turned y axis (the body's left side when facing the viewer), screen up is z.
  function project(panel, p) {
    var x = p[0] - panel.centre[0], y = p[1] - panel.centre[1], z = p[2] - panel.centre[2];
    var cy = Math.cos(view.yaw), sy = Math.sin(view.yaw), cp = Math.cos(view.pitch), sp = Math.sin(view.pitch);
    var depth = x * cy - y * sy;
    var across = x * sy + y * cy;
    var up = z * cp - depth * sp;
    var scale = view.zoom * 0.46 * Math.min(panel.canvas.width, panel.canvas.height) / panel.radius;
    return [panel.canvas.width / 2 + scale * across, panel.canvas.height / 2 - scale * up];
  }

  function drawPanel(panel) {
    var ctx = panel.context;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, panel.canvas.width, panel.canvas.height);
    // Floor grid under the lowest point, for depth.
    ctx.strokeStyle = '#e2e2e2';
    ctx.lineWidth = 1;
    var r = panel.radius, n = 6;
    for (var g = 0; g <= n; ++g) {
      var s = -r + 2 * r * g / n;
      var a = project(panel, [panel.centre[0] + s, panel.centre[1] - r, panel.floor]);
      var b = project(panel, [panel.centre[0] + s, panel.centre[1] + r, panel.floor]);
      var c = project(panel, [panel.centre[0] - r, panel.centre[1] + s, panel.floor]);
      var d = project(panel, [panel.centre[0] + r, panel.centre[1] + s, panel.floor]);
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]);
      ctx.moveTo(c[0], c[1]); ctx.lineTo(d[0], d[1]);
      ctx.stroke();
    }
    var points = panel.pointsOf(state.frame);
    var screen = points.map(function (p) { return p ? project(panel, p) : null; });
    ctx.strokeStyle = panel.color;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.beginPath();
    panel.segments.forEach(function (segment) {
      var p = screen[segment[0]], q = screen[segment[1]];
      if (!p || !q) return;
      ctx.moveTo(p[0], p[1]);
      ctx.lineTo(q[0], q[1]);
    });
    ctx.stroke();
    ctx.fillStyle = panel.color;
    panel.segments.forEach(function (segment) {
      segment.forEach(function (index) {
        var p = screen[index];
        if (!p) return;
        ctx.beginPath();
        ctx.arc(p[0], p[1], 3, 0, 2 * Math.PI);
        ctx.fill();
      });
    });
  }

  // Flat [x0, y0, z0, x1, ...] (null where unknown) -> [[x, y, z] or null, ...].
  function triples(flat) {
    var out = [];
    for (var i = 0; i + 2 < flat.length; i += 3) {
      out.push(finite(flat[i]) && finite(flat[i + 1]) && finite(flat[i + 2]) ? [flat[i], flat[i + 1], flat[i + 2]] : null);
    }
    return out;
  }

  var panels = [];
  var humanFrames = data.human.positions;
  if (humanFrames.length === frameCount) {
    panels.push(skeletonPanel('human', humanColor, function (k) { return triples(humanFrames[k]); }, data.human.bones));
  }
  rows.forEach(function (row, i) {
    var segments = [];
    row.skeleton.parents.forEach(function (parent, link) { if (parent >= 0) segments.push([parent, link]); });
    var frames = row.skeleton.positions;
    panels.push(skeletonPanel(row.label, rowColor(i), function (k) { return triples(frames[k]); }, segments));
  });
  function drawAll() { panels.forEach(drawPanel); }

  // Orbit and zoom, shared by every panel.
  var drag = null;
  panels.forEach(function (panel) {
    panel.canvas.addEventListener('mousedown', function (event) { drag = [event.clientX, event.clientY]; event.preventDefault(); });
    panel.canvas.addEventListener('wheel', function (event) {
      view.zoom = Math.min(20, Math.max(0.1, view.zoom * Math.exp(-event.deltaY * 0.0015)));
      drawAll();
      event.preventDefault();
    }, { passive: false });
    panel.canvas.addEventListener('dblclick', function () { view.yaw = -0.55; view.pitch = 0.3; view.zoom = 1; drawAll(); });
  });
  window.addEventListener('mousemove', function (event) {
    if (!drag) return;
    view.yaw += (event.clientX - drag[0]) * 0.01;
    view.pitch = Math.min(1.5, Math.max(-1.5, view.pitch + (event.clientY - drag[1]) * 0.01));
    drag = [event.clientX, event.clientY];
    drawAll();
  });
  window.addEventListener('mouseup', function () { drag = null; });

  // ---- Plots (inline SVG). Every plot has the same width and time axis, so one cursor position
  // serves them all.
  var plotWidth = 430, plotHeight = 150, left = 52, right = 10, top = 20, bottom = 22;
  var t0 = frameCount ? times[0] : 0, t1 = frameCount ? times[frameCount - 1] : 1;
  if (!(t1 > t0)) t1 = t0 + 1;
  function xOf(t) { return left + (t - t0) / (t1 - t0) * (plotWidth - left - right); }

  // spec: {title, series: [{values, color}], limits: [lower, upper], marks: [{frame, value, color, filled}],
  //        bands: [{from, to, kind}]}
  function plotMarkup(spec) {
    var lo = Infinity, hi = -Infinity;
    spec.series.forEach(function (s) {
      s.values.forEach(function (v) { if (finite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    });
    (spec.limits || []).forEach(function (v) { if (finite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    if (!(lo <= hi)) { lo = 0; hi = 1; }
    if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
    var pad = (hi - lo) * 0.05;
    lo -= pad; hi += pad;
    function yOf(v) { return top + (hi - v) / (hi - lo) * (plotHeight - top - bottom); }
    var parts = ['<svg width="' + plotWidth + '" height="' + plotHeight + '" viewBox="0 0 ' + plotWidth + ' ' + plotHeight + '">'];
    parts.push('<text class="title" x="' + left + '" y="13">' + escapeText(spec.title) + '</text>');
    (spec.bands || []).forEach(function (band) {
      var x0 = xOf(times[band.from]), x1 = xOf(times[Math.min(frameCount - 1, band.to)]);
      parts.push('<rect class="' + band.kind + '" x="' + (x0 - 1).toFixed(1) + '" y="' + top + '" width="' +
                 Math.max(2, x1 - x0 + 2).toFixed(1) + '" height="' + (plotHeight - top - bottom) + '"/>');
    });
    parts.push('<line class="axis" x1="' + left + '" y1="' + (plotHeight - bottom) + '" x2="' + (plotWidth - right) +
               '" y2="' + (plotHeight - bottom) + '"/>');
    parts.push('<line class="axis" x1="' + left + '" y1="' + top + '" x2="' + left + '" y2="' + (plotHeight - bottom) + '"/>');
    parts.push('<text x="' + (left - 4) + '" y="' + (top + 8) + '" text-anchor="end">' + hi.toPrecision(3) + '</text>');
    parts.push('<text x="' + (left - 4) + '" y="' + (plotHeight - bottom) + '" text-anchor="end">' + lo.toPrecision(3) + '</text>');
    parts.push('<text x="' + left + '" y="' + (plotHeight - 6) + '">' + t0.toFixed(1) + ' s</text>');
    parts.push('<text x="' + (plotWidth - right) + '" y="' + (plotHeight - 6) + '" text-anchor="end">' + t1.toFixed(1) + ' s</text>');
    (spec.limits || []).forEach(function (v) {
      if (!finite(v)) return;
      parts.push('<line class="limit" x1="' + left + '" x2="' + (plotWidth - right) + '" y1="' + yOf(v).toFixed(1) +
                 '" y2="' + yOf(v).toFixed(1) + '"/>');
    });
    spec.series.forEach(function (s) {
      var d = '', pen = false;
      for (var k = 0; k < s.values.length && k < frameCount; ++k) {
        if (!finite(s.values[k])) { pen = false; continue; }
        d += (pen ? 'L' : 'M') + xOf(times[k]).toFixed(1) + ' ' + yOf(s.values[k]).toFixed(1);
        pen = true;
      }
      parts.push('<path class="series" stroke="' + s.color + '" d="' + (d || 'M0 0') + '"/>');
    });
    (spec.marks || []).forEach(function (m) {
      parts.push('<circle class="mark" r="2" cx="' + xOf(times[m.frame]).toFixed(1) + '" cy="' + yOf(m.value).toFixed(1) +
                 '" stroke="' + m.color + '" fill="' + (m.filled ? m.color : '#fff') + '"/>');
    });
    parts.push('<line class="cursor" x1="0" x2="0" y1="' + top + '" y2="' + (plotHeight - bottom) + '"/>');
    parts.push('</svg>');
    return parts.join('');
  }

  // Consecutive frames whose status has `bit`, as bands.
  function bandsOf(status, bit, kind) {
    var bands = [];
    if (!status) return bands;
    for (var k = 0; k < status.length; ++k) {
      if (!(status[k] & bit)) continue;
      if (bands.length && bands[bands.length - 1].to === k - 1) bands[bands.length - 1].to = k;
      else bands.push({ from: k, to: k, kind: kind });
    }
    return bands;
  }

  // Metric curves: one plot per metric, one series per row that has it.
  var curveNames = [];
  rows.forEach(function (row) {
    row.curves.forEach(function (curve) { if (curveNames.indexOf(curve.name) < 0) curveNames.push(curve.name); });
  });
  document.getElementById('curve-plots').innerHTML = curveNames.map(function (name) {
    var series = [];
    rows.forEach(function (row, i) {
      row.curves.forEach(function (curve) { if (curve.name === name) series.push({ values: curve.values, color: rowColor(i) }); });
    });
    return plotMarkup({ title: name, series: series });
  }).join('');

  // Support modes of the whole-body rows: the robot's one-foot stands and walks as bands.
  document.getElementById('mode-plots').innerHTML = rows.filter(function (row) { return row.modes; }).map(function (row) {
    var bands = [];
    ['single-left', 'single-right', 'walking'].forEach(function (kind) {
      var flags = row.modes.map(function (mode) { return mode === kind ? 1 : 0; });
      bands = bands.concat(bandsOf(flags, 1, 'mode-' + kind));
    });
    return plotMarkup({ title: 'support modes, ' + row.label + ' (blue: left foot, orange: right foot, green: walking)',
                        series: [], bands: bands });
  }).join('');

  // Joint angles: per robot, one plot per joint with every row of that robot.
  var robotsShown = [];
  rows.forEach(function (row) { if (robotsShown.indexOf(row.robot) < 0) robotsShown.push(row.robot); });
  var jointHtml = [];
  robotsShown.forEach(function (robot) {
    var members = [];
    rows.forEach(function (row, i) { if (row.robot === robot) members.push(i); });
    jointHtml.push('<h3>' + escapeText(robot) + ' (rad or m)</h3>');
    // Status strips of the mapped rows.
    members.forEach(function (i) {
      var row = rows[i];
      if (!row.status) return;
      var counted = function (bit) { return row.status.filter(function (s) { return s & bit; }).length; };
      jointHtml.push('<div class="meta"><span class="swatch" style="background:' + rowColor(i) + '"></span>' +
                     escapeText(row.label) + ': clamped in ' + counted(1) + ' frames, held in ' + counted(2) +
                     ', collision-avoided in ' + counted(4) + ', not converged in ' + counted(8) + '</div>');
    });
    jointHtml.push('<div class="grid">');
    var names = rows[members[0]].joints.names;
    names.forEach(function (name, j) {
      var series = [], marks = [], bands = [];
      var lower = rows[members[0]].joints.lower[j], upper = rows[members[0]].joints.upper[j];
      members.forEach(function (i) {
        var row = rows[i], values = row.joints.q[j];
        series.push({ values: values, color: rowColor(i) });
        values.forEach(function (v, k) {
          if (!finite(v)) return;
          var onLimit = (finite(lower) && Math.abs(v - lower) <= 1e-6) || (finite(upper) && Math.abs(v - upper) <= 1e-6);
          if (onLimit) marks.push({ frame: k, value: v, color: rowColor(i), filled: !!(row.status && (row.status[k] & 1)) });
        });
        bands = bands.concat(bandsOf(row.status, 2, 'held'), bandsOf(row.status, 4, 'avoided'),
                             bandsOf(row.status, 8, 'unconverged'));
      });
      jointHtml.push(plotMarkup({ title: name, series: series, limits: [lower, upper], marks: marks, bands: bands }));
    });
    jointHtml.push('</div>');
  });
  document.getElementById('joint-plots').innerHTML = jointHtml.join('');

  // ---- Summary table: the columns of `retarget compare` that apply to some row.
  (function () {
    var comparison = data.comparison;
    function valueAt(row, pointer) {
      var node = row;
      var keys = pointer.split('/').slice(1);
      for (var i = 0; i < keys.length; ++i) {
        if (node === null || typeof node !== 'object' || !(keys[i] in node)) return undefined;
        node = node[keys[i]];
      }
      return node;
    }
    var shown = comparison.columns.filter(function (column) {
      return comparison.rows.some(function (row) { return valueAt(row, column.pointer) !== undefined; });
    });
    var html = ['<table id="summary-table"><thead><tr><th class="name" rowspan="2">robot / method</th>'];
    shown.forEach(function (column) {
      html.push('<th title="' + escapeText(column.note || column.group) + '">' + escapeText(column.header) + '</th>');
    });
    html.push('</tr><tr>');
    shown.forEach(function (column) { html.push('<th class="unit">' + escapeText(column.unit) + '</th>'); });
    html.push('</tr></thead><tbody>');
    comparison.rows.forEach(function (row, i) {
      html.push('<tr><td class="name"><span class="swatch" style="background:' + rowColor(i) + '"></span>' +
                escapeText(row.robot + ' / ' + row.label) + '</td>');
      shown.forEach(function (column) { html.push('<td>' + fixed(valueAt(row, column.pointer), column.decimals) + '</td>'); });
      html.push('</tr>');
    });
    html.push('</tbody></table>');
    document.getElementById('summary').innerHTML = html.join('');
    // What each figure compares, for the columns shown that carry a note.
    document.getElementById('notes').innerHTML = shown.filter(function (column) { return column.note; })
        .map(function (column) {
          var details = [];
          if (column.detail) {
            comparison.rows.forEach(function (row) {
              var value = valueAt(row, column.detail);
              if (value === undefined || value === null) return;
              details.push(row.robot + ' / ' + row.label + ': ' + (finite(value) ? value.toFixed(2) : String(value)));
            });
          }
          return '<li><b>' + escapeText(column.header) + '</b>' + (column.unit ? ' (' + escapeText(column.unit) + ')' : '') +
                 ': ' + escapeText(column.note) +
                 (details.length ? '. ' + escapeText(column.detail_name) + ': ' + escapeText(details.join('; ')) : '') + '</li>';
        }).join('');
  })();

  document.getElementById('meta').textContent = data.motion + ' \u00b7 ' + frameCount + ' frames \u00b7 ' +
      (frameCount ? (times[frameCount - 1] - times[0]).toFixed(2) : '0') + ' s \u00b7 ' + rows.length + ' robot trajectories';
  document.getElementById('legend').innerHTML = rows.map(function (row, i) {
    return '<span class="item"><span class="swatch" style="background:' + rowColor(i) + '"></span>' + escapeText(row.label) +
           (row.mapped ? ' (mapped here)' : ' (from CSV)') + '</span>';
  }).join('');

  // ---- Time: slider, play/pause, cursors.
  var slider = document.getElementById('slider');
  var label = document.getElementById('frame-label');
  var playButton = document.getElementById('play');
  slider.max = String(Math.max(0, frameCount - 1));
  var cursors = document.querySelectorAll('line.cursor');
  function setFrame(k) {
    state.frame = Math.max(0, Math.min(frameCount - 1, k | 0));
    slider.value = String(state.frame);
    label.textContent = 'frame ' + state.frame + ' / ' + (frameCount - 1) + ', t = ' + fixed(times[state.frame], 3) + ' s';
    var x = xOf(times[state.frame]).toFixed(1);
    for (var i = 0; i < cursors.length; ++i) { cursors[i].setAttribute('x1', x); cursors[i].setAttribute('x2', x); }
    drawAll();
  }
  slider.addEventListener('input', function () { setFrame(Number(slider.value)); });
  function tick(now) {
    if (!state.playing) return;
    var target = state.startTime + (now - state.startWall) / 1000;
    var k = state.frame;
    while (k + 1 < frameCount && times[k + 1] <= target) ++k;
    if (k >= frameCount - 1 && target > times[frameCount - 1]) {
      // Loop to the start.
      state.startWall = now;
      state.startTime = times[0];
      k = 0;
    }
    if (k !== state.frame) setFrame(k);
    window.requestAnimationFrame(tick);
  }
  playButton.addEventListener('click', function () {
    state.playing = !state.playing;
    playButton.textContent = state.playing ? 'Pause' : 'Play';
    if (state.playing) {
      state.startWall = performance.now();
      state.startTime = times[state.frame];
      window.requestAnimationFrame(tick);
    }
  });

  var options = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (part) {
    if (!part) return;
    var equals = part.indexOf('=');
    options[equals < 0 ? part : part.slice(0, equals)] = equals < 0 ? true : decodeURIComponent(part.slice(equals + 1));
  });
  setFrame(options.frame !== undefined ? Number(options.frame) : 0);

  // ---- Self-check (#selftest).
  function ink(panel) {
    var pixels = panel.context.getImageData(0, 0, panel.canvas.width, panel.canvas.height).data;
    var count = 0, digest = 0;
    for (var i = 0; i < pixels.length; i += 4) {
      if (pixels[i] !== 255 || pixels[i + 1] !== 255 || pixels[i + 2] !== 255) ++count;
      digest = (digest * 31 + pixels[i] + 7 * pixels[i + 1] + 13 * pixels[i + 2]) % 1000000007;
    }
    return { count: count, digest: digest };
  }
  function selfTest() {
    var result = {};
    var before = panels.map(ink);
    result.canvases = panels.length;
    result.inked_canvases = before.filter(function (p) { return p.count > 200; }).length;
    result.joint_series = document.querySelectorAll('#joint-plots path.series').length;
    result.joint_plots = document.querySelectorAll('#joint-plots svg').length;
    result.curve_series = document.querySelectorAll('#curve-plots path.series').length;
    result.curve_plots = document.querySelectorAll('#curve-plots svg').length;
    result.mode_plots = document.querySelectorAll('#mode-plots svg').length;
    result.mode_bands = document.querySelectorAll('#mode-plots rect').length;
    result.drawn_series = document.querySelectorAll('path.series[d^="M"]:not([d="M0 0"])').length;
    result.limit_lines = document.querySelectorAll('#joint-plots line.limit').length;
    result.table_rows = document.querySelectorAll('#summary-table tbody tr').length;
    result.frames = frameCount;
    var frameBefore = state.frame, labelBefore = label.textContent;
    var cursorBefore = cursors.length ? cursors[0].getAttribute('x1') : null;
    var target = frameBefore === Math.floor(frameCount / 2) ? 0 : Math.floor(frameCount / 2);
    slider.value = String(target);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    var after = panels.map(ink);
    result.frame_before = frameBefore;
    result.frame_after = state.frame;
    result.slider_target = target;
    result.label_changed = label.textContent !== labelBefore;
    result.cursor_moved = cursors.length > 0 && cursors[0].getAttribute('x1') !== cursorBefore;
    result.changed_canvases = after.filter(function (p, i) { return p.digest !== before[i].digest; }).length;
    setFrame(frameBefore);
    result.errors = errors.slice();
    document.getElementById('selftest').textContent = JSON.stringify(result);
  }
  if (options.selftest) {
    try {
      selfTest();
    } catch (e) {
      errors.push('self-check: ' + e);
      document.getElementById('selftest').textContent = JSON.stringify({ errors: errors });
    }
  }
})();
