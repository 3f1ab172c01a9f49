// Charts: uPlot (vendored, global `uPlot`) for the timeline and time series (fast, small, drag to
// select built in); column, bar and pie as plain SVG, which category axes need and uPlot lacks.

import { escapeHtml } from './spl.js';

export const PALETTE = ['#2f7de1', '#e8743b', '#19a979', '#945ecf', '#13a4b4', '#ed4a7b', '#bf8b00',
  '#6c8893', '#d9598c', '#8ec251', '#525df4', '#a35d3b'];

const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

const compact = (v) => {
  if (v === null || v === undefined) return '';
  const a = Math.abs(v);
  if (a >= 1e9) return (v / 1e9).toFixed(a >= 1e10 ? 0 : 1) + 'G';
  if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e3) return (v / 1e3).toFixed(a >= 1e4 ? 0 : 1) + 'k';
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
};

function axes() {
  const stroke = css('--muted');
  const grid = { stroke: css('--border'), width: 1 };
  return [
    { stroke, grid: { show: false }, ticks: { stroke: css('--border') } },
    { stroke, grid, ticks: { show: false }, size: 46, values: (u, vals) => vals.map(compact) },
  ];
}

/**
 * The timeline: one column per bucket. `onSelect(from, to)` when a range is dragged or a bar
 * clicked (epoch seconds). Returns the uPlot instance.
 */
export function timeline(container, times, counts, spanSeconds, range, onSelect) {
  container.innerHTML = '';
  const width = container.clientWidth || 600;
  const bars = globalThis.uPlot.paths.bars({ size: [0.86, 80], align: 1 });
  let dragged = false;
  const opts = {
    width,
    height: container.clientHeight || 110,
    padding: [6, 28, 0, 0],
    cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
    select: { show: true },
    legend: { show: false },
    scales: { x: { time: true, range: () => range }, y: { range: (u, min, max) => [0, Math.max(1, max)] } },
    axes: (() => { const a = axes(); a[1].space = 16; a[1].size = 40; return a; })(),
    series: [
      {},
      { label: 'count', fill: css('--bar'), stroke: css('--bar'), width: 0, paths: bars, points: { show: false } },
    ],
    hooks: {
      setSelect: [(u) => {
        if (u.select.width < 4) return;
        dragged = true;
        const from = u.posToVal(u.select.left, 'x');
        const to = u.posToVal(u.select.left + u.select.width, 'x');
        u.setSelect({ left: 0, width: 0 }, false);
        onSelect(Math.floor(from), Math.ceil(to));
      }],
    },
  };
  const plot = new globalThis.uPlot(opts, [times, counts], container);
  plot.over.addEventListener('click', () => {
    if (dragged) { dragged = false; return; }
    const idx = plot.cursor.idx;
    if (idx === null || idx === undefined || !counts[idx]) return;
    onSelect(times[idx], times[idx] + spanSeconds);
  });
  plot.over.title = 'Drag to zoom; click a bar to narrow to it';
  const tip = document.createElement('div');
  tip.className = 'tooltip';
  tip.hidden = true;
  tip.style.position = 'absolute';
  container.style.position = 'relative';
  container.append(tip);
  plot.over.addEventListener('mousemove', () => {
    const idx = plot.cursor.idx;
    if (idx === null || idx === undefined) { tip.hidden = true; return; }
    tip.hidden = false;
    tip.className = 'tooltip timeline-tip';
    tip.textContent = `${counts[idx] ?? 0} events · ${new Date(times[idx] * 1000).toLocaleString()}`;
    tip.style.left = Math.min(plot.cursor.left + 60, width - 200) + 'px';
    tip.style.top = '0px';
  });
  plot.over.addEventListener('mouseleave', () => { tip.hidden = true; });
  return plot;
}

/**
 * A chart of a result table. `table`: {fields: [{name, type}], rows: [[…]]}. The first column is
 * the x axis (time when it is `_time`), every numeric column after it a series.
 */
