//! The page's only style sheet and script, inlined so that the page opens
//! from `file://` with no request. Colours keep text at a contrast of at
//! least 7:1; the script adds search, zoom and pan, and everything it does
//! not add (tables, headings, findings) reads without it.

/// The style sheet.
pub(super) const CSS: &str = r#"
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --link: #0b4f9c; --bad: #8a1111; --warn: #6b4a00; --ok: #1d5e20; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; margin: 0; }
header, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; margin: 1rem 0 .5rem; }
h2 { font-size: 1.35rem; margin: 0 0 .5rem; padding-top: .75rem; word-break: break-all; }
h3 { font-size: 1.12rem; margin: 1.25rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h4 { font-size: 1rem; margin: 1rem 0 .4rem; }
h5 { font-size: .95rem; margin: .6rem 0 .3rem; }
a { color: var(--link); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; word-break: break-all; }
section.file { border: 1px solid var(--line); border-radius: 6px; padding: 0 1rem 1rem; margin: 1rem 0 2rem; }
nav ul { list-style: none; padding: 0; margin: .25rem 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
table { border-collapse: collapse; margin: .4rem 0 .8rem; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .2rem 0; }
th, td { border: 1px solid var(--line); padding: .2rem .45rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
table.summary th { width: 14rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll.tall { max-height: 32rem; overflow-y: auto; }
.scroll.tall th { position: sticky; top: 0; }
tr.violation td { background: #fbe3e3; }
tr.warning td { background: #fdf3d6; }
tr.missing td { background: #fbe3e3; }
.verdict.ok { color: var(--ok); font-weight: 600; }
.verdict.warn { color: var(--warn); font-weight: 600; }
.verdict.bad { color: var(--bad); font-weight: 600; }
p.unreadable { color: var(--bad); background: #fbe3e3; border-left: 4px solid var(--bad); padding: .4rem .6rem; }
.search { position: sticky; top: 0; z-index: 2; background: #fff; padding: .4rem 0; border-bottom: 1px solid var(--line); }
.search input { font: inherit; padding: .2rem .4rem; width: 18rem; max-width: 60vw; }
.search button, .tools button { font: inherit; padding: .1rem .6rem; }
.search output { color: var(--muted); margin-left: .5rem; }
figure { margin: .75rem 0 1.25rem; }
figcaption { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
figure.graph .viewport { max-height: 80vh; overflow: auto; border: 1px solid var(--line); background: #fcfcfc; cursor: grab; }
figure.graph .viewport.dragging { cursor: grabbing; user-select: none; }
figure.graph svg { display: block; }
.tools { display: none; gap: .4rem; align-items: center; margin: .25rem 0; }
.js .tools { display: flex; }
.tools .hint { color: var(--muted); font-size: .85rem; }
.node.match rect, .node.match ellipse, .node.match polygon, .node.match path, .node.match circle { fill: #ffd27a !important; stroke: #8a3300 !important; stroke-width: 3px !important; }
.node.current rect, .node.current ellipse, .node.current polygon, .node.current path, .node.current circle { fill: #ffb347 !important; stroke: #5c1f00 !important; stroke-width: 4px !important; }
tr.tensor.match td { background: #ffe7b3; }
svg.treemap, svg.memory { max-width: 100%; height: auto; font-size: 11px; }
svg.treemap rect { stroke: #fff; stroke-width: 1; }
svg.treemap text { fill: var(--ink); pointer-events: none; }
svg.memory rect.plot { fill: #f7f7f7; stroke: var(--line); }
svg.memory rect.tensor { fill: #7fa7d9; stroke: #1f4f8a; stroke-width: .5; }
svg.memory rect.tensor.overlap { fill: #e06666; stroke: #7a0000; }
svg.memory text { fill: var(--ink); }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: .85rem; }
.swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #888; margin-right: .3em; vertical-align: -.1em; }
ol.nodelist { columns: 3 18rem; font-size: .85rem; }
details > summary { cursor: pointer; color: var(--link); margin: .3rem 0; }
footer { color: var(--muted); font-size: .85rem; padding-bottom: 2rem; }
"#;

/// The script: search (class `match` on every `.node` and tensor row of the
/// file whose text holds the query; Enter or "next" scrolls to the next
/// one, opening a folded drawing), zoom (buttons, ctrl + wheel) and pan
/// (drag) of each graph.
pub(super) const JS: &str = r#"
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  function openAncestors(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS' && !p.open) p.open = true;
    }
  }

  document.querySelectorAll('section.file').forEach(function (file) {
    var box = file.querySelector('input[type=search]');
    if (!box) return;
    var status = document.getElementById(box.id + '-status');
    var next = file.querySelector('button.next');
    var items = null, texts = null, hits = [], at = -1;
    function load() {
      if (items) return;
      items = Array.prototype.slice.call(file.querySelectorAll('.node, tr.tensor'));
      texts = items.map(function (n) { return (n.textContent || '').toLowerCase(); });
    }
    function run() {
      load();
      var q = box.value.trim().toLowerCase();
      hits = [];
      var nodes = 0;
      for (var i = 0; i < items.length; i++) {
        var on = q !== '' && texts[i].indexOf(q) >= 0;
        items[i].classList.toggle('match', on);
        items[i].classList.remove('current');
        if (on) {
          hits.push(items[i]);
          if (items[i].classList.contains('node')) nodes++;
        }
      }
      at = -1;
      if (status) {
        status.textContent = q === '' ? '' : nodes + ' node(s) and ' + (hits.length - nodes) + ' tensor(s) match';
      }
    }
    function step() {
      if (!hits.length) return;
      if (at >= 0 && hits[at]) hits[at].classList.remove('current');
      at = (at + 1) % hits.length;
      var el = hits[at];
      el.classList.add('current');
      openAncestors(el);
      if (el.scrollIntoView) el.scrollIntoView({ block: 'center', inline: 'center' });
    }
    box.addEventListener('input', run);
    box.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { e.preventDefault(); step(); }
    });
    if (next) next.addEventListener('click', step);
  });

  document.querySelectorAll('figure.graph').forEach(function (fig) {
    var view = fig.querySelector('.viewport');
    var svg = view && view.querySelector('svg');
    if (!svg) return;
    var w = 0, h = 0, scale = 1;
    function size() {
      if (w > 0) return true;
      var vb = svg.viewBox && svg.viewBox.baseVal;
      w = (vb && vb.width) || parseFloat(svg.getAttribute('width')) || 0;
      h = (vb && vb.height) || parseFloat(svg.getAttribute('height')) || 0;
      return w > 0 && h > 0;
    }
    function zoom(factor, cx, cy) {
      if (!size()) return;
      var s = Math.min(8, Math.max(0.05, factor === 0 ? 1 : scale * factor));
      if (cx === undefined) { cx = view.clientWidth / 2; cy = view.clientHeight / 2; }
      var x = (view.scrollLeft + cx) / scale, y = (view.scrollTop + cy) / scale;
      scale = s;
      svg.style.width = (w * scale) + 'px';
      svg.style.height = (h * scale) + 'px';
      svg.style.maxWidth = 'none';
      view.scrollLeft = x * scale - cx;
      view.scrollTop = y * scale - cy;
    }
    fig.querySelectorAll('[data-zoom]').forEach(function (b) {
      b.addEventListener('click', function () {
        var z = b.getAttribute('data-zoom');
        zoom(z === 'in' ? 1.25 : z === 'out' ? 0.8 : 0);
      });
    });
    view.addEventListener('wheel', function (e) {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      var r = view.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    var drag = null;
    view.addEventListener('pointerdown', function (e) {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, l: view.scrollLeft, t: view.scrollTop };
      view.classList.add('dragging');
      if (view.setPointerCapture) view.setPointerCapture(e.pointerId);
    });
    view.addEventListener('pointermove', function (e) {
      if (!drag) return;
      view.scrollLeft = drag.l - (e.clientX - drag.x);
      view.scrollTop = drag.t - (e.clientY - drag.y);
    });
    function end() { drag = null; view.classList.remove('dragging'); }
    view.addEventListener('pointerup', end);
    view.addEventListener('pointercancel', end);
    view.addEventListener('keydown', function (e) {
      if (e.key === '+' || e.key === '=') zoom(1.25);
      else if (e.key === '-') zoom(0.8);
      else if (e.key === '0') zoom(0);
    });
  });
})();
"#;
