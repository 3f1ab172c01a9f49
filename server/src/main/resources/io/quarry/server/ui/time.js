// Time ranges: Splunk's presets, relative modifiers resolved in the browser (to lay the timeline
// out over the whole range; the server resolves them itself for the search), and formatting.

export const PRESETS = [
  { label: 'Last 15 minutes', earliest: '-15m', latest: 'now' },
  { label: 'Last 60 minutes', earliest: '-60m', latest: 'now' },
  { label: 'Last 4 hours', earliest: '-4h', latest: 'now' },
  { label: 'Last 24 hours', earliest: '-24h', latest: 'now' },
  { label: 'Last 7 days', earliest: '-7d', latest: 'now' },
  { label: 'Last 30 days', earliest: '-30d', latest: 'now' },
  { label: 'Today', earliest: '@d', latest: 'now' },
  { label: 'Yesterday', earliest: '-1d@d', latest: '@d' },
  { label: 'Week to date', earliest: '@w0', latest: 'now' },
  { label: 'All time', earliest: '', latest: '' },
];

const UNITS = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86400, day: 86400, days: 86400,
  w: 604800, week: 604800, weeks: 604800,
};

/** A Splunk time modifier as epoch seconds (browser's zone for snaps), or null when unbounded. */
export function resolve(modifier, now = Date.now() / 1000) {
  if (modifier === undefined || modifier === null || String(modifier).trim() === '') return null;
  const text = String(modifier).trim();
  if (text === 'now') return now;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const absolute = text.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4}):(\d{1,2}):(\d{2}):(\d{2})$/);
  if (absolute) {
    const [, mo, d, y, h, mi, s] = absolute.map(Number);
    return new Date(y, mo - 1, d, h, mi, s).getTime() / 1000;
  }
  let date = new Date(now * 1000);
  const parts = text.matchAll(/([+-]\d*[a-z]+)|(@[a-z]+\d?)/gi);
  let consumed = '';
  for (const [part] of parts) {
    consumed += part;
    if (part.startsWith('@')) {
      date = snap(date, part.slice(1).toLowerCase());
    } else {
      const m = part.match(/^([+-])(\d*)([a-z]+)$/i);
      const n = (m[2] === '' ? 1 : Number(m[2])) * (m[1] === '-' ? -1 : 1);
      const unit = m[3].toLowerCase();
      if (unit === 'mon' || unit === 'month' || unit === 'months') date.setMonth(date.getMonth() + n);
      else if (unit === 'y' || unit === 'year' || unit === 'years') date.setFullYear(date.getFullYear() + n);
      else if (UNITS[unit]) date = new Date(date.getTime() + n * UNITS[unit] * 1000);
      else return null;
    }
  }
  if (consumed !== text) return null;
  return date.getTime() / 1000;
}

function snap(date, unit) {
  const d = new Date(date);
  const week = unit.match(/^w(\d)$/);
  if (week) {
    d.setHours(0, 0, 0, 0);
    const back = (d.getDay() - Number(week[1]) + 7) % 7;
    d.setDate(d.getDate() - back);
    return d;
  }
  switch (unit) {
    case 's': case 'sec': case 'second': d.setMilliseconds(0); break;
    case 'm': case 'min': case 'minute': d.setSeconds(0, 0); break;
    case 'h': case 'hr': case 'hour': d.setMinutes(0, 0, 0); break;
    case 'd': case 'day': d.setHours(0, 0, 0, 0); break;
    case 'w': case 'week': d.setHours(0, 0, 0, 0); d.setDate(d.getDate() - d.getDay()); break;
    case 'mon': case 'month': d.setHours(0, 0, 0, 0); d.setDate(1); break;
    case 'y': case 'year': d.setHours(0, 0, 0, 0); d.setMonth(0, 1); break;
    default: break;
  }
  return d;
}

/** What the time picker's button says for a range. */
export function label(earliest, latest) {
  const preset = PRESETS.find((p) => p.earliest === (earliest || '') && p.latest === (latest || ''));
  if (preset) return preset.label;
  if (/^\d+(\.\d+)?$/.test(earliest || '') && /^\d+(\.\d+)?$/.test(latest || '')) {
    return `${formatShort(Number(earliest))} – ${formatShort(Number(latest))}`;
  }
  if (!latest || latest === 'now') {
    const m = (earliest || '').match(/^-(\d+)([a-z]+)$/);
    if (m && UNITS[m[2]]) return `Last ${m[1]} ${unitName(m[2], Number(m[1]))}`;
    return `Since ${earliest}`;
  }
  return `${earliest || 'the beginning'} to ${latest}`;
}

function unitName(unit, n) {
  const name = { s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week' }[unit[0]] || unit;
  return n === 1 ? name : name + 's';
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** 1/2/26 10:04:05.123 style, as Splunk's event list shows a time, in the browser's zone. */
export function formatEventTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${d.getMonth() + 1}/${d.getDate()}/${pad(d.getFullYear() % 100)} `
    + `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function formatShort(epochSeconds) {
  const d = new Date(epochSeconds * 1000);
  return `${d.getMonth() + 1}/${d.getDate()}/${pad(d.getFullYear() % 100)} ${pad(d.getHours())}:${pad(d.getMinutes())}`
    + (d.getSeconds() ? `:${pad(d.getSeconds())}` : '');
}

/** For a datetime-local input. */
export function toInputValue(epochSeconds) {
  const d = new Date(epochSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// timechart spans and their length in seconds, smallest first
const SPANS = [
  ['1s', 1], ['5s', 5], ['10s', 10], ['30s', 30], ['1m', 60], ['5m', 300], ['10m', 600],
  ['30m', 1800], ['1h', 3600], ['3h', 10800], ['12h', 43200], ['1d', 86400], ['7d', 604800],
  ['30d', 2592000],
];

/** The smallest span giving at most `buckets` buckets over [earliest, latest]. */
export function spanFor(earliest, latest, buckets = 120) {
  const length = Math.max(1, latest - earliest);
  return SPANS.find(([, s]) => length / s <= buckets) || SPANS[SPANS.length - 1];
}
