// The page is an ordinary client of Quarry's public API: a session key from
// POST /services/auth/login, then /api/v1 with `Authorization: Splunk <key>`.

const KEY = 'quarry.session';

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || body?.messages?.[0]?.text || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.error = body?.error || {};
  }
}

let onSignedOut = () => {};

export const session = {
  get() {
    try { return JSON.parse(localStorage.getItem(KEY)); } catch { return null; }
  },
  set(value) { localStorage.setItem(KEY, JSON.stringify(value)); },
  clear() { localStorage.removeItem(KEY); },
  onSignedOut(callback) { onSignedOut = callback; },
};

export async function signIn(username, password) {
  const response = await fetch('/services/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest' },
    body: new URLSearchParams({ username, password, output_mode: 'json' }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body);
  session.set({ user: username, key: body.sessionKey });
  return body.sessionKey;
}

/** A JSON call; `body` objects are sent as JSON. Throws ApiError; a 401 signs out. */
export async function api(path, { method = 'GET', body, signal, raw = false } = {}) {
  const current = session.get();
  const headers = { 'X-Requested-With': 'XMLHttpRequest' };
  if (current) headers.Authorization = `Splunk ${current.key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (raw && response.ok) return response;
  const text = await response.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = { error: { message: text } }; }
  if (response.status === 401) {
    session.clear();
    onSignedOut('Your session has ended; sign in again.');
  }
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}
