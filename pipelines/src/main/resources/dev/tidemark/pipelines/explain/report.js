// tidemark explain's report: draws the timeline in #tidemark-data on the canvas #plot, with hover
// titles, zoom and pan, and the pane table of the windows in view. Written by hand: the page loads
// nothing from anywhere else, so it can use no charting library.
(function () {
  'use strict';
  var started = performance.now();
  var data = JSON.parse(document.getElementById('tidemark-data').textContent);
  var COLORS = {
    onTime: '#4a78b5', lateWithin: '#f28e2b', late: '#d62728', dead: '#000000',
    watermark: '#2ca02c', closed: '#1f3b73', band: '#e4ecf7', clip: '#f1f1f1'
  };
  // On-time records of partition i take PARTITION_COLORS[i]; the first is the on-time blue.
  var PARTITION_COLORS = ['#4a78b5', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22',
    '#7f7f7f', '#aec7e8'];
  var KINDS = ['on time', 'late within the lateness', 'late (window expired)', 'dead letter'];
  var TIMINGS = ['EARLY', 'ON_TIME', 'LATE', 'UNKNOWN'];
  var MAX_ROWS = 200;

  var canvas = document.getElementById('plot');
  var context = canvas.getContext('2d');
  var width = canvas.width;
  var height = canvas.height;
  var ratio = window.devicePixelRatio || 1;
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  canvas.style.width = width + 'px';
  canvas.style.height = height + 'px';
  context.scale(ratio, ratio);

  // The plot's areas, top to bottom: records later than the view, the view, records earlier
  // than the view, dead letters, the arrival axis.
  var LEFT = 190, RIGHT = 20, TOP = 10, STRIP = 14, BOTTOM = 44;
  var mainTop = TOP + STRIP;
  var mainBottom = height - BOTTOM - 2 * STRIP;
  var deadRow = height - BOTTOM - STRIP / 2;

  var points = decodePoints(data.points);
  var windows = decodeWindows(data.windows);
  var panes = decodePanes(data.panes);
  var full = fitted(1, Math.max(2, data.lines));
  var view = initialView();
  var marks = [];

  // A column of differences (see ReportData) as its values; null stays null.
  function undelta(column) {
    var values = new Array(column.length);
    var previous = 0;
    for (var i = 0; i < column.length; i++) {
      if (column[i] === null) {
        values[i] = null;
      } else {
        previous += column[i];
        values[i] = previous;
      }
    }
    return values;
  }

  // The points of the four kinds' groups as one set of columns, in arrival order.
  function decodePoints(groups) {
    var all = [];
    groups.forEach(function (group, kind) {
      var lines = undelta(group.line);
      var times = undelta(group.t);
      var watermarks = undelta(group.w);
      for (var i = 0; i < lines.length; i++) {
        all.push({ line: lines[i], t: times[i], w: watermarks[i], kind: kind, key: group.key[i],
          part: group.part ? group.part[i] : 0, name: group.name ? group.name[i] : null });
      }
    });
    all.sort(function (a, b) {
      return a.line - b.line;
    });
    function column(field) {
      return all.map(function (point) {
        return point[field];
      });
    }
    return { line: column('line'), t: column('t'), w: column('w'), kind: column('kind'),
      key: column('key'), part: column('part'), name: data.snapshot ? column('name') : null };
  }

  function decodeWindows(columns) {
    var closed = undelta(columns.closed).map(function (line) {
      return line === null ? -1 : line;
    });
    return { start: undelta(columns.start), end: undelta(columns.end), key: columns.key,
      first: undelta(columns.first), closed: closed, idle: columns.idle, w: undelta(columns.w),
      onTime: columns.onTime };
  }

  // Each pane's window, timing, finality and index: the panes of its window and key before it.
  function decodePanes(columns) {
    var window = undelta(columns.window);
    var seen = {};
    var index = window.map(function (w, i) {
      var id = w + ' ' + columns.key[i];
      seen[id] = (seen[id] || 0) + 1;
      return seen[id] - 1;
    });
    return { window: window, key: columns.key, count: columns.count, index: index,
      timing: columns.timing.map(function (t) { return t >> 1; }),
      final: columns.timing.map(function (t) { return t & 1; }) };
  }

  // The event-time range of the on-time records between lines x0 and x1: outliers (records far
  // behind, or far ahead) do not set it, and are drawn in the strips above and below.
  function fitted(x0, x1) {
    var low = Infinity, high = -Infinity;
    for (var pass = 0; pass < 2 && low === Infinity; pass++) {
      for (var i = 0; i < points.line.length; i++) {
        var kind = points.kind[i];
        var line = points.line[i];
        if (points.t[i] !== null && line >= x0 && line <= x1 && (pass === 1 || kind <= 1)) {
          low = Math.min(low, points.t[i]);
          high = Math.max(high, points.t[i]);
        }
      }
    }
    if (low === Infinity) {
      low = 0;
      high = data.windowSize;
    }
    var pad = Math.max(data.windowSize / 2, (high - low) * 0.02);
    return { x0: x0, x1: x1, y0: low - pad, y1: high + pad };
  }

  // The whole recording, or the lines a link names: report.html#lines=1000000-1003000.
  function initialView() {
    var named = /lines=(\d+)-(\d+)/.exec(window.location.hash);
    return named && Number(named[2]) > Number(named[1])
      ? fitted(Number(named[1]), Number(named[2]))
      : copy(full);
  }

  function copy(range) {
    return { x0: range.x0, x1: range.x1, y0: range.y0, y1: range.y1 };
  }

  function px(line) {
    return LEFT + (line - view.x0) / (view.x1 - view.x0) * (width - LEFT - RIGHT);
  }

  function py(time) {
    return mainBottom - (time - view.y0) / (view.y1 - view.y0) * (mainBottom - mainTop);
  }

  // A point's y: in the view, or in the strip above or below it.
  function pointY(time) {
    if (time > view.y1) {
      return TOP + STRIP / 2;
    }
    if (time < view.y0) {
      return mainBottom + STRIP / 2;
    }
    return py(time);
  }

  function clampY(time) {
    return Math.max(mainTop, Math.min(mainBottom, py(time)));
  }

  function inX(line) {
    return line >= view.x0 && line <= view.x1;
  }

  function draw() {
    marks = [];
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.fillStyle = COLORS.clip;
    context.fillRect(LEFT, TOP, width - LEFT - RIGHT, STRIP);
    context.fillRect(LEFT, mainBottom, width - LEFT - RIGHT, STRIP);
    context.save();
    context.beginPath();
    context.rect(LEFT, mainTop, width - LEFT - RIGHT, mainBottom - mainTop);
    context.clip();
    bands();
    context.restore();
    context.save();
    context.beginPath();
    context.rect(LEFT - 8, 0, width - LEFT - RIGHT + 16, height);
    context.clip();
    drawPoints(0);
    context.save();
    context.beginPath();
    context.rect(LEFT, mainTop, width - LEFT - RIGHT, mainBottom - mainTop);
    context.clip();
    watermark();
    // Each partition's watermark over the overall one, which it equals where it holds it back.
    partitionWatermarks();
    context.restore();
    closes();
    drawPoints(1);
    drawPoints(2);
    drawPoints(3);
    context.restore();
    axes();
    paneTable();
  }

  // Every other tumbling window as a shaded band of its event times, when a window is 2 px or
  // taller; of sliding and cumulating windows, every other one of those that tile the time (a
  // whole size long, ending at a multiple of it); each session as a band of its own length, for
  // the lines from its first record to its close.
  function bands() {
    var pixels = data.windowSize / (view.y1 - view.y0) * (mainBottom - mainTop);
    if (pixels < 2 && !data.sessions) {
      return;
    }
    context.fillStyle = COLORS.band;
    for (var i = 0; i < windows.start.length; i++) {
      var start = windows.start[i];
      var end = windows.end[i];
      if (start === null || end === null || start > view.y1 || end < view.y0) {
        continue;
      }
      var top = py(end);
      var height = Math.max(1, py(start) - top);
      if (data.sessions) {
        // From the line of the session's first record to the line after which it closed.
        var left = px(windows.first[i]);
        context.fillRect(left, top, Math.max(1, px(closedAfter(i)) - left), height);
        continue;
      }
      // Windows are aligned to the epoch: those that end at a whole number of sizes tile.
      var absoluteEnd = data.base + end;
      var tiles = absoluteEnd % data.windowSize === 0 && end - start === data.windowSize;
      if (tiles && Math.floor(absoluteEnd / data.windowSize) % 2 === 0) {
        context.fillRect(LEFT, top, width - LEFT - RIGHT, height);
      }
    }
  }

  function stepLine(lines, times, color, lineWidth, dash) {
    context.strokeStyle = color;
    context.lineWidth = lineWidth;
    context.setLineDash(dash);
    context.beginPath();
    var started = false;
    var previous = 0;
    for (var i = 0; i < lines.length; i++) {
      if (times[i] === null) {
        continue;
      }
      var x = px(lines[i]);
      var y = clampY(times[i]);
      if (!started) {
        context.moveTo(x, y);
        started = true;
      } else {
        context.lineTo(x, previous);
        context.lineTo(x, y);
      }
      previous = y;
    }
    context.stroke();
    context.setLineDash([]);
  }

  function watermark() {
    stepLine(points.line, points.w, COLORS.watermark, 3, []);
  }

  function partitionWatermarks() {
    data.partitionWatermarks.forEach(function (partition) {
      stepLine(undelta(partition.line), undelta(partition.w), partitionColor(partition.part), 1.5,
        [6, 3]);
    });
  }

  function partitionColor(part) {
    return PARTITION_COLORS[part % PARTITION_COLORS.length];
  }

  function colorOf(i) {
    switch (points.kind[i]) {
      case 0: return data.partitioned ? partitionColor(points.part[i]) : COLORS.onTime;
      case 1: return COLORS.lateWithin;
      case 2: return COLORS.late;
      default: return COLORS.dead;
    }
  }

  function drawPoints(kind) {
    var visible = 0;
    for (var v = 0; v < points.line.length; v++) {
      if (points.kind[v] === kind && inX(points.line[v])) {
        visible++;
      }
    }
    // Many marks of a kind are drawn smaller, so that they do not cover each other.
    var radius = (visible > 2000 ? [1.5, 1.5, 2, 0] : [2, 4, 5, 0])[kind];
    for (var i = 0; i < points.line.length; i++) {
      if (points.kind[i] !== kind || !inX(points.line[i])) {
        continue;
      }
      var x = px(points.line[i]);
      context.fillStyle = colorOf(i);
      context.strokeStyle = colorOf(i);
      if (kind === 3 || points.t[i] === null) {
        cross(x, deadRow);
        marks.push({ x: x, y: deadRow, point: i });
        continue;
      }
      var y = pointY(points.t[i]);
      if (points.t[i] > view.y1 || points.t[i] < view.y0) {
        triangle(x, y, points.t[i] > view.y1 ? -1 : 1, 5);
      } else {
        context.beginPath();
        context.arc(x, y, radius, 0, 2 * Math.PI);
        context.fill();
      }
      marks.push({ x: x, y: y, point: i });
    }
  }

  function cross(x, y) {
    context.strokeStyle = COLORS.dead;
    context.lineWidth = 2;
    context.beginPath();
    context.moveTo(x - 4, y - 4);
    context.lineTo(x + 4, y + 4);
    context.moveTo(x + 4, y - 4);
    context.lineTo(x - 4, y + 4);
    context.stroke();
  }

  // A triangle pointing up (direction -1) or down (1), its tip at (x, y).
  function triangle(x, y, direction, size) {
    context.beginPath();
    context.moveTo(x, y);
    context.lineTo(x - size, y - direction * size * 1.6);
    context.lineTo(x + size, y - direction * size * 1.6);
    context.closePath();
    context.fill();
  }

  // A mark at each window's end, where it closed: after which line.
  function closes() {
    var shown = [];
    for (var i = 0; i < windows.start.length; i++) {
      var end = windows.end[i];
      if (end !== null && inX(closedAfter(i)) && end >= view.y0 && end <= view.y1) {
        shown.push(i);
      }
    }
    // More closes than one per 8 px of arrival order are ticks, not triangles.
    var dense = shown.length > (width - LEFT - RIGHT) / 8;
    context.fillStyle = COLORS.closed;
    shown.forEach(function (i) {
      var x = px(closedAfter(i));
      var y = py(windows.end[i]);
      if (dense) {
        context.fillRect(x - 1, y - 2, 2, 4);
      } else {
        triangle(x, y, 1, 6);
      }
      marks.push({ x: x, y: dense ? y : y - 5, window: i });
    });
  }

  function closedAfter(i) {
    return windows.closed[i] < 0 ? data.lines : windows.closed[i];
  }

  function axes() {
    context.strokeStyle = '#444444';
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(LEFT, TOP);
    context.lineTo(LEFT, height - BOTTOM);
    context.lineTo(width - RIGHT, height - BOTTOM);
    context.stroke();
    context.fillStyle = '#222222';
    context.font = '12px sans-serif';
    context.textAlign = 'right';
    for (var tick = 0; tick <= 4; tick++) {
      var time = view.y0 + (view.y1 - view.y0) * tick / 4;
      var y = py(time);
      context.fillText(iso(time), LEFT - 8, y + 4);
      context.fillRect(LEFT - 4, y, 4, 1);
      var line = view.x0 + (view.x1 - view.x0) * tick / 4;
      var x = px(line);
      context.textAlign = tick === 0 ? 'left' : tick === 4 ? 'right' : 'center';
      context.fillText(lineName(line), x, height - BOTTOM + 16);
      context.fillRect(x, height - BOTTOM, 1, 4);
      context.textAlign = 'right';
    }
    context.font = '11px sans-serif';
    context.fillText('dead letters', LEFT - 8, deadRow + 4);
    context.fillStyle = '#777777';
    context.fillText('later than the view', width - RIGHT - 4, TOP + STRIP - 3);
    context.fillText('earlier than the view', width - RIGHT - 4, mainBottom + STRIP - 2);
    context.fillStyle = '#222222';
    context.font = '12px sans-serif';
    context.textAlign = 'center';
    context.fillText('arrival order \u2192', (LEFT + width - RIGHT) / 2, height - BOTTOM + 34);
    context.save();
    context.translate(16, (mainTop + mainBottom) / 2);
    context.rotate(-Math.PI / 2);
    context.fillText('event time', 0, 0);
    context.restore();
  }

  function lineName(line) {
    return (data.snapshot ? 'record ' : 'line ') + Math.round(line);
  }

  function iso(millis) {
    return new Date(data.base + millis).toISOString();
  }

  function bounds(i) {
    return '[' + iso(windows.start[i]) + ', ' + iso(windows.end[i]) + ')';
  }

  function windowOf(time) {
    var start = Math.floor((data.base + time) / data.windowSize) * data.windowSize - data.base;
    return '[' + iso(start) + ', ' + iso(start + data.windowSize) + ')';
  }

  // What the mark nearest (x, y), within 8 px, is; null when there is none.
  function titleAt(x, y) {
    var best = null;
    var bestDistance = 64;
    for (var i = 0; i < marks.length; i++) {
      var dx = marks[i].x - x;
      var dy = marks[i].y - y;
      if (dx * dx + dy * dy <= bestDistance) {
        best = marks[i];
        bestDistance = dx * dx + dy * dy;
      }
    }
    if (best === null) {
      return null;
    }
    return best.window !== undefined ? windowTitle(best.window) : pointTitle(best.point);
  }

  function pointTitle(i) {
    var line = points.line[i];
    var text = [(points.name ? points.name[i] : 'line ' + line) + ': ' + KINDS[points.kind[i]]];
    if (data.partitioned) {
      text.push('partition ' + data.partitions[points.part[i]]);
    }
    if (points.key[i] >= 0) {
      text.push('key ' + data.keys[points.key[i]]);
    }
    if (points.t[i] !== null) {
      text.push('event time ' + iso(points.t[i]));
      if (data.tumbling) {
        text.push('window ' + windowOf(points.t[i]));
      }
    }
    text.push('watermark met ' + (points.w[i] === null ? 'none yet' : iso(points.w[i])));
    var dead = data.dead[String(line)];
    if (dead) {
      text.push(dead[0]);
      text.push('-> ' + dead[1]);
    } else if (points.kind[i] === 3) {
      text.push('(the page keeps the text of the first ' + Object.keys(data.dead).length
        + ' dead letters)');
    }
    return text.join('\n');
  }

  function windowTitle(i) {
    var closed = windows.closed[i] < 0
      ? 'closed at the end of the ' + (data.snapshot ? 'snapshot' : 'recording')
      : 'closed ' + (windows.idle[i] ? 'by the idle rule ' : '') + 'after '
        + lineName(windows.closed[i]);
    return (windows.key[i] >= 0 ? 'session of ' + data.keys[windows.key[i]] + ' ' : '')
      + bounds(i) + ': ' + windows.onTime[i] + ' on time, ' + closed
      + (windows.w[i] === null ? '' : '; watermark ' + iso(windows.w[i]));
  }

  // The panes of the windows whose event times are in view, up to MAX_ROWS rows.
  function paneTable() {
    var rows = [];
    var inView = 0;
    for (var i = 0; i < panes.window.length; i++) {
      var w = panes.window[i];
      if (w < 0 || windows.start[w] === null || windows.end[w] < view.y0
          || windows.start[w] > view.y1) {
        continue;
      }
      inView++;
      if (rows.length < MAX_ROWS) {
        rows.push('<tr><td>' + escape(bounds(w)) + '</td><td>'
          + escape(data.keys[panes.key[i]]) + '</td><td>' + TIMINGS[panes.timing[i]]
          + '</td><td>' + panes.index[i] + '</td><td>' + (panes.final[i] ? 'final' : '')
          + '</td><td>' + panes.count[i] + '</td></tr>');
      }
    }
    document.getElementById('panes-body').innerHTML = rows.join('');
    document.getElementById('panes-caption').textContent = inView + ' panes of the windows in view'
      + (inView > rows.length ? ', the first ' + rows.length + ' shown: zoom in for fewer' : '')
      + (data.panesLeftOut > 0 ? '; ' + data.panesLeftOut + ' panes are not in this page' : '');
  }

  function escape(text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  function legend() {
    var entries = [];
    if (data.partitioned) {
      data.partitions.forEach(function (name, i) {
        entries.push([partitionColor(i), 'on time, partition ' + name, 'dot']);
      });
    } else {
      entries.push([COLORS.onTime, 'on time', 'dot']);
    }
    entries.push([COLORS.lateWithin, 'late within the lateness', 'dot']);
    entries.push([COLORS.late, 'late (window expired)', 'dot']);
    entries.push([COLORS.dead, 'dead letter (\u00d7)', 'dot']);
    entries.push([COLORS.watermark, 'watermark met', 'line']);
    if (data.partitioned) {
      entries.push(['#666666', "a partition's watermark (dashed, its color)", 'dash']);
    }
    entries.push([COLORS.closed, 'window closed here (\u25bc)', 'dot']);
    document.getElementById('legend').innerHTML = entries.map(function (entry) {
      return '<span class="swatch ' + entry[2] + '" style="background:' + entry[0]
        + '"></span>' + escape(entry[1]);
    }).join(' ');
  }

  // What is drawn of each kind, out of how many: the downsample is labelled, never hidden.
  function sampleNote() {
    var names = { ON_TIME: 'on-time records', LATE_WITHIN_LATENESS: 'records late within the'
      + ' lateness', LATE: 'late records', DEAD: 'dead letters' };
    var parts = [];
    Object.keys(names).forEach(function (kind) {
      var drawn = data.counts[kind][0];
      var all = data.counts[kind][1];
      if (all === 0) {
        return;
      }
      parts.push(drawn === all ? 'all ' + all + ' ' + names[kind]
        : drawn + ' of ' + all + ' ' + names[kind]
          + (kind === 'LATE' || kind === 'DEAD' ? ' (the first ones)'
            : ' (an even sample in arrival order)'));
    });
    document.getElementById('sample').textContent = 'Drawn: ' + parts.join(', ')
      + ', and every window close. Wheel: zoom arrival order; shift and wheel: zoom event time;'
      + ' drag: pan; double-click: the whole recording; a link to report.html#lines=A-B opens'
      + ' lines A to B.';
  }

  var tooltip = document.getElementById('tooltip');
  var dragging = null;
  canvas.addEventListener('mousemove', function (event) {
    var box = canvas.getBoundingClientRect();
    var x = event.clientX - box.left;
    var y = event.clientY - box.top;
    if (dragging) {
      var dx = (x - dragging.x) / (width - LEFT - RIGHT) * (view.x1 - view.x0);
      var dy = (y - dragging.y) / (mainBottom - mainTop) * (view.y1 - view.y0);
      view.x0 -= dx;
      view.x1 -= dx;
      view.y0 += dy;
      view.y1 += dy;
      dragging = { x: x, y: y };
      draw();
      return;
    }
    var title = titleAt(x, y);
    tooltip.style.display = title === null ? 'none' : 'block';
    if (title !== null) {
      tooltip.textContent = title;
      tooltip.style.left = (event.pageX + 14) + 'px';
      tooltip.style.top = (event.pageY + 14) + 'px';
    }
  });
  canvas.addEventListener('mousedown', function (event) {
    var box = canvas.getBoundingClientRect();
    dragging = { x: event.clientX - box.left, y: event.clientY - box.top };
  });
  window.addEventListener('mouseup', function () {
    dragging = null;
  });
  canvas.addEventListener('mouseleave', function () {
    tooltip.style.display = 'none';
  });
  canvas.addEventListener('dblclick', function () {
    view = copy(full);
    draw();
  });
  canvas.addEventListener('wheel', function (event) {
    event.preventDefault();
    var box = canvas.getBoundingClientRect();
    var factor = event.deltaY < 0 ? 0.8 : 1.25;
    if (event.shiftKey) {
      var time = view.y0 + (mainBottom - (event.clientY - box.top)) / (mainBottom - mainTop)
        * (view.y1 - view.y0);
      view.y0 = time - (time - view.y0) * factor;
      view.y1 = time + (view.y1 - time) * factor;
    } else {
      var line = view.x0 + (event.clientX - box.left - LEFT) / (width - LEFT - RIGHT)
        * (view.x1 - view.x0);
      view.x0 = line - (line - view.x0) * factor;
      view.x1 = line + (view.x1 - line) * factor;
    }
    draw();
  }, { passive: false });

  legend();
  sampleNote();
  draw();

  // For scripts and tests: the title of the mark nearest a line and event time, as a hover shows
  // it, and the view.
  window.tidemarkReport = {
    titleNear: function (line, time) {
      return titleAt(px(line), time === null ? deadRow : pointY(time - data.base));
    },
    view: function () {
      return copy(view);
    }
  };
  document.body.setAttribute('data-render-millis', String(Math.round(performance.now() - started)));
})();