export function chart(container, legend, type, table) {
  container.innerHTML = '';
  legend.innerHTML = '';
  const { fields, rows } = table;
  if (!fields.length || !rows.length) {
    container.innerHTML = '<p class="muted">No results to chart.</p>';
    return null;
  }
  const timeAxis = fields[0].name === '_time';
  const seriesIdx = [];
  fields.forEach((f, i) => {
    if (i === 0) return;
    if (f.name.startsWith('_') && f.name !== '_count') return;
    if (rows.some((r) => typeof r[i] === 'number' || (typeof r[i] === 'string' && r[i] !== '' && !Number.isNaN(Number(r[i]))))) {
      seriesIdx.push(i);
    }
  });
  if (!seriesIdx.length) {
    container.innerHTML = '<p class="muted">These results have no numeric column to chart.</p>';
    return null;
  }
  const series = seriesIdx.map((i, k) => ({ name: fields[i].name, color: PALETTE[k % PALETTE.length],
    values: rows.map((r) => (r[i] === null || r[i] === undefined || r[i] === '' ? null : Number(r[i]))) }));
  const labels = rows.map((r) => (timeAxis ? Date.parse(r[0]) / 1000 : r[0] === null ? 'NULL' : String(r[0])));
  for (const s of series) {
    const item = document.createElement('span');
    item.className = 'legend-item';
    item.dataset.series = s.name;
    item.innerHTML = `<span class="swatch" style="background:${s.color}"></span>${escapeHtml(s.name)}`;
    legend.append(item);
  }
  if (type === 'pie') return pie(container, labels, series[0], timeAxis);
  if (timeAxis && (type === 'line' || type === 'area')) return timeSeries(container, labels, series, type);
  return columns(container, labels, series, type === 'bar', timeAxis, type);
}

function timeSeries(container, times, series, type) {
  const opts = {
    width: container.clientWidth - 20 || 600,
    height: 320,
    legend: { show: false },
    cursor: { points: { size: 6 } },
    scales: { x: { time: true } },
    axes: axes(),
    series: [{}, ...series.map((s) => ({
      label: s.name, stroke: s.color, width: 2, spanGaps: false,
      fill: type === 'area' ? s.color + '33' : undefined, points: { show: times.length < 60 },
    }))],
  };
  const plot = new globalThis.uPlot(opts, [times, ...series.map((s) => s.values)], container);
  plot.root.classList.add('chart-uplot');
  return plot;
}

const NS = 'http://www.w3.org/2000/svg';
const el = (name, attrs = {}, text) => {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
};

function tooltipFor(container) {
  const tip = document.createElement('div');
  tip.className = 'tooltip';
  tip.hidden = true;
  container.append(tip);
  return (event, text) => {
    if (!text) { tip.hidden = true; return; }
    tip.hidden = false;
    tip.textContent = text;
    const box = container.getBoundingClientRect();
    tip.style.left = Math.min(event.clientX - box.left + 12, box.width - 160) + 'px';
    tip.style.top = (event.clientY - box.top + 12) + 'px';
  };
}

