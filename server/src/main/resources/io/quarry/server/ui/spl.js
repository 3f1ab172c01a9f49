// SPL for the search bar: a tokenizer for highlighting (the server's parser stays the judge of
// what is valid; this only colours), the completion context at the caret, and the search terms of
// a query (to highlight them in events). Hand-written instead of CodeMirror: CodeMirror 6 ships
// as many ES modules that need a bundler, and a textarea under a coloured overlay keeps the
// browser's own editing, undo and mobile keyboards.

export const STATS_FUNCTIONS = [
  'count', 'dc', 'estdc', 'sum', 'avg', 'mean', 'min', 'max', 'range', 'var', 'varp', 'stdev',
  'stdevp', 'median', 'perc95', 'p50', 'p90', 'p95', 'p99', 'mode', 'values', 'list', 'first',
  'last', 'earliest', 'latest',
];

export const EVAL_FUNCTIONS = [
  'if', 'case', 'coalesce', 'null', 'true', 'false', 'isnull', 'isnotnull', 'isnum', 'isstr',
  'typeof', 'len', 'lower', 'upper', 'substr', 'replace', 'split', 'trim', 'ltrim', 'rtrim',
  'tonumber', 'tostring', 'round', 'floor', 'ceil', 'ceiling', 'abs', 'pow', 'sqrt', 'log', 'ln',
  'exp', 'min', 'max', 'now', 'time', 'strftime', 'strptime', 'relative_time', 'match', 'like',
  'cidrmatch', 'mvcount', 'mvindex', 'mvjoin', 'mvappend', 'mvfilter', 'in', 'urldecode', 'md5',
  'sha256',
];

// Used until `| help` answers (and when it cannot): the built-in commands.
export const DEFAULT_COMMANDS = [
  'search', 'where', 'eval', 'rex', 'stats', 'eventstats', 'streamstats', 'timechart', 'chart',
  'bin', 'bucket', 'top', 'rare', 'sort', 'dedup', 'table', 'fields', 'rename', 'head', 'tail',
  'reverse', 'transaction', 'fieldsummary', 'lookup', 'inputlookup', 'outputlookup',
  'makeresults', 'help',
].map((name) => ({ name, syntax: '', description: '' }));

const KEYWORDS = new Set(['and', 'or', 'not', 'by', 'as', 'over', 'in', 'xor', 'like', 'output',
  'outputnew']);
const AGGREGATING_COMMANDS = new Set(['stats', 'eventstats', 'streamstats', 'timechart', 'chart']);
const FUNCTION_COMMANDS = new Set(['stats', 'eventstats', 'streamstats', 'timechart', 'chart',
  'eval', 'where', 'top', 'rare']);

/**
 * Tokens of a query: {type, text, start, end}. Types: pipe, command, keyword, function, field,
 * operator, string, number, comment, macro, modifier (index=, earliest= …), term, ws.
 */
export function tokenize(text) {
  const tokens = [];
  let i = 0;
  let expectCommand = false; // right after a pipe
  let command = 'search';
  const push = (type, start, end) => tokens.push({ type, text: text.slice(start, end), start, end });
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      let j = i;
      while (j < text.length && /\s/.test(text[j])) j++;
      push('ws', i, j);
      i = j;
      continue;
    }
    if (text.startsWith('```', i)) {
      const close = text.indexOf('```', i + 3);
      const end = close < 0 ? text.length : close + 3;
      push('comment', i, end);
      i = end;
      continue;
    }
    if (c === '|') {
      push('pipe', i, i + 1);
      i++;
      expectCommand = true;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      push('string', i, Math.min(j + 1, text.length));
      i = Math.min(j + 1, text.length);
      expectCommand = false;
      continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      const end = close < 0 ? text.length : close + 1;
      push('macro', i, end);
      i = end;
      continue;
    }
    if ('=!<>'.includes(c)) {
      let j = i + 1;
      if (text[j] === '=') j++;
      push('operator', i, j);
      i = j;
      continue;
    }
    if ('(),[]+*/%'.includes(c) && !(c === '*' && /[\w*]/.test(text[i + 1] || ''))) {
      push('operator', i, i + 1);
      i++;
      continue;
    }
    // a word: up to whitespace, a pipe, a quote, a comparison, a parenthesis or a comma
    let j = i;
    while (j < text.length && !/[\s|"=!<>(),`]/.test(text[j])) j++;
    if (j === i) j = i + 1;
    const word = text.slice(i, j);
    const lower = word.toLowerCase();
    const next = text.slice(j).match(/^\s*(\S)/);
    const nextChar = text[j];
    if (expectCommand) {
      push('command', i, j);
      command = lower;
      expectCommand = false;
      i = j;
      continue;
    }
    if (KEYWORDS.has(lower) && word.length > 1 && !(nextChar === '=' || nextChar === '(')) {
      push('keyword', i, j);
    } else if (nextChar === '(' && /^[A-Za-z_][\w.]*$/.test(word)) {
      push(/^(term|case)$/i.test(word) ? 'keyword' : 'function', i, j);
    } else if (next && '=!<>'.includes(next[1]) && /^[\w.{}@:*-]+$/.test(word) && !/^\d+(\.\d+)?$/.test(word)) {
      const modifier = command === 'search' && /^(index|earliest|latest|sourcetype|source|host)$/i.test(word);
      push(modifier ? 'modifier' : 'field', i, j);
    } else if (AGGREGATING_COMMANDS.has(command) && (STATS_FUNCTIONS.includes(lower) || /^(p|perc|exactperc|upperperc)\d+(\.\d+)?$/.test(lower))) {
      push('function', i, j); // `stats count by x`: an aggregation without parentheses
    } else if (/^-?\d+(\.\d+)?$/.test(word)) {
      push('number', i, j);
    } else {
      push(command === 'search' ? 'term' : 'arg', i, j);
    }
    i = j;
  }
  return tokens;
}

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The query as HTML spans for the overlay; {error: {start, end}} underlines where the parser failed. */
export function highlight(text, error) {
  let html = '';
  for (const token of tokenize(text)) {
    let inner = escapeHtml(token.text);
    if (error && token.end > error.start && token.start < error.end) {
      const a = Math.max(error.start, token.start) - token.start;
      const b = Math.min(error.end, token.end) - token.start;
      inner = escapeHtml(token.text.slice(0, a)) + '<span class="tok-error">'
        + escapeHtml(token.text.slice(a, b)) + '</span>' + escapeHtml(token.text.slice(b));
    }
    html += token.type === 'ws' ? inner : `<span class="tok-${token.type}">${inner}</span>`;
  }
  if (error && error.start >= text.length) html += '<span class="tok-error"> </span>';
  return html + '\n'; // a trailing newline keeps the overlay as tall as the textarea
}

