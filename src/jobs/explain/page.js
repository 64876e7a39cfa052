/* The script of sudoku-batch explain's page: draws the step shown as SVG, with the very
   elements, classes and data- attributes of the SVG files (src/jobs/explain/svg.rs), from
   the sizes in #sb-layout and the records in #sb-data (src/jobs/explain/page.rs). The grid
   a step is taken on is replayed from the record's start, as the Rust side's Board does. */
(function () {
  'use strict';
  var L = JSON.parse(document.getElementById('sb-layout').textContent);
  var D = JSON.parse(document.getElementById('sb-data').textContent);
  var view = document.getElementById('sb-view');
  var boards = [];
  var at = { r: 0, k: 0 };

  function peers(a, b) {
    return a !== b && (Math.floor(a / 9) === Math.floor(b / 9) || a % 9 === b % 9 ||
      (Math.floor(a / 27) === Math.floor(b / 27) && Math.floor(a % 9 / 3) === Math.floor(b % 9 / 3)));
  }

  function start(rec) {
    var masks = [], placed = [], given = [];
    for (var c = 0; c < 81; c++) {
      masks.push(parseInt(rec.m.substr(3 * c, 3), 16));
      var g = rec.g.charAt(c);
      placed.push(g === '.' ? 0 : +g);
      given.push(g !== '.');
    }
    return { masks: masks, placed: placed, given: given };
  }

  function apply(b, step) {
    var n = { masks: b.masks.slice(), placed: b.placed.slice(), given: b.given };
    step.e.forEach(function (e) { n.masks[e[0]] &= ~(1 << (e[1] - 1)); });
    step.p.forEach(function (p) {
      var bit = 1 << (p[1] - 1);
      n.masks[p[0]] = bit;
      n.placed[p[0]] = p[1];
      for (var o = 0; o < 81; o++) { if (peers(p[0], o)) { n.masks[o] &= ~bit; } }
    });
    return n;
  }

  /* The grid before step k of record r (boards are kept once replayed). */
  function board(r, k) {
    var rec = D[r];
    if (!boards[r]) { boards[r] = [start(rec)]; }
    var list = boards[r];
    while (list.length <= k) { list.push(apply(list[list.length - 1], rec.s[list.length - 1])); }
    return list[k];
  }

  function f1(x) { return (Math.round(x * 10) / 10).toFixed(1); }

  function corner(cell) {
    return [L.margin + cell % 9 * L.cell, L.margin + Math.floor(cell / 9) * L.cell];
  }

  function centre(cell, digit) {
    var t = L.cell / 3, c = corner(cell), k = digit - 1;
    return [c[0] + (k % 3 + 0.5) * t, c[1] + (Math.floor(k / 3) + 0.5) * t];
  }

  function houseRect(h) {
    var m = L.margin, c = L.cell;
    if (h < 9) { return [m + h % 3 * 3 * c, m + Math.floor(h / 3) * 3 * c, 3 * c, 3 * c]; }
    if (h < 18) { return [m, m + (h - 9) * c, 9 * c, c]; }
    return [m + (h - 18) * c, m, c, 9 * c];
  }

  function linkPath(a, b) {
    var dx = b[0] - a[0], dy = b[1] - a[1];
    var len = Math.max(Math.sqrt(dx * dx + dy * dy), 1);
    var ux = dx / len, uy = dy / len, inset = Math.min(L.inset, len / 3), bow = len / 5;
    return 'M' + f1(a[0] + ux * inset) + ' ' + f1(a[1] + uy * inset) +
      'Q' + f1((a[0] + b[0]) / 2 + uy * bow) + ' ' + f1((a[1] + b[1]) / 2 - ux * bow) +
      ' ' + f1(b[0] - ux * inset) + ' ' + f1(b[1] - uy * inset);
  }

  function has(list, cell, digit) {
    return list.some(function (x) { return x[0] === cell && x[1] === digit; });
  }

  function gridLines(m, c) {
    var end = m + 9 * c, out = '';
    [['grid-thin', false], ['grid-thick', true]].forEach(function (g) {
      out += '<path class="' + g[0] + '" d="';
      for (var i = 0; i <= 9; i++) {
        if ((i % 3 === 0) === g[1]) { var p = m + i * c; out += 'M' + m + ' ' + p + 'H' + end + 'M' + p + ' ' + m + 'V' + end; }
      }
      out += '"/>';
    });
    for (var i = 0; i < 9; i++) {
      var along = m + (i + 0.5) * c;
      out += '<text class="label" x="' + m / 2 + '" y="' + along + '">r' + (i + 1) + '</text>' +
        '<text class="label" x="' + along + '" y="' + m / 2 + '">c' + (i + 1) + '</text>';
    }
    return out;
  }

  function candidates(b, step) {
    var out = '';
    for (var cell = 0; cell < 81; cell++) {
      if (b.placed[cell]) { continue; }
      for (var d = 1; d <= 9; d++) {
        if (!(b.masks[cell] & (1 << (d - 1)))) { continue; }
        var p = centre(cell, d), at = ' data-cell="' + cell + '" data-digit="' + d + '"';
        var disc = has(step.p, cell, d) ? 'place' : has(step.e, cell, d) ? 'elim' : null;
        if (disc) { out += '<circle class="' + disc + '"' + at + ' cx="' + f1(p[0]) + '" cy="' + f1(p[1]) + '" r="' + L.disc + '"/>'; }
        out += '<text class="cand"' + at + ' x="' + f1(p[0]) + '" y="' + f1(p[1]) + '">' + d + '</text>';
      }
    }
    return out;
  }

  function placedDigits(b) {
    var out = '', half = L.cell / 2;
    for (var cell = 0; cell < 81; cell++) {
      if (!b.placed[cell]) { continue; }
      var c = corner(cell);
      out += '<text class="' + (b.given[cell] ? 'given' : 'solved') + '" data-cell="' + cell +
        '" x="' + f1(c[0] + half) + '" y="' + f1(c[1] + half) + '">' + b.placed[cell] + '</text>';
    }
    return out;
  }

  /* The step on its board as SVG markup: the elements of svg.rs's body, in its order. */
  function draw(b, step) {
    var side = 9 * L.cell + 2 * L.margin, m = L.margin, c = L.cell;
    var out = '<svg viewBox="0 0 ' + side + ' ' + side + '" width="' + side + '" height="' + side + '" role="img">' +
      '<defs><marker id="sb-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto">' +
      '<path class="arrowhead" d="M0 0L10 5L0 10z"/></marker></defs>' +
      '<rect class="bg" width="' + side + '" height="' + side + '"/>';
    step.h.forEach(function (h) {
      var r = houseRect(h);
      out += '<rect class="house" data-house="' + h + '" x="' + r[0] + '" y="' + r[1] + '" width="' + r[2] + '" height="' + r[3] + '"/>';
    });
    for (var cell = 0; cell < 81; cell++) {
      var k = corner(cell);
      out += '<rect class="cell' + (step.c.indexOf(cell) >= 0 ? ' mark' : '') + '" data-cell="' + cell +
        '" x="' + k[0] + '" y="' + k[1] + '" width="' + c + '" height="' + c + '"/>';
    }
    out += gridLines(m, c) + candidates(b, step) + placedDigits(b);
    step.l.forEach(function (l) {
      out += '<path class="link ' + l[4] + '" data-from="' + l[0] + ':' + l[1] + '" data-to="' + l[2] + ':' + l[3] +
        '" d="' + linkPath(centre(l[0], l[1]), centre(l[2], l[3])) + '" marker-end="url(#sb-arrow)"/>';
    });
    return out + '</svg>';
  }

  var NONE = { h: [], c: [], p: [], e: [], l: [] };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function recordTitle(rec) {
    var head = (rec.file ? rec.file + ' ' : '') + 'line ' + rec.line;
    if (rec.status !== 'rated') { return head + ': ' + rec.status + (rec.error ? ': ' + rec.error : ''); }
    return head + ': ER ' + rec.er + ' / EP ' + rec.ep + ' / ED ' + rec.ed + (rec.capped ? ' (capped)' : '') +
      ', ' + rec.s.length + ' step' + (rec.s.length === 1 ? '' : 's');
  }

  function fillRecords() {
    var list = document.getElementById('sb-records');
    D.forEach(function (rec, r) {
      var li = el('li', 'entry ' + (rec.status === 'rated' ? 'rated' : 'bad'), recordTitle(rec));
      li.dataset.record = r;
      li.tabIndex = -1;
      li.addEventListener('click', function () { show(r, 0); });
      list.appendChild(li);
    });
  }

  function fillSteps(rec) {
    var list = document.getElementById('sb-steps');
    list.textContent = '';
    (rec.s || []).forEach(function (step, k) {
      var li = el('li', 'step', (k + 1) + '. ' + step.t + ' (' + step.d + ')');
      li.dataset.step = k;
      li.addEventListener('click', function () { show(at.r, k); });
      list.appendChild(li);
    });
  }

  function mark(listId, attr, value) {
    var list = document.getElementById(listId);
    var old = list.querySelector('.current');
    if (old) { old.classList.remove('current'); }
    var now = list.querySelector('[data-' + attr + '="' + value + '"]');
    if (now) { now.classList.add('current'); now.scrollIntoView({ block: 'nearest' }); }
  }

  function show(r, k) {
    var rec = D[r], steps = rec.s || [];
    if (r !== at.r || !document.getElementById('sb-steps').childNodes.length) { fillSteps(rec); }
    at = { r: r, k: k };
    var step = steps[k];
    view.dataset.record = r;
    view.dataset.line = rec.line;
    view.dataset.step = step ? k : -1;
    document.getElementById('sb-title').textContent = recordTitle(rec);
    document.getElementById('sb-board').innerHTML = rec.m ? draw(board(r, step ? k : 0), step || NONE) : '';
    document.getElementById('sb-head').textContent = step ?
      'Step ' + (k + 1) + ' of ' + steps.length + ': ' + step.t + ', difficulty ' + step.d : '';
    document.getElementById('sb-text').textContent = step ? step.x : (rec.error || 'No step: every cell is placed.');
    document.getElementById('sb-chain').textContent = step && step.ch ? step.ch.join('\n') : '';
    mark('sb-records', 'record', r);
    mark('sb-steps', 'step', k);
  }

  function move(by) {
    var steps = D[at.r].s || [], k = at.k + by;
    if (k >= 0 && k < steps.length) { show(at.r, k); return; }
    var r = at.r + (by > 0 ? 1 : -1);
    if (r < 0 || r >= D.length) { return; }
    show(r, by > 0 ? 0 : Math.max((D[r].s || []).length - 1, 0));
  }

  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var steps = (D[at.r] && D[at.r].s) || [];
    var keys = {
      ArrowRight: function () { move(1); },
      ArrowLeft: function () { move(-1); },
      ArrowDown: function () { if (at.r + 1 < D.length) { show(at.r + 1, 0); } },
      ArrowUp: function () { if (at.r > 0) { show(at.r - 1, 0); } },
      Home: function () { show(at.r, 0); },
      End: function () { show(at.r, Math.max(steps.length - 1, 0)); }
    };
    if (keys[e.key] && D.length) { e.preventDefault(); keys[e.key](); }
  });

  fillRecords();
  if (D.length) { show(0, 0); }
  window.sbExplain = { data: D, show: show, draw: draw, board: board };
}());