function formatLabel(label, timeAxis) {
  if (!timeAxis) return label;
  const d = new Date(label * 1000);
  return d.toLocaleString([], { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Grouped columns (vertical) or bars (horizontal), one group per row. */
function columns(container, labels, series, horizontal, timeAxis, type) {
  const width = Math.max(320, container.clientWidth - 20);
  const values = series.flatMap((s) => s.values).filter((v) => v !== null);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const tip = tooltipFor(container);
  const n = labels.length;
  const labelWidth = horizontal ? Math.min(180, Math.max(60, ...labels.map((l) => String(formatLabel(l, timeAxis)).length * 6.5))) : 0;
  const height = horizontal ? Math.max(160, n * Math.max(18, series.length * 12) + 40) : 320;
  const pad = { left: horizontal ? labelWidth + 8 : 52, right: 16, top: 10, bottom: horizontal ? 24 : 56 };
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, height, role: 'img', 'aria-label': `${type} chart`, class: `chart-${type}` });
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const span = max - min || 1;
  const scale = (v) => ((v - min) / span) * (horizontal ? plotW : plotH);
  // value grid
  for (let k = 0; k <= 4; k++) {
    const v = min + (span * k) / 4;
    if (horizontal) {
      const x = pad.left + scale(v);
      svg.append(el('line', { x1: x, x2: x, y1: pad.top, y2: pad.top + plotH, class: 'axis' }));
      svg.append(el('text', { x, y: height - 6, 'text-anchor': 'middle' }, compact(v)));
    } else {
      const y = pad.top + plotH - scale(v);
      svg.append(el('line', { x1: pad.left, x2: pad.left + plotW, y1: y, y2: y, class: 'axis' }));
      svg.append(el('text', { x: pad.left - 6, y: y + 4, 'text-anchor': 'end' }, compact(v)));
    }
  }
  const band = (horizontal ? plotH : plotW) / n;
  const barSize = Math.max(1, (band * 0.78) / series.length);
  const every = Math.ceil(n / Math.max(1, Math.floor((horizontal ? plotH : plotW) / (horizontal ? 16 : 70))));
  labels.forEach((label, i) => {
    const text = String(formatLabel(label, timeAxis));
    if (i % every === 0) {
      if (horizontal) {
        svg.append(el('text', { x: pad.left - 6, y: pad.top + band * i + band / 2 + 4, 'text-anchor': 'end' }, text.length > 28 ? text.slice(0, 27) + '…' : text));
      } else {
        const x = pad.left + band * i + band / 2;
        svg.append(el('text', { x, y: height - pad.bottom + 16, 'text-anchor': 'end', transform: `rotate(-30 ${x} ${height - pad.bottom + 16})` }, text.length > 18 ? text.slice(0, 17) + '…' : text));
      }
    }
    series.forEach((s, k) => {
      const v = s.values[i];
      if (v === null) return;
      const start = band * i + band * 0.11 + barSize * k;
      const a = scale(Math.min(0, v));
      const b = scale(Math.max(0, v));
      const rect = horizontal
        ? el('rect', { x: pad.left + a, y: pad.top + start, width: Math.max(1, b - a), height: barSize, fill: s.color, rx: 2 })
        : el('rect', { x: pad.left + start, y: pad.top + plotH - b, width: barSize, height: Math.max(1, b - a), fill: s.color, rx: 2 });
      rect.dataset.series = s.name;
      rect.dataset.value = v;
      rect.addEventListener('mousemove', (e) => tip(e, `${text} · ${s.name}: ${v.toLocaleString()}`));
      rect.addEventListener('mouseleave', (e) => tip(e, null));
      svg.append(rect);
    });
  });
  container.append(svg);
  return svg;
}

function pie(container, labels, series, timeAxis) {
  const size = Math.min(340, Math.max(220, container.clientWidth - 40));
  const entries = labels.map((l, i) => ({ label: String(formatLabel(l, timeAxis)), value: series.values[i] || 0 }))
    .filter((e) => e.value > 0);
  const total = entries.reduce((a, e) => a + e.value, 0) || 1;
  const tip = tooltipFor(container);
  const svg = el('svg', { viewBox: `0 0 ${size + 260} ${size}`, height: size, role: 'img', 'aria-label': 'pie chart', class: 'chart-pie' });
  const r = size / 2 - 6;
  const cx = size / 2;
  const cy = size / 2;
  let angle = -Math.PI / 2;
  entries.forEach((e, i) => {
    const sweep = (e.value / total) * Math.PI * 2;
    const color = PALETTE[i % PALETTE.length];
    const x1 = cx + r * Math.cos(angle);
    const y1 = cy + r * Math.sin(angle);
    const x2 = cx + r * Math.cos(angle + sweep);
    const y2 = cy + r * Math.sin(angle + sweep);
    const path = entries.length === 1
      ? el('circle', { cx, cy, r, fill: color })
      : el('path', { d: `M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${sweep > Math.PI ? 1 : 0} 1 ${x2},${y2} Z`, fill: color, stroke: css('--surface'), 'stroke-width': 1.5 });
    const pct = ((e.value / total) * 100).toFixed(1);
    path.addEventListener('mousemove', (ev) => tip(ev, `${e.label}: ${e.value.toLocaleString()} (${pct}%)`));
    path.addEventListener('mouseleave', (ev) => tip(ev, null));
    svg.append(path);
    if (i < 14) {
      svg.append(el('rect', { x: size + 20, y: 12 + i * 20, width: 11, height: 11, fill: color, rx: 2 }));
      svg.append(el('text', { x: size + 38, y: 22 + i * 20 }, `${e.label.length > 26 ? e.label.slice(0, 25) + '…' : e.label} (${pct}%)`));
    }
    angle += sweep;
  });
  container.append(svg);
  return svg;
}
