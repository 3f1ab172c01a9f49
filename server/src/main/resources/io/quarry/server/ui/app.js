// Quarry's search page: plain ES modules, no build step. See docs/ui.md.

import { api, ApiError, session, signIn } from './api.js';
import {
  addFilter, completionContext, DEFAULT_COMMANDS, escapeHtml, EVAL_FUNCTIONS, highlight, markTerms,
  searchTerms, STATS_FUNCTIONS,
} from './spl.js';
import * as time from './time.js';
import { chart, timeline } from './charts.js';

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const number = (n) => (n === null || n === undefined ? '' : Number(n).toLocaleString());
const store = {
  get(key, fallback) {
    try { const v = JSON.parse(localStorage.getItem('quarry.' + key)); return v ?? fallback; } catch { return fallback; }
  },
  set(key, value) { localStorage.setItem('quarry.' + key, JSON.stringify(value)); },
};

const PAGE = 100;
const DEFAULT_FIELDS = ['host', 'source', 'sourcetype', 'index', '_time', '_raw'];

const state = {
  generation: 0,
  job: null, // the current job's last status
  timelineJob: null,
  earliest: store.get('earliest', ''),
  latest: store.get('latest', ''),
  tab: 'events',
  chartType: null,
  events: { fields: [], rows: [], total: 0, loading: false },
  table: { fields: [], rows: [], sort: null },
  fieldSummary: null,
  selectedFields: store.get('selectedFields', ['host', 'source', 'sourcetype']),
  terms: [],
  commands: DEFAULT_COMMANDS,
  timelineRange: null,
  zoomStack: [],
};

// ---------------------------------------------------------------- theme, sign-in, start

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  store.set('theme', theme);
}
applyTheme(store.get('theme', matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
$('theme').addEventListener('click', () => {
  applyTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');
  if (state.job) { renderTimelineAgain(); if (state.tab === 'visualization') renderChart(); }
});

function showSignIn(message) {
  state.generation++;
  $('search-view').hidden = true;
  $('signin-view').hidden = false;
  $('user').hidden = true;
  $('signout').hidden = true;
  $('signin-error').hidden = !message;
  $('signin-error').textContent = message || '';
  $('signin-password').value = '';
  $('signin-password').focus();
}
session.onSignedOut(showSignIn);

$('signin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('signin-error').hidden = true;
  try {
    await signIn($('signin-user').value.trim(), $('signin-password').value);
    showSearch();
  } catch (e) {
    $('signin-error').hidden = false;
    $('signin-error').textContent = e.status === 401 ? 'Wrong user name or password.'
      : e.status === 429 ? 'Too many failed sign-ins for this user; wait a minute and try again.' : e.message;
  }
});
$('signout').addEventListener('click', () => {
  session.clear();
  showSignIn();
});

async function showSearch() {
  $('signin-view').hidden = true;
  $('search-view').hidden = false;
  $('user').hidden = false;
  $('user').textContent = session.get()?.user || '';
  $('signout').hidden = false;
  loadCommands();
  readUrl();
  if ($('query').value.trim()) run({ push: false, fromUrl: true });
  else showEmpty();
  $('query').focus();
}

/** The command list for completion, from `| help` (plugins included). */
async function loadCommands() {
  try {
    const job = await api('/api/v1/jobs', { method: 'POST', body: { query: '| help', mode: 'blocking' } });
    const results = await api(`/api/v1/jobs/${job.id}/results?count=1000`);
    const names = results.fields.map((f) => f.name);
    const col = (row, name) => row[names.indexOf(name)];
    state.commands = results.rows.map((row) => ({
      name: col(row, 'command') ?? col(row, 'name'),
      syntax: col(row, 'syntax') || '',
      description: col(row, 'description') || '',
    })).filter((c) => c.name);
    api(`/api/v1/jobs/${job.id}`, { method: 'DELETE' }).catch(() => {});
  } catch { /* the built-in list stays */ }
}

async function showEmpty() {
  $('empty').hidden = false;
  for (const id of ['jobbar', 'tabs', 'panel-events', 'panel-statistics', 'panel-visualization']) $(id).hidden = true;
  const list = $('examples');
  list.innerHTML = '';
  let indexes = [];
  try { indexes = (await api('/api/v1/indexes')).indexes.filter((i) => !i.name.startsWith('_') && i.events > 0); } catch { /* none */ }
  const examples = indexes.map((i) => [`index=${i.name}`, `${number(i.events)} events`]);
  if (indexes.length) {
    examples.push(['index=* | stats count by index, sourcetype', 'what is where']);
    examples.push([`index=${indexes[0].name} | timechart count by sourcetype`, 'over time']);
  }
  if (indexes.some((i) => i.name === 'web')) {
    examples.push(['index=web status>=500 | stats count by clientip | sort -count | head 10', 'the clients with the most server errors']);
    examples.push(['index=web | timechart span=1h count by method', 'requests per hour by method']);
  }
  if (!examples.length) list.innerHTML = '<li class="muted">No events yet: send some through the HTTP Event Collector (see README).</li>';
  for (const [example, note] of examples) {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.innerHTML = `<span class="example-query">${highlight(example).trimEnd()}</span><span class="example-note">${escapeHtml(note)}</span>`;
    button.addEventListener('click', () => { setQuery(example); run(); });
    li.append(button);
    list.append(li);
  }
}

// ---------------------------------------------------------------- URL and history

function readUrl() {
  const params = new URLSearchParams(location.search);
  if (params.has('q')) setQuery(params.get('q'));
  if (params.has('earliest') || params.has('latest')) {
    state.earliest = params.get('earliest') || '';
    state.latest = params.get('latest') || '';
  }
  updateTimeButton();
}

function writeUrl(push) {
  const params = new URLSearchParams();
  params.set('q', $('query').value.trim());
  if (state.earliest) params.set('earliest', state.earliest);
  if (state.latest) params.set('latest', state.latest);
  const url = `/ui/?${params}`;
  if (url === location.pathname + location.search) return;
  if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
}

addEventListener('popstate', () => {
  readUrl();
  if ($('query').value.trim()) run({ push: false, fromUrl: true });
});

/**
 * Whether running `text` may write events or a lookup (collect, outputlookup, map; in a macro,
 * saved search or subsearch too): the server decides from the expanded query, running nothing.
 * A query that does not parse writes nothing (its job fails the same way); any other failure to
 * ask counts as writing.
 */
async function searchWrites(text) {
  try {
    return (await api('/api/v1/search/writes', { method: 'POST', body: { query: text } })).writes === true;
  } catch (e) {
    return !(e instanceof ApiError && e.status === 400);
  }
}

/**
 * A query from a link or the back button that writes does not run unasked (Splunk's safeguards
 * for risky commands): a link is how a stranger reaches a signed-in admin.
 */
function askBeforeWriting(generation) {
  const box = $('search-error');
  box.hidden = false;
  box.innerHTML = '<strong>This search writes events</strong> (collect, outputlookup or map), and it came from a link or the browser history. '
    + 'Read it, then run it yourself: <button type="button" id="confirm-run">Run it</button>';
  $('confirm-run').addEventListener('click', () => {
    if (generation === state.generation) run({ push: false });
  });
  for (const id of ['jobbar', 'tabs', 'panel-events', 'panel-statistics', 'panel-visualization']) $(id).hidden = true;
  $('empty').hidden = true;
  $('job-state').textContent = '';
  $('progress').className = 'progress';
}

function remember(query) {
  const list = store.get('history', []).filter((q) => q !== query);
  list.unshift(query);
  store.set('history', list.slice(0, 50));
}

$('history-button').addEventListener('click', (event) => {
  event.stopPropagation();
  const panel = $('history');
  if (!panel.hidden) { panel.hidden = true; return; }
  panel.innerHTML = '';
  const list = store.get('history', []);
  if (!list.length) panel.innerHTML = '<li class="muted">No searches yet</li>';
  for (const query of list) {
    const li = document.createElement('li');
    li.textContent = query;
    li.title = query;
    li.addEventListener('click', () => { panel.hidden = true; setQuery(query); run(); });
    panel.append(li);
  }
  panel.hidden = false;
});

// ---------------------------------------------------------------- the search bar

const query = $('query');
let parseError = null; // {start, end} while the text is what failed

function setQuery(text) {
  query.value = text;
  parseError = null;
  renderEditor();
}

function renderEditor() {
  $('editor-highlight').innerHTML = highlight(query.value, parseError);
  query.style.height = 'auto';
  query.style.height = query.scrollHeight + 'px';
}

query.addEventListener('input', () => {
  if (parseError) { parseError = null; $('search-error').hidden = true; }
  renderEditor();
  updateCompletions(false);
});
query.addEventListener('click', () => closeCompletions());
query.addEventListener('blur', () => setTimeout(closeCompletions, 150));
addEventListener('resize', renderEditor);

const completion = { items: [], index: 0, start: 0, open: false };

query.addEventListener('keydown', (event) => {
  if (completion.open) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const n = completion.items.length;
      completion.index = (completion.index + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
      renderCompletions();
      return;
    }
    if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey && completion.items.length)) {
      event.preventDefault();
      accept(completion.items[completion.index]);
      return;
    }
    if (event.key === 'Escape') { event.preventDefault(); closeCompletions(); return; }
  }
  if (event.key === ' ' && event.ctrlKey) { event.preventDefault(); updateCompletions(true); return; }
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    run();
  }
});

