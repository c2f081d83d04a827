// The code of `retarget report`'s page (apps/retarget/report/page.html inlines it after the
// libraries; the report's data is the JSON of <script id="report-data">). It builds, from the
// data, a three.js scene (the human's skeleton and each row's robot body on a ground grid), one
// dygraphs plot per metric, joint and timeline, and the summary table; the libraries draw. With
// the fragment #selftest the page checks itself once built and writes the result as JSON into
// <pre id="selftest">; #frame=N opens it at frame N. docs/report.md.
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

  var started = performance.now();
  var data = JSON.parse(document.getElementById('report-data').textContent);
  // #selftest: check the page once built; #frame=N: open it at frame N.
  var options = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (part) {
    if (!part) return;
    var equals = part.indexOf('=');
    options[equals < 0 ? part : part.slice(0, equals)] = equals < 0 ? true : decodeURIComponent(part.slice(equals + 1));
  });
  var colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
  // Every plot's look (dygraphs options), with its own data, series and callbacks added.
  function plotOptions(own) {
    var out = { titleHeight: 20, digitsAfterDecimal: 3, axisLabelFontSize: 10, axisLabelWidth: 44, xAxisHeight: 16 };
    for (var key in own) out[key] = own[key];
    return out;
  }
  if (data.kind === 'batch') {
    batchReport();
    return;
  }
  var rows = data.rows;
  var times = data.time;
  var frameCount = times.length;
  var humanColor = '#444444';
  var state = { frame: 0, playing: false, startWall: 0, startTime: 0 };

  function rowColor(i) { return colors[i % colors.length]; }
  function finite(v) { return typeof v === 'number' && isFinite(v); }
  function escapeText(text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  function fixed(v, digits) { return finite(v) ? v.toFixed(digits) : '\u2014'; }
  function element(tag, className, parent) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (parent) parent.appendChild(e);
    return e;
  }
  // A table whose body's rows are sorted by a click on a header of its first header row (again:
  // the other way); a cell's number is its data-value (cells without one last), the first
  // column's its text. Returns sortBy(column).
  function sortable(table) {
    var headers = table.querySelectorAll('thead tr:first-child th');
    var body = table.tBodies[0];
    var sorted = { column: -1, up: true };
    function sortBy(column) {
      sorted.up = sorted.column === column ? !sorted.up : true;
      sorted.column = column;
      var lines = Array.prototype.slice.call(body.rows);
      lines.sort(function (a, b) {
        var x = a.cells[column], y = b.cells[column];
        if (column === 0) return (sorted.up ? 1 : -1) * x.textContent.localeCompare(y.textContent);
        var u = x.getAttribute('data-value') || '', v = y.getAttribute('data-value') || '';
        if (u === '' || v === '') return (u === '' ? 1 : 0) - (v === '' ? 1 : 0);
        return (sorted.up ? 1 : -1) * (Number(u) - Number(v));
      });
      lines.forEach(function (line) { body.appendChild(line); });
      Array.prototype.forEach.call(headers, function (h, i) {
        h.classList.remove('sorted-up', 'sorted-down');
        if (i === column) h.classList.add(sorted.up ? 'sorted-up' : 'sorted-down');
      });
    }
    Array.prototype.forEach.call(headers, function (h, i) { h.addEventListener('click', function () { sortBy(i); }); });
    return sortBy;
  }
  // Whether column `column` of `table`'s body is ordered (sign 1: ascending, -1: descending),
  // over the cells with a value.
  function ordered(table, column, sign) {
    var values = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[column].getAttribute('data-value') || ''; })
        .filter(function (v) { return v !== ''; }).map(Number);
    return values.every(function (v, i) { return i === 0 || sign * (v - values[i - 1]) >= 0; });
  }

  // ---- 3D: one scene, z up, the ground at z = 0. Each body is a group placed beside the others
  // along y (left to right: the human, then the rows); what moves inside a group is the data's.
  var view = (function () {
    var container = document.getElementById('view');
    var width = container.clientWidth || 900, height = container.clientHeight || 460;
    // preserveDrawingBuffer: a screenshot of the page shows the last frame drawn.
    var renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: false });
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setSize(width, height);
    container.appendChild(renderer.domElement);
    var scene = new THREE.Scene();
    scene.background = new THREE.Color(0xffffff);
    var sky = new THREE.HemisphereLight(0xffffff, 0x777777, 0.85);
    sky.position.set(0, 0, 1);
    scene.add(sky);
    var sun = new THREE.DirectionalLight(0xffffff, 0.55);
    sun.position.set(3, -2, 6);
    scene.add(sun);
    var camera = new THREE.PerspectiveCamera(35, width / height, 0.01, 500);
    camera.up.set(0, 0, 1);
    var controls = new THREE.OrbitControls(camera, renderer.domElement);
    var drawn = { calls: 0, triangles: 0 };
    function render() {
      renderer.render(scene, camera);
      drawn.calls = renderer.info.render.calls;
      drawn.triangles = renderer.info.render.triangles;
    }
    controls.addEventListener('change', render);
    window.addEventListener('resize', function () {
      var w = container.clientWidth || width;
      camera.aspect = w / height;
      camera.updateProjectionMatrix();
      renderer.setSize(w, height);
      render();
    });
    return { scene: scene, camera: camera, controls: controls, renderer: renderer, render: render, drawn: drawn };
  })();

  // Shared unit shapes, scaled per mesh: a sphere of radius 1, a cylinder of radius 1 and height
  // 1 along y (three.js's axis), a cube of edge 1.
  var unit = {
    sphere: new THREE.SphereBufferGeometry(1, 16, 12),
    cylinder: new THREE.CylinderBufferGeometry(1, 1, 1, 16),
    box: new THREE.BoxBufferGeometry(1, 1, 1)
  };
  var yAxis = new THREE.Vector3(0, 1, 0);
  function vector(v) { return new THREE.Vector3(v[0], v[1], v[2]); }

  // A mesh of a segment a -> b of radius r (a cylinder; a capsule adds the end spheres).
  function segmentMesh(a, b, r, material, ends) {
    var group = new THREE.Group();
    var axis = new THREE.Vector3().subVectors(b, a);
    var length = axis.length();
    if (length > 1e-9) {
      var tube = new THREE.Mesh(unit.cylinder, material);
      tube.scale.set(r, length, r);
      tube.position.addVectors(a, b).multiplyScalar(0.5);
      tube.quaternion.setFromUnitVectors(yAxis, axis.normalize());
      group.add(tube);
    }
    (ends ? [a, b] : []).forEach(function (p) {
      var ball = new THREE.Mesh(unit.sphere, material);
      ball.scale.setScalar(r);
      ball.position.copy(p);
      group.add(ball);
    });
    return group;
  }

  // One shape of a body (report.cpp: capsule, sphere, bone, box or cylinder; link frame, m).
  function shapeMesh(shape, material) {
    if (shape.kind === 'box' || shape.kind === 'cylinder') {
      var mesh = new THREE.Mesh(shape.kind === 'box' ? unit.box : unit.cylinder, material);
      mesh.position.copy(vector(shape.p));
      mesh.quaternion.set(shape.q[0], shape.q[1], shape.q[2], shape.q[3]).normalize();
      if (shape.kind === 'box') {
        mesh.scale.set(shape.size[0], shape.size[1], shape.size[2]);
      } else {
        // The cylinder's axis is the shape's z; the unit cylinder's is y.
        mesh.quaternion.multiply(new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), Math.PI / 2));
        mesh.scale.set(shape.size[0], shape.size[1], shape.size[0]);
      }
      return mesh;
    }
    var r = shape.kind === 'bone' ? 0.004 : shape.r;
    return segmentMesh(vector(shape.a), vector(shape.b), r, material, shape.kind !== 'bone');
  }

  // The human's skeleton: a bone per segment, a ball per joint; returns {group, update(k), box}.
  function skeletonBody(color, scale) {
    var material = new THREE.MeshLambertMaterial({ color: color });
    var group = new THREE.Group();
    var frames = data.human.positions;
    var points = [];  // per frame: [Vector3 or null] per joint
    var box = new THREE.Box3();
    frames.forEach(function (flat) {
      var frame = [];
      for (var i = 0; i + 2 < flat.length; i += 3) {
        var ok = finite(flat[i]) && finite(flat[i + 1]) && finite(flat[i + 2]);
        var p = ok ? new THREE.Vector3(flat[i], flat[i + 1], flat[i + 2]) : null;
        if (p) box.expandByPoint(p);
        frame.push(p);
      }
      points.push(frame);
    });
    var radius = 0.012 * scale;
    var bones = data.human.bones.map(function (bone) {
      var mesh = new THREE.Mesh(unit.cylinder, material);
      group.add(mesh);
      return { from: bone[0], to: bone[1], mesh: mesh };
    });
    // A ball on each joint a bone reaches (the others, finger tips and the like, stay out).
    var joints = [];
    data.human.bones.forEach(function (bone) {
      bone.forEach(function (j) {
        if (joints.some(function (ball) { return ball.joint === j; })) return;
        var ball = new THREE.Mesh(unit.sphere, material);
        ball.joint = j;
        ball.scale.setScalar(1.6 * radius);
        group.add(ball);
        joints.push(ball);
      });
    });
    var axis = new THREE.Vector3();
    function update(k) {
      var frame = points[k] || [];
      bones.forEach(function (bone) {
        var a = frame[bone.from], b = frame[bone.to];
        bone.mesh.visible = !!(a && b);
        if (!bone.mesh.visible) return;
        axis.subVectors(b, a);
        var length = axis.length();
        bone.mesh.position.addVectors(a, b).multiplyScalar(0.5);
        if (length > 1e-9) bone.mesh.quaternion.setFromUnitVectors(yAxis, axis.divideScalar(length));
        bone.mesh.scale.set(radius, Math.max(length, 1e-6), radius);
      });
      joints.forEach(function (ball) {
        ball.visible = !!frame[ball.joint];
        if (ball.visible) ball.position.copy(frame[ball.joint]);
      });
    }
    // Feet on the ground: the take's lowest joint at z = 0.
    var inner = new THREE.Group();
    inner.add(group);
    if (!box.isEmpty()) group.position.z = -box.min.z;
    box.translate(new THREE.Vector3(0, 0, group.position.z));
    return { group: inner, update: update, box: box };
  }

  // Colours of a floating-base row's feet by their frame's ground-contact bits
  // (metrics/ground_contact.hpp): in the ground, sliding, floating, standing, else the row's.
  function footColor(bits, side, base) {
    if (bits & 1) return 0xdd0000;
    if (bits & (32 << side)) return 0xff8800;
    if (bits & (8 << side)) return 0x3399ff;
    if (bits & (2 << side)) return 0x22aa22;
    return base;
  }

  // A row's robot: its shapes on its posed links, moved by the frame's poses.
  function robotBody(row, color) {
    var body = row.body;
    var group = new THREE.Group();
    var base = new THREE.Color(color).getHex();
    var material = new THREE.MeshLambertMaterial({ color: color });
    var soles = body.soles || [-1, -1];
    var footMaterials = soles.map(function () { return new THREE.MeshLambertMaterial({ color: color }); });
    var links = body.links.map(function () {
      var node = new THREE.Group();
      group.add(node);
      return node;
    });
    var meshes = 0;
    body.shapes.forEach(function (shape) {
      var side = soles.indexOf(shape.link);
      links[shape.link].add(shapeMesh(shape, side >= 0 ? footMaterials[side] : material));
      ++meshes;
    });
    var box = new THREE.Box3();
    body.poses.forEach(function (pose) {
      for (var i = 0; i + 6 < pose.length; i += 7) box.expandByPoint(new THREE.Vector3(pose[i], pose[i + 1], pose[i + 2]));
    });
    if (!box.isEmpty()) box.expandByScalar(0.05);
    if (body.root_path && body.root_path.length >= 6) {
      var path = new THREE.BufferGeometry();
      path.setAttribute('position', new THREE.Float32BufferAttribute(body.root_path, 3));
      group.add(new THREE.Line(path, new THREE.LineBasicMaterial({ color: 0x888888 })));
    }
    function update(k) {
      var pose = body.poses[k];
      if (!pose) return;
      links.forEach(function (node, i) {
        node.position.set(pose[7 * i], pose[7 * i + 1], pose[7 * i + 2]);
        node.quaternion.set(pose[7 * i + 3], pose[7 * i + 4], pose[7 * i + 5], pose[7 * i + 6]);
      });
      if (body.contacts) {
        footMaterials.forEach(function (m, side) { m.color.setHex(footColor(body.contacts[k] || 0, side, base)); });
      }
    }
    return { group: group, update: update, box: box, meshes: meshes, links: links };
  }

  var bodies = [];  // {group, update, box, label}
  var human = data.human.positions.length === frameCount && frameCount > 0 ? skeletonBody(humanColor, 1) : null;
  if (human) {
    human.label = 'human';
    bodies.push(human);
  }
  var robots = rows.map(function (row, i) {
    var robot = robotBody(row, rowColor(i));
    robot.label = row.label;
    bodies.push(robot);
    return robot;
  });
  // Side by side along y, 0.3 m apart, each centred on x = 0.
  var cursor = 0;
  bodies.forEach(function (b) {
    if (b.box.isEmpty()) b.box.set(new THREE.Vector3(-0.2, -0.2, 0), new THREE.Vector3(0.2, 0.2, 1));
    var centre = b.box.getCenter(new THREE.Vector3());
    b.offset = new THREE.Vector3(-centre.x, cursor - b.box.min.y, 0);
    b.group.position.copy(b.offset);
    cursor += b.box.max.y - b.box.min.y + 0.3;
    view.scene.add(b.group);
  });
  // The human over each robot, scaled to its height (toggled).
  var overlays = [];
  if (human) {
    robots.forEach(function (robot) {
      var scale = Math.max(0.05, robot.box.max.z) / Math.max(0.05, human.box.max.z);
      var copy = skeletonBody(humanColor, scale);
      copy.group.scale.setScalar(scale);
      var from = human.box.getCenter(new THREE.Vector3()), to = robot.box.getCenter(new THREE.Vector3());
      copy.group.position.set(to.x - scale * from.x, to.y - scale * from.y, 0);
      copy.group.visible = false;
      robot.group.add(copy.group);
      overlays.push(copy);
    });
  }
  var everything = new THREE.Box3();
  bodies.forEach(function (b) { everything.union(b.box.clone().translate(b.offset)); });
  var centre = everything.getCenter(new THREE.Vector3()), extent = everything.getSize(new THREE.Vector3());
  var side = Math.ceil(Math.max(extent.x, extent.y, 1) + 1);
  var grid = new THREE.GridHelper(side, Math.round(side / 0.25), 0x999999, 0xdddddd);
  grid.rotation.x = Math.PI / 2;  // three.js's grid lies in x-z
  grid.position.set(centre.x, centre.y, 0);
  view.scene.add(grid);
  var reach = Math.max(extent.y, extent.z, 0.5);
  view.controls.target.copy(centre);
  view.camera.position.set(centre.x + 1.7 * reach, centre.y - 0.7 * reach, centre.z + 0.6 * reach);
  view.controls.update();
  document.getElementById('human-over').addEventListener('change', function (event) {
    var over = event.target.checked;
    overlays.forEach(function (o) { o.group.visible = over; });
    if (human) human.group.visible = !over;
    view.render();
  });
  if (robots.some(function (r, i) { return rows[i].body.floating; })) document.getElementById('contact-legend').hidden = false;

  function showFrame(k) {
    bodies.forEach(function (b) { b.update(k); });
    overlays.forEach(function (o) { o.update(k); });
    view.render();
  }

  // ---- Plots: one dygraph each, all on the time axis, zoomed and hovered together.
  var graphs = [];
  var plotStats = { joint_series: 0, joint_plots: 0, curve_series: 0, curve_plots: 0, limit_series: 0, mode_plots: 0,
                    mode_bands: 0, contact_plots: 0, contact_marks: 0, status_plots: 0 };
  // spec: {parent, title, series: [{name, values, color, style (dygraphs per-series options), row}],
  //        range: [lo, hi] or undefined (the library fits the data)}
  function plot(spec) {
    var box = element('div', 'plot', spec.parent);
    var chart = element('div', 'chart', box);
    var table = [];
    for (var k = 0; k < frameCount; ++k) {
      var line = [times[k]];
      spec.series.forEach(function (s) { var v = s.values[k]; line.push(finite(v) ? v : null); });
      table.push(line);
    }
    var seriesOptions = {};
    spec.series.forEach(function (s) { seriesOptions[s.name] = s.style || {}; });
    var g = new Dygraph(chart, table, plotOptions({
      labels: ['t'].concat(spec.series.map(function (s) { return s.name; })),
      colors: spec.series.map(function (s) { return s.color; }),
      series: seriesOptions,
      title: spec.title,
      valueRange: spec.range || null,
      strokeWidth: 1.3,
      axes: { x: { valueFormatter: function (t) { return 't = ' + t.toFixed(3) + ' s'; } } },
      highlightCircleSize: 3,
      highlightCallback: function (event, x, points, row) { if (!state.playing) showFrame(row); },
      unhighlightCallback: function () { if (!state.playing) showFrame(state.frame); },
      clickCallback: function (event, x) { setFrame(frameAtTime(x)); }
    }));
    graphs.push(g);
    // A check box per row with series here: shows or hides that row's series.
    var owners = [];
    spec.series.forEach(function (s, i) {
      if (s.row === undefined) return;
      var owner = owners.filter(function (o) { return o.row === s.row; })[0];
      if (!owner) owners.push(owner = { row: s.row, columns: [] });
      owner.columns.push(i);
    });
    if (owners.length > 1) {
      var toggles = element('div', 'toggles', box);
      owners.forEach(function (owner) {
        var label = element('label', '', toggles);
        var check = element('input', '', label);
        check.type = 'checkbox';
        check.checked = true;
        check.addEventListener('change', function () { g.setVisibility(owner.columns, check.checked); });
        label.appendChild(document.createTextNode(rows[owner.row].label));
      });
    }
    return g;
  }
  function frameAtTime(t) {
    var k = 0;
    while (k + 1 < frameCount && Math.abs(times[k + 1] - t) <= Math.abs(times[k] - t)) ++k;
    return k;
  }
  // Per frame, 1 where `test(k)` holds, else nothing (a filled step on a timeline plot).
  function flagSeries(test, value) {
    var out = [];
    for (var k = 0; k < frameCount; ++k) out.push(test(k) ? value : null);
    return out;
  }
  function runsOf(values) {
    var runs = 0;
    values.forEach(function (v, k) { if (v !== null && (k === 0 || values[k - 1] === null)) ++runs; });
    return runs;
  }
  function band(name, values, color) {
    return { name: name, values: values, color: color, style: { fillGraph: true, stepPlot: true, strokeWidth: 0, fillAlpha: 0.45 } };
  }

  // Metric curves: one plot per metric, one series per row that has it.
  var curveNames = [];
  rows.forEach(function (row) {
    row.curves.forEach(function (curve) { if (curveNames.indexOf(curve.name) < 0) curveNames.push(curve.name); });
  });
  curveNames.forEach(function (name) {
    var series = [];
    rows.forEach(function (row, i) {
      row.curves.forEach(function (curve) {
        if (curve.name === name) series.push({ name: row.label, values: curve.values, color: rowColor(i), row: i });
      });
    });
    plot({ parent: document.getElementById('curve-plots'), title: name, series: series });
    plotStats.curve_plots += 1;
    plotStats.curve_series += series.length;
  });

  // Ground contact of the floating-base rows: per foot (left above, right below the axis) the
  // human's stance and the frames the robot's sole slides, floats or goes into the ground.
  rows.forEach(function (row, i) {
    var bits = row.body.contacts;
    if (!bits) return;
    var series = [];
    [['left', 0, 1], ['right', 1, -1]].forEach(function (foot) {
      var s = foot[1], sign = foot[2];
      series.push(band(foot[0] + ' stance', flagSeries(function (k) { return bits[k] & (2 << s); }, 0.4 * sign), '#22aa22'));
      series.push(band(foot[0] + ' sliding', flagSeries(function (k) { return bits[k] & (32 << s); }, sign), '#ff8800'));
      series.push(band(foot[0] + ' floating', flagSeries(function (k) { return bits[k] & (8 << s); }, 0.8 * sign), '#3399ff'));
    });
    series.push(band('in the ground', flagSeries(function (k) { return bits[k] & 1; }, 0.2), '#dd0000'));
    plot({ parent: document.getElementById('contact-plots'), title: 'ground contact, ' + row.label + ' (left foot up, right down)',
           series: series, range: [-1.1, 1.1] });
    plotStats.contact_plots += 1;
    series.forEach(function (s) { if (s.name !== 'left stance' && s.name !== 'right stance') plotStats.contact_marks += runsOf(s.values); });
  });

  // Support modes of the whole-body rows: one-foot stands and walks as filled steps.
  rows.forEach(function (row) {
    if (!row.modes) return;
    var series = [
      band('left foot', flagSeries(function (k) { return row.modes[k] === 'single-left'; }, 1), '#0066cc'),
      band('right foot', flagSeries(function (k) { return row.modes[k] === 'single-right'; }, -1), '#cc6600'),
      band('walking', flagSeries(function (k) { return row.modes[k] === 'walking'; }, 0.5), '#009900')
    ];
    plot({ parent: document.getElementById('mode-plots'), title: 'support modes, ' + row.label, series: series, range: [-1.1, 1.1] });
    plotStats.mode_plots += 1;
    plotStats.mode_bands += runsOf(series[0].values) + runsOf(series[1].values);
  });

  // Joint angles: per robot, a status timeline per mapped row, then one plot per joint with every
  // row of that robot, its limits and the samples on a limit.
  var robotsShown = [];
  rows.forEach(function (row) { if (robotsShown.indexOf(row.robot) < 0) robotsShown.push(row.robot); });
  var jointParent = document.getElementById('joint-plots');
  robotsShown.forEach(function (robot) {
    var members = [];
    rows.forEach(function (row, i) { if (row.robot === robot) members.push(i); });
    element('h3', '', jointParent).textContent = robot + ' (rad or m)';
    var grid = element('div', 'grid', jointParent);
    members.forEach(function (i) {
      var row = rows[i];
      if (!row.status) return;
      var counted = function (bit) { return row.status.filter(function (s) { return s & bit; }).length; };
      var bit = function (b) { return flagSeries(function (k) { return row.status[k] & b; }, 1); };
      plot({ parent: grid, title: 'statuses, ' + row.label + ' (frames)',
             series: [band('clamped ' + counted(1), bit(1), '#d62728'), band('held ' + counted(2), bit(2), '#888888'),
                      band('collision-avoided ' + counted(4), bit(4), '#ff8800'),
                      band('not converged ' + counted(8), bit(8), '#aa00ff')],
             range: [0, 1.1] });
      plotStats.status_plots += 1;
    });
    var first = rows[members[0]];
    first.joints.names.forEach(function (name, j) {
      var lower = first.joints.lower[j], upper = first.joints.upper[j];
      var series = [], lo = Infinity, hi = -Infinity;
      members.forEach(function (i) {
        var row = rows[i], values = row.joints.q[j];
        values.forEach(function (v) { if (finite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
        series.push({ name: row.label, values: values, color: rowColor(i), row: i });
        var onLimit = values.map(function (v) {
          return finite(v) && ((finite(lower) && Math.abs(v - lower) <= 1e-6) || (finite(upper) && Math.abs(v - upper) <= 1e-6)) ? v : null;
        });
        if (onLimit.some(function (v) { return v !== null; })) {
          series.push({ name: row.label + (row.status ? ' clamped' : ' at a limit'), values: onLimit, color: rowColor(i), row: i,
                        style: { strokeWidth: 0, drawPoints: true, pointSize: 2.5 } });
        }
      });
      // The axis fits the data; a limit within half the data's span of it is shown as well.
      if (!(lo <= hi)) { lo = -1; hi = 1; }
      var span = Math.max(hi - lo, 1e-3);
      [lower, upper].forEach(function (limit) {
        if (finite(limit) && limit >= lo - 0.5 * span && limit <= hi + 0.5 * span) { lo = Math.min(lo, limit); hi = Math.max(hi, limit); }
      });
      // At least 0.05 (rad or m) tall, so that a joint held still is a line, not noise.
      var middle = 0.5 * (lo + hi), half = Math.max(0.5 * (hi - lo), 0.025);
      lo = middle - half;
      hi = middle + half;
      var pad = 0.06 * (hi - lo);
      [['lower limit', lower], ['upper limit', upper]].forEach(function (limit) {
        if (!finite(limit[1])) return;
        series.push({ name: limit[0], values: flagSeries(function () { return true; }, limit[1]), color: '#cc0000',
                      style: { strokePattern: Dygraph.DASHED_LINE, strokeWidth: 1 } });
        plotStats.limit_series += 1;
      });
      plot({ parent: grid, title: name + ' [' + fixed(lower, 2) + ', ' + fixed(upper, 2) + ']', series: series,
             range: [lo - pad, hi + pad] });
      plotStats.joint_plots += 1;
      plotStats.joint_series += members.length;
    });
  });
  if (graphs.length >= 2) Dygraph.synchronize(graphs, { selection: true, zoom: true, range: false });

  // ---- Summary table: the columns of `retarget compare` that apply to some row, sortable.
  var table = (function () {
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
      html.push('<tr data-row="' + i + '"><td class="name"><span class="swatch" style="background:' + rowColor(i) + '"></span>' +
                escapeText(row.robot + ' / ' + row.label) + '</td>');
      shown.forEach(function (column) {
        var v = valueAt(row, column.pointer);
        html.push('<td data-value="' + (finite(v) ? v : '') + '">' + fixed(v, column.decimals) + '</td>');
      });
      html.push('</tr>');
    });
    html.push('</tbody></table>');
    document.getElementById('summary').innerHTML = html.join('');
    var sortBy = sortable(document.getElementById('summary-table'));
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
    return { sortBy: sortBy, body: document.querySelector('#summary-table tbody'), columns: shown.length };
  })();

  document.getElementById('meta').textContent = data.motion + ' \u00b7 ' + frameCount + ' frames \u00b7 ' +
      (frameCount ? (times[frameCount - 1] - times[0]).toFixed(2) : '0') + ' s \u00b7 ' + rows.length + ' robot trajectories';
  document.getElementById('legend').innerHTML = 'left to right: ' + (human ? '<span class="item"><span class="swatch" style="background:' +
      humanColor + '"></span>human</span>' : '') + rows.map(function (row, i) {
    return '<span class="item"><span class="swatch" style="background:' + rowColor(i) + '"></span>' + escapeText(row.label) +
           (row.mapped ? ' (mapped here)' : ' (from CSV)') + (row.body.floating ? ', floating base' : '') + '</span>';
  }).join('');

  // ---- Time: slider, play/pause; the plots' selection follows the frame.
  var slider = document.getElementById('slider');
  var label = document.getElementById('frame-label');
  var playButton = document.getElementById('play');
  slider.max = String(Math.max(0, frameCount - 1));
  function setFrame(k) {
    state.frame = Math.max(0, Math.min(frameCount - 1, k | 0));
    slider.value = String(state.frame);
    label.textContent = 'frame ' + state.frame + ' / ' + (frameCount - 1) + ', t = ' + fixed(times[state.frame], 3) + ' s';
    graphs.forEach(function (g) { g.setSelection(state.frame); });
    showFrame(state.frame);
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

  setFrame(options.frame !== undefined ? Number(options.frame) : 0);

  // ---- Self-check (#selftest): what was built from the data, what the libraries drew, and
  // what moving the slider and sorting the table did.
  function poseDigest() {
    var sum = 0;
    robots.forEach(function (r) { r.links.forEach(function (node) { sum += Math.abs(node.position.x) + 3 * Math.abs(node.position.z); }); });
    return sum;
  }
  function selfTest() {
    var result = { build_ms: Math.round(performance.now() - started) };
    for (var key in plotStats) result[key] = plotStats[key];
    result.webgl = view.renderer.getContext() !== null;
    result.bodies = robots.length;
    result.human = !!human;
    result.meshes = robots.map(function (r) { return r.meshes; });
    result.draw_calls = view.drawn.calls;
    result.triangles = view.drawn.triangles;
    result.graphs = graphs.length;
    // Series with a value drawn in some frame, over every plot.
    result.drawn_series = 0;
    graphs.forEach(function (g) {
      for (var c = 1; c < g.numColumns(); ++c) {
        for (var r = 0; r < g.numRows(); ++r) {
          if (g.getValue(r, c) !== null) { ++result.drawn_series; break; }
        }
      }
    });
    result.table_rows = document.querySelectorAll('#summary-table tbody tr').length;
    result.frames = frameCount;
    var frameBefore = state.frame, labelBefore = label.textContent, posesBefore = poseDigest();
    var target = frameBefore === Math.floor(frameCount / 2) ? 0 : Math.floor(frameCount / 2);
    slider.value = String(target);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    result.frame_before = frameBefore;
    result.frame_after = state.frame;
    result.slider_target = target;
    result.label_changed = label.textContent !== labelBefore;
    result.selected_graphs = graphs.filter(function (g) { return g.getSelection() === target; }).length;
    result.bodies_moved = poseDigest() !== posesBefore;
    setFrame(frameBefore);
    // The human over the robots and back: one scaled copy per robot in place of the human.
    var over = document.getElementById('human-over');
    over.checked = true;
    over.dispatchEvent(new Event('change'));
    result.overlays = overlays.filter(function (o) { return o.group.visible; }).length;
    result.human_beside = !!(human && human.group.visible);
    over.checked = false;
    over.dispatchEvent(new Event('change'));
    // Sorting by the first figure: ascending, then again descending (rows without a value last).
    if (table.columns > 0) {
      var summary = document.getElementById('summary-table');
      table.sortBy(1);
      result.sorted_up = ordered(summary, 1, 1);
      table.sortBy(1);
      result.sorted_down = ordered(summary, 1, -1);
    }
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

  // ---- The batch view (`retarget batch report`): the summaries' takes, one line each (docs/
  // batch.md), as a sortable table and a plot per numeric figure across the takes.
  function batchReport() {
    document.getElementById('single').hidden = true;
    document.getElementById('batch').hidden = false;
    var takes = data.takes;
    var failed = takes.filter(function (t) { return t.status !== 'ok'; }).length;
    document.getElementById('meta').textContent = takes.length + ' takes (' + failed + ' failed) from ' + data.summaries.join(', ');
    // The columns: the path, the status, every numeric field, then the other fields (the error
    // last, being long), in first-seen order.
    var texts = [], numbers = [];
    takes.forEach(function (take) {
      Object.keys(take).forEach(function (key) {
        if (key === 'path' || texts.indexOf(key) >= 0 || numbers.indexOf(key) >= 0) return;
        (typeof take[key] === 'number' ? numbers : texts).push(key);
      });
    });
    numbers = numbers.filter(function (key) { return takes.every(function (t) { return t[key] === undefined || t[key] === null || finite(t[key]); }); });
    texts = texts.filter(function (key) { return numbers.indexOf(key) < 0 && key !== 'status' && key !== 'error'; });
    texts = ['status'].concat(texts.concat(['error']));
    function textCell(take, key) {
      var v = take[key];
      return '<td class="name">' + (v === undefined || v === null ? '' : escapeText(typeof v === 'object' ? JSON.stringify(v) : v)) + '</td>';
    }
    var html = ['<table id="batch-takes"><thead><tr><th class="name">path</th><th class="name">status</th>'];
    numbers.concat(texts.slice(1)).forEach(function (key) {
      html.push('<th' + (numbers.indexOf(key) < 0 ? ' class="name"' : '') + '>' + escapeText(key) + '</th>');
    });
    html.push('</tr></thead><tbody>');
    takes.forEach(function (take, i) {
      html.push('<tr data-row="' + i + '"><td class="name">' + escapeText(take.path) + '</td>' + textCell(take, 'status'));
      numbers.forEach(function (key) {
        var v = take[key];
        html.push('<td data-value="' + (finite(v) ? v : '') + '">' + (finite(v) ? String(Math.round(v * 1000) / 1000) : '\u2014') + '</td>');
      });
      texts.slice(1).forEach(function (key) { html.push(textCell(take, key)); });
      html.push('</tr>');
    });
    html.push('</tbody></table>');
    document.getElementById('batch-table').innerHTML = html.join('');
    var table = document.getElementById('batch-takes');
    var sortBy = sortable(table);
    // A plot per figure: x is the take's place in path order, hovering names it.
    var graphs = numbers.map(function (key) {
      var box = element('div', 'plot', document.getElementById('batch-plots'));
      var chart = element('div', 'chart', box);
      var points = takes.map(function (take, i) { return [i + 1, finite(take[key]) ? take[key] : null]; });
      return new Dygraph(chart, points, plotOptions({
        labels: ['take', key], title: key, colors: [colors[0]], strokeWidth: 0, drawPoints: true, pointSize: 2.5,
        axes: { x: { valueFormatter: function (x) { var t = takes[x - 1]; return t ? escapeText(t.path) : ''; } } }
      }));
    });
    if (graphs.length >= 2) Dygraph.synchronize(graphs, { selection: true, zoom: true, range: false });
    if (!options.selftest) return;
    var result = { build_ms: Math.round(performance.now() - started), takes: takes.length, failed: failed,
                   table_rows: table.tBodies[0].rows.length, batch_plots: graphs.length, figures: numbers };
    if (numbers.length > 0) {
      var column = 2;  // the first figure
      sortBy(column);
      result.sorted_up = ordered(table, column, 1);
      sortBy(column);
      result.sorted_down = ordered(table, column, -1);
    }
    result.errors = errors.slice();
    document.getElementById('selftest').textContent = JSON.stringify(result);
  }
})();
