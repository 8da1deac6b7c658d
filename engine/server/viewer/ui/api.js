// The /v1 API as the page uses it: JSON calls and the event stream of a
// run, with the bearer token of this tab when the server asks for one.

const KEY = 'nous.token';

// Unauthorized is thrown when the server wants a (different) token.
export class Unauthorized extends Error {
  constructor() { super('the server asks for a bearer token'); }
}

// APIError is an error answer of the API.
export class APIError extends Error {
  constructor(status, message, diagnostics) {
    super(message);
    this.status = status;
    this.diagnostics = diagnostics || [];
  }
}

// getToken is the token kept for this tab ('' when none).
export function getToken() { return sessionStorage.getItem(KEY) || ''; }

// setToken keeps t for this tab, or forgets the token when t is empty.
export function setToken(t) {
  if (t) sessionStorage.setItem(KEY, t);
  else sessionStorage.removeItem(KEY);
}

function headers(extra) {
  const h = { ...extra };
  const t = getToken();
  if (t) h.Authorization = 'Bearer ' + t;
  return h;
}

// call sends one JSON request and returns the decoded answer.
export async function call(method, path, body) {
  const init = { method, headers: headers(body ? { 'Content-Type': 'application/json' } : {}) };
  if (body) init.body = JSON.stringify(body);
  return decode(await fetch(path, init));
}

async function decode(resp) {
  if (resp.status === 401) throw new Unauthorized();
  const text = await resp.text();
  let data = null;
  try { data = JSON.parse(text); } catch { /* not JSON: text says why */ }
  if (!resp.ok) {
    throw new APIError(resp.status, (data && data.error) || text || resp.statusText, data && data.diagnostics);
  }
  return data;
}

// stream asks a question with Accept: text/event-stream and calls
// onEvent(name, data) for every event. EventSource cannot send the
// Authorization header, so the stream is read from fetch.
export async function stream(body, onEvent, signal) {
  const resp = await fetch('/v1/ask', {
    method: 'POST', signal, body: JSON.stringify(body),
    headers: headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
  });
  if (!(resp.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
    await decode(resp); // a question that did not run: its error
    throw new APIError(resp.status, 'the server did not stream the run');
  }
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const ev = parseEvent(buf.slice(0, end));
      buf = buf.slice(end + 2);
      if (ev) onEvent(ev.name, ev.data);
    }
  }
}

// parseEvent reads one event block: its name and its data lines joined.
function parseEvent(block) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return data.length ? { name, data: data.join('\n') } : null;
}