function knownFields() {
  const names = new Set(DEFAULT_FIELDS);
  for (const f of state.fieldSummary?.fields || []) names.add(f.name);
  for (const f of state.events.fields) names.add(f.name);
  for (const f of state.table.fields) names.add(f.name);
  return [...names];
}

function updateCompletions(force) {
  const caret = query.selectionStart;
  if (caret !== query.selectionEnd) { closeCompletions(); return; }
  const context = completionContext(query.value, caret);
  const prefix = context.prefix.toLowerCase();
  if (!force && !prefix && context.kind !== 'command') { closeCompletions(); return; }
  let items = [];
  if (context.kind === 'command') {
    items = state.commands.map((c) => ({ kind: 'command', name: c.name, insert: c.name + ' ', detail: c.syntax || c.description }));
  } else if (context.kind === 'function') {
    const stats = ['stats', 'eventstats', 'streamstats', 'timechart', 'chart'].includes(context.command);
    const functions = stats ? STATS_FUNCTIONS : ['eval', 'where'].includes(context.command) ? EVAL_FUNCTIONS : [];
    items = functions.map((f) => ({ kind: 'function', name: f, insert: f + '(', detail: stats ? 'aggregation' : 'eval function' }));
    if (stats) items.push(...['by', 'as'].map((k) => ({ kind: 'keyword', name: k, insert: k + ' ', detail: '' })));
    items.push(...knownFields().map((f) => ({ kind: 'field', name: f, insert: f, detail: fieldDetail(f) })));
  } else if (context.kind === 'value') {
    const field = query.value.slice(0, context.start).match(/([\w.]+)\s*[=<>!]+\s*$/)?.[1];
    const summary = state.fieldSummary?.fields.find((f) => f.name === field);
    items = (summary?.topValues || []).map((v) => ({ kind: 'value', name: String(v.value), insert: quoteValue(v.value), detail: `${number(v.count)} events` }));
  } else {
    items = knownFields().map((f) => ({ kind: 'field', name: f, insert: f, detail: fieldDetail(f) }));
    if (context.command === 'search') items.push(...['AND', 'OR', 'NOT'].map((k) => ({ kind: 'keyword', name: k, insert: k + ' ', detail: '' })));
  }
  items = items.filter((i) => i.name.toLowerCase().startsWith(prefix) && i.name.toLowerCase() !== prefix);
  items.sort((a, b) => (a.name.toLowerCase().startsWith(prefix) ? 0 : 1) - (b.name.toLowerCase().startsWith(prefix) ? 0 : 1));
  if (!items.length) { closeCompletions(); return; }
  Object.assign(completion, { items: items.slice(0, 60), index: 0, start: context.start, open: true });
  renderCompletions();
  placeCompletions(context.start);
}