/**
 * What to complete at the caret: {kind: 'command'|'function'|'field'|'term', prefix, start}.
 * `kind` 'command' right after a pipe; 'function' in commands that take aggregations or
 * expressions; otherwise field names.
 */
export function completionContext(text, caret) {
  const before = text.slice(0, caret);
  const prefixMatch = before.match(/[\w.{}@:-]*$/);
  const prefix = prefixMatch ? prefixMatch[0] : '';
  const start = caret - prefix.length;
  const segment = before.slice(0, start);
  const lastPipe = lastPipeOutsideQuotes(segment);
  if (lastPipe >= 0 && /^\s*$/.test(segment.slice(lastPipe + 1))) {
    return { kind: 'command', prefix, start };
  }
  if (lastPipe < 0 && /^\s*$/.test(segment) && before.trimStart().startsWith('|')) {
    return { kind: 'command', prefix, start };
  }
  const commandText = lastPipe >= 0 ? segment.slice(lastPipe + 1) : '';
  const command = (commandText.match(/^\s*(\w+)/) || [])[1]?.toLowerCase() || 'search';
  const afterOperator = /[=<>]\s*$/.test(segment) && !/\b(as|by)\s*$/i.test(segment);
  if (afterOperator && command === 'search') return { kind: 'value', prefix, start, command };
  if (FUNCTION_COMMANDS.has(command) && !/\b(by|over)\s+([\w.]+\s*,?\s*)*$/i.test(segment)) {
    return { kind: 'function', prefix, start, command };
  }
  return { kind: 'field', prefix, start, command };
}

function lastPipeOutsideQuotes(text) {
  let inQuote = false;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"' && text[i - 1] !== '\\') inQuote = !inQuote;
    else if (text[i] === '|' && !inQuote) last = i;
  }
  return last;
}

/** The first search's text (before the first pipe), and the rest from that pipe on. */
export function splitAtFirstPipe(text) {
  const tokens = tokenize(text);
  const pipe = tokens.find((t) => t.type === 'pipe');
  if (!pipe) return [text, ''];
  return [text.slice(0, pipe.start), text.slice(pipe.start)];
}

/** `field=value` (or NOT … when excluding) added to the first search of a query. */
export function addFilter(query, field, value, exclude) {
  const quoted = /^[\w.:/@-]+$/.test(String(value)) ? String(value)
    : '"' + String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  const clause = (exclude ? 'NOT ' : '') + `${field}=${quoted}`;
  const [first, rest] = splitAtFirstPipe(query);
  if (first.trim() === '' && rest.trim().startsWith('|')) return `${clause} ${rest.trim()}`;
  return (first.trimEnd() + ' ' + clause).trim() + (rest ? ' ' + rest.trimStart() : '');
}

/**
 * The terms of the first search a user would see highlighted: bare words, phrases and the values
 * of field comparisons (not the NOT-ed ones, nor index/earliest/latest). Returns RegExp sources.
 */
export function searchTerms(text) {
  const [first] = splitAtFirstPipe(text);
  const tokens = tokenize(first).filter((t) => t.type !== 'ws');
  const terms = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const negated = tokens[k - 1]?.type === 'keyword' && tokens[k - 1].text.toLowerCase() === 'not';
    if (negated) continue;
    if (t.type === 'term' || t.type === 'string' || t.type === 'number') {
      if (tokens[k - 1]?.type === 'operator') {
        const field = tokens[k - 2];
        const op = tokens[k - 1].text;
        if (op !== '=' || !field || field.type === 'modifier'
          || tokens[k - 3]?.text?.toLowerCase() === 'not') continue;
      }
      let value = t.type === 'string' ? t.text.slice(1, -1).replace(/\\(.)/g, '$1') : t.text;
      if (!value.replace(/\*/g, '') || /^(and|or|not)$/i.test(value)) continue;
      terms.push(value);
    }
  }
  return terms.map((v) => v.split('*').map(escapeRegExp).join('[^\\s"]*'));
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `_raw` as HTML with the terms marked. */
export function markTerms(raw, termSources) {
  if (!termSources.length) return escapeHtml(raw);
  const re = new RegExp(`(?<![A-Za-z0-9])(?:${termSources.join('|')})(?![A-Za-z0-9])`, 'gi');
  let html = '';
  let last = 0;
  for (const m of raw.matchAll(re)) {
    if (m[0].length === 0) continue;
    html += escapeHtml(raw.slice(last, m.index)) + '<mark>' + escapeHtml(m[0]) + '</mark>';
    last = m.index + m[0].length;
  }
  return html + escapeHtml(raw.slice(last));
}