function fieldDetail(name) {
  const f = state.fieldSummary?.fields.find((x) => x.name === name);
  return f ? `${f.type}, ${number(f.distinctCount)}${f.isExact ? '' : '+'} values` : '';
}

function quoteValue(value) {
  const text = String(value);
  return /^[\w.:/@-]+$/.test(text) ? text : `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function renderCompletions() {
  const list = $('completions');
  list.innerHTML = '';
  completion.items.forEach((item, i) => {
    const li = document.createElement('li');
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', String(i === completion.index));
    li.innerHTML = `<span class="kind">${item.kind}</span><span class="name">${escapeHtml(item.name)}</span><span class="detail">${escapeHtml(item.detail || '')}</span>`;
    li.addEventListener('mousedown', (e) => { e.preventDefault(); accept(item); });
    list.append(li);
    if (i === completion.index) queueMicrotask(() => li.scrollIntoView({ block: 'nearest' }));
  });
  list.hidden = false;
}

/** Puts the list under the word being completed (measured on a copy of the overlay). */
function placeCompletions(start) {
  const mirror = $('editor-highlight').cloneNode(false);
  mirror.style.visibility = 'hidden';
  mirror.textContent = query.value.slice(0, start);
  const marker = document.createElement('span');
  marker.textContent = '\u200b';
  mirror.append(marker);
  $('editor').append(mirror);
  const left = Math.min(marker.offsetLeft, $('editor').clientWidth - 280);
  const top = marker.offsetTop + marker.offsetHeight + 4;
  mirror.remove();
  const list = $('completions');
  list.style.left = Math.max(0, left) + 'px';
  list.style.top = top + 'px';
}

function accept(item) {
  const caret = query.selectionStart;
  const text = query.value;
  let end = caret;
  while (end < text.length && /[\w.]/.test(text[end])) end++;
  query.value = text.slice(0, completion.start) + item.insert + text.slice(end);
  const at = completion.start + item.insert.length;
  query.setSelectionRange(at, at);
  closeCompletions();
  renderEditor();
  query.focus();
  if (item.kind === 'command') updateCompletions(false);
}

function closeCompletions() {
  completion.open = false;
  $('completions').hidden = true;
}

function showParseError(error) {
  const text = query.value;
  let start = Number.isInteger(error.offset) ? error.offset : text.length;
  if (start > text.length) start = text.length;
  const length = Math.max(1, (error.token || '').length);
  parseError = { start, end: start + length };
  renderEditor();
  const box = $('search-error');
  box.hidden = false;
  box.innerHTML = `<strong>Error in search:</strong> ${escapeHtml(error.message)}`
    + (error.context ? `<pre>${escapeHtml(error.context)}</pre>` : '');
  query.focus();
  query.setSelectionRange(start, start);
}

function showFailure(message) {
  const box = $('search-error');
  box.hidden = false;
  box.innerHTML = `<strong>Search failed:</strong> ${escapeHtml(message)}`;
}

$('run').addEventListener('click', () => run());

// ---------------------------------------------------------------- time picker

function updateTimeButton() {
  $('time-button').textContent = time.label(state.earliest, state.latest);
  for (const button of $('time-presets').children) {
    button.classList.toggle('active', button.dataset.earliest === state.earliest && button.dataset.latest === state.latest);
  }
}

for (const preset of time.PRESETS) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = preset.label;
  button.dataset.earliest = preset.earliest;
  button.dataset.latest = preset.latest;
  button.addEventListener('click', () => setRange(preset.earliest, preset.latest));
  $('time-presets').append(button);
}

function setRange(earliest, latest, { rerun = true } = {}) {
  state.earliest = earliest;
  state.latest = latest;
  store.set('earliest', earliest);
  store.set('latest', latest);
  $('time-panel').hidden = true;
  updateTimeButton();
  if (rerun && query.value.trim()) run();
}

$('time-button').addEventListener('click', (event) => {
  event.stopPropagation();
  const panel = $('time-panel');
  panel.hidden = !panel.hidden;
  if (!panel.hidden) {
    $('rel-earliest').value = state.earliest;
    $('rel-latest').value = state.latest;
    const e = time.resolve(state.earliest);
    const l = time.resolve(state.latest) ?? Date.now() / 1000;
    $('abs-earliest').value = time.toInputValue(e ?? l - 86400);
    $('abs-latest').value = time.toInputValue(l);
  }
});
$('rel-apply').addEventListener('click', () => {
  const earliest = $('rel-earliest').value.trim();
  const latest = $('rel-latest').value.trim();
  for (const [name, value] of [['Earliest', earliest], ['Latest', latest]]) {
    if (value && time.resolve(value) === null) { alert(`${name} '${value}' is not a time modifier such as -24h@h, @d or now`); return; }
  }
  setRange(earliest, latest);
});
$('abs-apply').addEventListener('click', () => {
  const e = Date.parse($('abs-earliest').value);
  const l = Date.parse($('abs-latest').value);
  if (Number.isNaN(e) || Number.isNaN(l) || l <= e) { alert('Choose a start before the end.'); return; }
  setRange(String(Math.floor(e / 1000)), String(Math.ceil(l / 1000)));
});
$('time-panel').addEventListener('click', (event) => event.stopPropagation());

document.addEventListener('click', () => {
  $('time-panel').hidden = true;
  $('history').hidden = true;
  $('export-menu').hidden = true;
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    $('time-panel').hidden = true;
    $('history').hidden = true;
    $('field-popover').hidden = true;
  }
});

// ---------------------------------------------------------------- running a search

function rangeBody() {
  const body = {};
  if (state.earliest) body.earliest = state.earliest;
  if (state.latest) body.latest = state.latest;
  return body;
}

function dropJob(job) {
  if (!job) return Promise.resolve();
  return api(`/api/v1/jobs/${job.id}`, { method: 'DELETE' }).catch(() => {});
}

async function run({ push = true, fromUrl = false } = {}) {
  const text = query.value.trim();
  if (!text) return;
  closeCompletions();
  const generation = ++state.generation;
  // the page shows one search at a time: its jobs go before the next starts, so they never count
  // against the user's concurrent-search quota (srchJobsQuota) with the new ones
  const dropped = Promise.all([dropJob(state.timelineJob), dropJob(state.job)]);
  state.timelineJob = null;
  parseError = null;
  renderEditor();
  $('search-error').hidden = true;
  $('field-popover').hidden = true;
  writeUrl(push);
  $('job-state').textContent = 'Starting…';
  $('job-state').className = 'job-state';
  $('progress').className = 'progress running';
  const writes = await searchWrites(text);
  if (generation !== state.generation) return;
  if (writes && fromUrl) {
    askBeforeWriting(generation);
    return;
  }
  remember(text);
  let job;
  try {
    await dropped;
    if (generation !== state.generation) return;
    job = await api('/api/v1/jobs', { method: 'POST', body: { query: text, ...rangeBody() } });
  } catch (e) {
    if (generation !== state.generation) return;
    // the last search's results do not belong to this text
    for (const id of ['jobbar', 'tabs', 'panel-events', 'panel-statistics', 'panel-visualization']) $(id).hidden = true;
    state.job = null;
    if (e instanceof ApiError && e.error.code === 'QUERY_PARSE') showParseError(e.error);
    else showFailure(e.message);
    return;
  }
  if (generation !== state.generation) { dropJob(job); return; }
  state.job = job;
  state.terms = searchTerms(text);
  state.events = { fields: [], rows: [], total: 0, loading: false, done: false };
  state.table = { fields: [], rows: [], sort: null };
  state.fieldSummary = null;
  $('empty').hidden = true;
  $('jobbar').hidden = false;
  $('tabs').hidden = false;
  $('messages').innerHTML = '';
  $('events').innerHTML = '';
  $('events').dataset.complete = 'false';
  $('events-more').textContent = '';
  $('stats-table').innerHTML = '';
  $('fields-selected').innerHTML = '';
  $('fields-interesting').innerHTML = '';
  $('fields-note').textContent = 'Summarizing fields…';
  $('timeline').innerHTML = '';
  $('timeline').plot = null;
  delete $('timeline').dataset.total;
  delete $('timeline').dataset.complete;
  state.timelineData = null;
  $('timeline-label').textContent = '';
  $('timeline-zoom-out').hidden = state.zoomStack.length === 0;
  if (job.transforming) {
    state.chartType = /\|\s*(timechart|chart)\b/i.test(text) ? 'line' : 'column';
    selectTab(/\|\s*(timechart|chart)\b/i.test(text) ? 'visualization' : 'statistics');
  } else {
    selectTab('events');
    // the timeline and the field summary run the search again: never one that writes (collect,
    // outputlookup, map; a macro's too), which would write its results again each time
    if (!text.startsWith('|') && !writes) {
      startTimeline(text, generation);
      loadFields(text, generation);
    } else {
      $('fields-note').textContent = '';
    }
  }
  renderStatus(job);
  poll(generation);
}

async function poll(generation) {
  let seenRows = -1;
  let lastPreview = 0;
  for (let round = 0; generation === state.generation; round++) {
    let status;
    try {
      status = await api(`/api/v1/jobs/${state.job.id}`);
    } catch (e) {
      if (generation === state.generation) showFailure(e.message);
      return;
    }
    if (generation !== state.generation) return;
    state.job = status;
    renderStatus(status);
    const finished = ['DONE', 'FAILED', 'CANCELLED'].includes(status.state);
    if (status.state === 'FAILED') { showFailure(status.error?.message || 'the search failed'); return; }
    if (status.state === 'CANCELLED') return;
    const now = Date.now();
    if (finished || (status.rows !== seenRows && now - lastPreview > 700)) {
      seenRows = status.rows;
      lastPreview = now;
      try {
        if (status.transforming) await loadTable(generation);
        else await loadFirstEvents(generation, finished);
      } catch (e) {
        if (generation === state.generation) showFailure(e.message);
        return;
      }
    }
    if (finished) return;
    await sleep(Math.min(1000, 120 + round * 60));
  }
}

function renderStatus(status) {
  const running = ['QUEUED', 'RUNNING'].includes(status.state);
  const stateText = {
    QUEUED: 'Queued…', RUNNING: 'Searching…', DONE: status.finalized ? '✓ Finalized' : '✓ Done',
    FAILED: '✕ Failed', CANCELLED: '✕ Cancelled',
  }[status.state];
  const el = $('job-state');
  el.textContent = stateText;
  el.className = 'job-state ' + status.state.toLowerCase();
  const noun = status.transforming ? 'results' : 'events';
  let summary = `${number(status.rows)} ${noun}`;
  if (status.transforming) summary += ` · ${number(status.eventsMatched ?? status.eventsRead)} events matched`;
  summary += ` · ${number(status.eventsRead)} scanned · ${(status.runDurationMs / 1000).toFixed(2)} s`;
  summary += ` · ${time.label(state.earliest, state.latest)}`;
  $('job-summary').textContent = summary;
  $('job-cancel').hidden = !running;
  $('job-finalize').hidden = !running;
  $('progress').className = 'progress' + (running ? ' running' : '');
  $('progress').firstElementChild.style.width = running ? '' : '100%';
  $('tab-events-count').textContent = status.transforming ? '' : `(${number(status.rows)})`;
  $('tab-stats-count').textContent = status.transforming ? `(${number(status.rows)})` : '';
  const messages = status.messages || [];
  $('messages').innerHTML = messages.map((m) => `<div class="message">${escapeHtml(typeof m === 'string' ? m : m.text || JSON.stringify(m))}</div>`).join('');
}

$('job-cancel').addEventListener('click', async () => {
  const job = state.job;
  if (!job) return;
  // the poll sees the job end as CANCELLED (a running stage notices within milliseconds)
  $('job-cancel').disabled = true;
  try { await api(`/api/v1/jobs/${job.id}/cancel`, { method: 'POST' }); } catch (e) { showFailure(e.message); }
  $('job-cancel').disabled = false;
  dropJob(state.timelineJob);
  state.timelineJob = null;
});
$('job-finalize').addEventListener('click', async () => {
  const job = state.job;
  if (!job) return;
  try { await api(`/api/v1/jobs/${job.id}/finalize`, { method: 'POST' }); } catch (e) { showFailure(e.message); }
});

// ---------------------------------------------------------------- tabs

function selectTab(tab) {
  state.tab = tab;
  for (const button of $('tabs').querySelectorAll('.tab')) button.classList.toggle('active', button.dataset.tab === tab);
  $('panel-events').hidden = tab !== 'events';
  $('panel-statistics').hidden = tab !== 'statistics';
  $('panel-visualization').hidden = tab !== 'visualization';
  if (tab === 'visualization') renderChart();
  if (tab === 'events') renderTimelineAgain();
}
$('tabs').addEventListener('click', (event) => {
  const button = event.target.closest('.tab');
  if (button) selectTab(button.dataset.tab);
});

// ---------------------------------------------------------------- events

async function loadFirstEvents(generation, finished) {
  const results = await api(`/api/v1/jobs/${state.job.id}/results?offset=0&count=${PAGE}`);
  if (generation !== state.generation) return;
  state.events = { fields: results.fields, rows: results.rows, total: results.total, loading: false, done: finished };
  $('events').innerHTML = '';
  appendEvents(results.fields, results.rows, 0);
  updateEventsMore();
  $('events').dataset.complete = String(finished); // the job's first page, no longer a preview
  if (finished) maybeLoadMore();
}

/** Loads the next page when the end of the list is on (or near) the screen. */
function maybeLoadMore() {
  if ($('panel-events').hidden) return;
  if ($('events-more').getBoundingClientRect().top < innerHeight + 600) loadMoreEvents();
}

async function loadMoreEvents() {
  const ev = state.events;
  if (!state.job || state.job.transforming || !ev.done || ev.loading || ev.rows.length >= state.job.rows) return;
  ev.loading = true;
  const generation = state.generation;
  try {
    const results = await api(`/api/v1/jobs/${state.job.id}/results?offset=${ev.rows.length}&count=${PAGE}`);
    if (generation !== state.generation || state.events !== ev) return;
    const offset = ev.rows.length;
    ev.rows.push(...results.rows);
    appendEvents(results.fields, results.rows, offset);
  } finally {
    ev.loading = false;
    updateEventsMore();
  }
  requestAnimationFrame(maybeLoadMore);
}

function updateEventsMore() {
  const ev = state.events;
  const total = state.job?.rows ?? 0;
  $('events-more').textContent = total === 0 ? (ev.done ? 'No events found in this time range.' : '')
    : ev.rows.length < total ? `Showing ${number(ev.rows.length)} of ${number(total)} events — scroll for more` : `All ${number(total)} events shown`;
}

new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting)) loadMoreEvents();
}, { rootMargin: '600px' }).observe($('events-more'));

function appendEvents(fields, rows, offset) {
  const names = fields.map((f) => f.name);
  const timeIdx = names.indexOf('_time');
  const rawIdx = names.indexOf('_raw');
  const body = $('events');
  const fragment = document.createDocumentFragment();
  rows.forEach((row, k) => {
    const tr = document.createElement('tr');
    tr.className = 'event';
    tr.dataset.index = offset + k;
    const raw = rawIdx >= 0 ? String(row[rawIdx] ?? '') : names.map((n, i) => `${n}=${format(row[i])}`).join(' ');
    const meta = state.selectedFields.filter((f) => names.includes(f) && f !== '_raw' && f !== '_time')
      .map((f) => [f, row[names.indexOf(f)]]).filter(([, v]) => v !== null && v !== undefined && v !== '');
    tr.innerHTML = `<td><button type="button" class="expand" aria-label="Show all fields">▶</button></td>`
      + `<td class="event-time">${timeIdx >= 0 ? escapeHtml(time.formatEventTime(row[timeIdx])) : ''}</td>`
      + `<td><div class="event-raw">${markTerms(raw, state.terms)}</div>`
      + `<div class="event-meta">${meta.map(([f, v]) => `<span>${escapeHtml(f)} = <span class="v" data-field="${escapeHtml(f)}" data-value="${escapeHtml(format(v))}">${escapeHtml(format(v))}</span></span>`).join('')}</div></td>`;
    tr.querySelector('.expand').addEventListener('click', (event) => toggleEvent(tr, names, row, event.currentTarget));
    fragment.append(tr);
  });
  body.append(fragment);
}

function toggleEvent(tr, names, row, button) {
  const cell = tr.lastElementChild;
  const open = cell.querySelector('.event-fields');
  button.classList.toggle('open', !open);
  if (open) { open.remove(); return; }
  const table = document.createElement('table');
  table.className = 'event-fields';
  table.innerHTML = names.map((n, i) => [n, row[i]]).filter(([n, v]) => n !== '_raw' && v !== null && v !== undefined && v !== '')
    .map(([n, v]) => `<tr><td class="k">${escapeHtml(n)}</td><td class="v" data-field="${escapeHtml(n)}" data-value="${escapeHtml(format(v))}" title="Click to add to the search, shift-click to exclude">${escapeHtml(format(v))}</td></tr>`).join('');
  cell.append(table);
}

function format(value) {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(format).join('\n');
  return String(value);
}

// a click on any field value in an event adds it to the search (shift: excludes it)
$('events').addEventListener('click', (event) => {
  const target = event.target.closest('[data-field]');
  if (!target) return;
  const field = target.dataset.field;
  if (field === '_time') return;
  setQuery(addFilter(query.value, field, target.dataset.value, event.shiftKey));
  run();
});

// ---------------------------------------------------------------- timeline

async function startTimeline(text, generation) {
  const now = Date.now() / 1000;
  const earliest = time.resolve(state.earliest, now);
  const latest = time.resolve(state.latest, now) ?? now;
  let span = null;
  if (earliest !== null) span = time.spanFor(earliest, latest);
  state.timelineRange = earliest !== null ? [earliest, latest] : null;
  const timelineQuery = `${text} | timechart ${span ? `span=${span[0]} ` : ''}count`;
  let job;
  try {
    job = await api('/api/v1/jobs', { method: 'POST', body: { query: timelineQuery, readOnly: true, ...rangeBody() } });
  } catch {
    $('timeline-label').textContent = 'No timeline for this search.';
    return;
  }
  if (generation !== state.generation) { dropJob(job); return; }
  state.timelineJob = job;
  for (let round = 0; generation === state.generation; round++) {
    let status;
    try { status = await api(`/api/v1/jobs/${job.id}`); } catch { return; }
    const finished = ['DONE', 'FAILED', 'CANCELLED'].includes(status.state);
    if (status.state === 'DONE' || status.rows > 0) {
      try {
        const results = await api(`/api/v1/jobs/${job.id}/results?count=10000`);
        if (generation !== state.generation) return;
        state.timelineData = results;
        state.timelineSpan = span ? span[1] : inferSpan(results);
        renderTimelineAgain();
        if (finished) $('timeline').dataset.complete = 'true'; // the final one, not a preview
      } catch { /* keep the last one */ }
    }
    if (finished) return;
    await sleep(Math.min(1000, 150 + round * 80));
  }
}

function inferSpan(results) {
  if (results.rows.length < 2) return 60;
  return (Date.parse(results.rows[1][0]) - Date.parse(results.rows[0][0])) / 1000;
}

function renderTimelineAgain() {
  const results = state.timelineData;
  if (!results || state.tab !== 'events' || !state.job || state.job.transforming) return;
  const countIdx = results.fields.findIndex((f) => f.name === 'count');
  const times = results.rows.map((r) => Date.parse(r[0]) / 1000);
  const counts = results.rows.map((r) => Number(r[countIdx]) || 0);
  const spanSeconds = state.timelineSpan || 60;
  const range = state.timelineRange || (times.length ? [times[0], times[times.length - 1] + spanSeconds] : [0, 1]);
  const total = counts.reduce((a, b) => a + b, 0);
  $('timeline-label').textContent = `${number(total)} events · ${spanLabel(spanSeconds)} per column · drag to zoom, click a column to narrow`;
  $('timeline').dataset.total = total;
  $('timeline').dataset.columns = counts.filter((c) => c > 0).length;
  $('timeline').plot = timeline($('timeline'), times, counts, spanSeconds, range, (from, to) => {
    state.zoomStack.push([state.earliest, state.latest]);
    setRange(String(from), String(to));
  });
}

function spanLabel(seconds) {
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

$('timeline-zoom-out').addEventListener('click', () => {
  const previous = state.zoomStack.pop();
  if (previous) setRange(previous[0], previous[1]);
});

// ---------------------------------------------------------------- fields sidebar

async function loadFields(text, generation) {
  let summary;
  try {
    summary = await api('/api/v1/fields', { method: 'POST', body: { query: text, ...rangeBody(), maxEvents: 10000, maxValues: 10 } });
  } catch (e) {
    if (generation === state.generation) $('fields-note').textContent = `No field summary: ${e.message}`;
    return;
  }
  if (generation !== state.generation) return;
  state.fieldSummary = summary;
  renderFields();
}

function renderFields() {
  const summary = state.fieldSummary;
  if (!summary) return;
  const total = summary.eventsSummarized || 1;
  const fields = summary.fields.filter((f) => !f.name.startsWith('_') && f.name !== 'index');
  const selected = fields.filter((f) => state.selectedFields.includes(f.name));
  const interesting = fields.filter((f) => !state.selectedFields.includes(f.name) && f.count / total >= 0.2);
  const others = fields.filter((f) => !state.selectedFields.includes(f.name) && f.count / total < 0.2);
  const item = (f) => `<li data-name="${escapeHtml(f.name)}" title="${escapeHtml(f.name)}: ${number(f.count)} events">`
    + `<span class="type">${f.type === 'number' ? '#' : 'a'}</span><span class="name">${escapeHtml(f.name)}</span>`
    + `<span class="dc">${number(f.distinctCount)}${f.isExact ? '' : '+'}</span></li>`;
  $('fields-selected').innerHTML = selected.map(item).join('');
  $('fields-interesting').innerHTML = interesting.map(item).join('') + others.map(item).join('').replace(/<li /g, '<li data-rare="1" hidden ');
  $('fields-note').innerHTML = `${others.length ? `<button type="button" class="link-button" id="fields-all">${others.length} more fields</button><br>` : ''}`
    + `Summarized from ${number(summary.eventsSummarized)} events`;
  $('fields-all')?.addEventListener('click', (event) => {
    for (const li of $('fields-interesting').querySelectorAll('[data-rare]')) li.hidden = false;
    event.currentTarget.remove();
  });
}

for (const id of ['fields-selected', 'fields-interesting']) {
  $(id).addEventListener('click', (event) => {
    const li = event.target.closest('li[data-name]');
    if (li) { event.stopPropagation(); showFieldPopover(li.dataset.name, li); }
  });
}
$('fields-toggle').addEventListener('click', () => $('fields').classList.toggle('collapsed'));
// on a phone the sidebar starts folded above the events
const phone = matchMedia('(max-width: 760px)');
$('fields').classList.toggle('collapsed', phone.matches);
phone.addEventListener('change', () => $('fields').classList.toggle('collapsed', phone.matches));

function showFieldPopover(name, anchor) {
  const f = state.fieldSummary.fields.find((x) => x.name === name);
  const total = state.fieldSummary.eventsSummarized || 1;
  const pop = $('field-popover');
  const isSelected = state.selectedFields.includes(name);
  const rows = (f.topValues || []).map((v) => {
    const pct = (v.count / total) * 100;
    return `<tr><td class="value" data-value="${escapeHtml(format(v.value))}" title="Click to add to the search, shift-click to exclude">${escapeHtml(format(v.value))}</td>`
      + `<td style="width:34%"><div class="bar" style="width:${Math.max(1, pct).toFixed(1)}%"></div></td>`
      + `<td class="pct">${number(v.count)} · ${pct.toFixed(pct < 1 ? 2 : 1)}%</td></tr>`;
  }).join('');
  pop.innerHTML = `<h4>${escapeHtml(name)}</h4>`
    + `<div class="sub">${number(f.distinctCount)}${f.isExact ? '' : '+'} values, ${((f.count / total) * 100).toFixed(1)}% of events`
    + (f.type === 'number' && f.min !== undefined ? ` · min ${f.min}, max ${f.max}, avg ${Number(f.mean).toFixed(2)}` : '') + '</div>'
    + `<table>${rows}</table>`
    + '<div class="actions">'
    + `<button type="button" class="small" data-act="top">Top values</button>`
    + `<button type="button" class="small" data-act="time">Top values by time</button>`
    + (f.type === 'number' ? `<button type="button" class="small" data-act="avg">Average over time</button>` : '')
    + `<button type="button" class="small" data-act="select">${isSelected ? 'Deselect' : 'Select'}</button></div>`
    + '<div class="tip">Click a value to add it to the search; shift-click to exclude it.</div>';
  const box = anchor.getBoundingClientRect();
  pop.style.left = Math.min(box.right + 8 + scrollX, scrollX + innerWidth - Math.min(380, innerWidth * 0.94) - 8) + 'px';
  pop.style.top = (box.top + scrollY - 10) + 'px';
  pop.hidden = false;
  pop.onclick = (event) => {
    event.stopPropagation();
    const value = event.target.closest('.value');
    const base = query.value.split('|')[0].trim();
    if (value) {
      pop.hidden = true;
      setQuery(addFilter(query.value, name, value.dataset.value, event.shiftKey));
      run();
      return;
    }
    const act = event.target.dataset.act;
    if (!act) return;
    pop.hidden = true;
    if (act === 'select') {
      state.selectedFields = isSelected ? state.selectedFields.filter((x) => x !== name) : [...state.selectedFields, name];
      store.set('selectedFields', state.selectedFields);
      renderFields();
      $('events').innerHTML = '';
      appendEvents(state.events.fields, state.events.rows, 0);
      return;
    }
    const pipeline = { top: `top limit=20 ${name}`, time: `timechart count by ${name}`, avg: `timechart avg(${name})` }[act];
    setQuery(`${base} | ${pipeline}`);
    run();
  };
}
document.addEventListener('click', (event) => {
  if (!event.target.closest('#field-popover')) $('field-popover').hidden = true;
});

// ---------------------------------------------------------------- statistics and charts

async function loadTable(generation) {
  const results = await api(`/api/v1/jobs/${state.job.id}/results?offset=0&count=10000`);
  if (generation !== state.generation) return;
  state.table = { fields: results.fields, rows: results.rows, sort: state.table.sort, total: results.total };
  renderTable();
  if (state.tab === 'visualization') renderChart();
}

const isNumeric = (field) => field.type === 'long' || field.type === 'double';

function renderTable() {
  const { fields, rows, sort } = state.table;
  const table = $('stats-table');
  if (!fields.length) {
    table.innerHTML = `<tbody><tr><td class="muted">${state.job && state.job.state === 'DONE' ? 'No results.' : 'Waiting for results…'}</td></tr></tbody>`;
    return;
  }
  let sorted = rows;
  if (sort) {
    const numeric = isNumeric(fields[sort.column]);
    sorted = [...rows].sort((a, b) => {
      const x = a[sort.column];
      const y = b[sort.column];
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      const c = numeric ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
      return sort.descending ? -c : c;
    });
  }
  const head = fields.map((f, i) => `<th data-column="${i}" class="${isNumeric(f) ? 'num' : ''}"`
    + `${sort && sort.column === i ? ` aria-sort="${sort.descending ? 'descending' : 'ascending'}"` : ''}>${escapeHtml(f.name)}</th>`).join('');
  const body = sorted.map((row) => '<tr>' + fields.map((f, i) => {
    const v = f.type === 'timestamp' ? time.formatEventTime(row[i]) : format(row[i]);
    return `<td class="${isNumeric(f) ? 'num' : ''}">${escapeHtml(v)}</td>`;
  }).join('') + '</tr>').join('');
  table.innerHTML = `<thead><tr>${head}</tr></thead><tbody>${body}</tbody>`;
  $('stats-more').textContent = state.table.total > rows.length ? `Showing the first ${number(rows.length)} of ${number(state.table.total)} rows; export for all of them.` : '';
}

$('stats-table').addEventListener('click', (event) => {
  const th = event.target.closest('th[data-column]');
  if (!th) return;
  const column = Number(th.dataset.column);
  const sort = state.table.sort;
  state.table.sort = sort && sort.column === column ? { column, descending: !sort.descending }
    : { column, descending: isNumeric(state.table.fields[column]) };
  renderTable();
});

function renderChart() {
  if (!state.job?.transforming) {
    $('chart').innerHTML = '<p class="muted">Visualizations show transforming searches: add <code>| stats</code>, <code>| timechart</code> or <code>| chart</code>.</p>';
    $('chart-legend').innerHTML = '';
    return;
  }
  const type = state.chartType || 'column';
  for (const b of $('chart-types').children) b.classList.toggle('active', b.dataset.chart === type);
  chart($('chart'), $('chart-legend'), type, state.table);
}
$('chart-types').addEventListener('click', (event) => {
  const type = event.target.dataset.chart;
  if (!type) return;
  state.chartType = type;
  renderChart();
});
addEventListener('resize', () => {
  clearTimeout(renderChart.timer);
  renderChart.timer = setTimeout(() => {
    if (state.tab === 'visualization') renderChart();
    if (state.tab === 'events') renderTimelineAgain();
  }, 150);
});

// ---------------------------------------------------------------- inspector and export

$('job-inspect').addEventListener('click', async () => {
  if (!state.job) return;
  const body = $('inspector-body');
  body.innerHTML = '<p class="muted">Loading…</p>';
  $('inspector').showModal();
  try {
    const inspect = await api(`/api/v1/jobs/${state.job.id}/inspect`);
    body.innerHTML = renderInspector(inspect, state.job);
  } catch (e) {
    body.innerHTML = `<p class="form-error">${escapeHtml(e.message)}</p>`;
  }
});

function renderInspector(inspect, status) {
  const c = inspect.costs;
  let html = `<p>Search <code>${escapeHtml(status.expandedQuery || status.query)}</code> — ${escapeHtml(inspect.state)}, job <code>${escapeHtml(inspect.id)}</code></p>`;
  if (c) {
    const facts = [
      ['Elapsed', `${number(c.elapsedMs)} ms`], ['Indexes', (c.indexes || []).join(', ')],
      ['Buckets searched / skipped', `${number(c.buckets)} / ${number(c.bucketsSkipped)}`],
      ['Segments searched / skipped', `${number(c.segments)} / ${number(c.segmentsSkipped)}`],
      ['Events read / matched', `${number(c.eventsRead)} / ${number(c.eventsMatched)}`],
      ['Result rows', number(c.rows)], ['Term index answered alone', c.exactIndexQuery ? 'yes' : 'no'],
      ['Index lookup', `${c.scan.indexLookupMs.toFixed(1)} ms`],
      ['Journal', `${number(c.scan.journalBlocks)} blocks, ${number(c.scan.journalBytes)} bytes, ${c.scan.journalDecodeMs.toFixed(1)} ms`],
      ['Field extraction', `${c.scan.fieldExtractionMs.toFixed(1)} ms`],
    ];
    html += '<h3>Execution costs</h3><table>' + facts.map(([k, v]) => `<tr><td>${k}</td><td class="num">${escapeHtml(String(v))}</td></tr>`).join('') + '</table>';
    const max = Math.max(1, ...c.stages.map((s) => s.ms));
    html += '<h3>Stages</h3><table class="stages"><tr><th>Command</th><th class="num">Rows in</th><th class="num">Rows out</th><th class="num">ms</th><th style="width:30%"></th></tr>'
      + c.stages.map((s) => `<tr><td><code>${escapeHtml(s.command)}</code></td><td class="num">${number(s.rowsIn)}</td><td class="num">${number(s.rowsOut)}</td><td class="num">${number(s.ms)}</td><td><div class="costbar" style="width:${(s.ms / max) * 100}%"></div></td></tr>`).join('')
      + '</table>';
  } else {
    html += '<p class="muted">Costs are reported once the job is done.</p>';
  }
  const plan = inspect.plan || {};
  const planValue = (v) => (v === null || v === undefined ? '—' : Array.isArray(v) ? v.join('\n') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  html += '<h3>Plan</h3><table class="plan">' + Object.entries(plan).map(([k, v]) => `<tr><td>${escapeHtml(k.replace(/_/g, ' '))}</td><td><pre>${escapeHtml(planValue(v))}</pre></td></tr>`).join('') + '</table>';
  return html;
}

$('export-button').addEventListener('click', (event) => {
  event.stopPropagation();
  $('export-menu').hidden = !$('export-menu').hidden;
});
$('export-menu').addEventListener('click', async (event) => {
  const format = event.target.dataset.format;
  if (!format || !state.job) return;
  $('export-menu').hidden = true;
  try {
    const response = await api(`/services/search/jobs/${encodeURIComponent(state.job.id)}/results?output_mode=${format}&count=0`, { raw: true });
    const blob = await response.blob();
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `quarry-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch (e) {
    showFailure(`Export failed: ${e.message}`);
  }
});

// ---------------------------------------------------------------- start

renderEditor();
updateTimeButton();
if (session.get()) showSearch(); else showSignIn();
