// The run viewer: asks a question through POST /v1/plan and POST /v1/ask
// (Server-Sent Events), draws the plan, follows the run and shows what it
// produced; lists and opens the recent runs.
import { call, stream, setToken, getToken, Unauthorized, APIError } from './api.js';
import { el, clear, token } from './dom.js';
import * as graph from './graph.js';
import * as views from './views.js';

const $ = (id) => document.getElementById(id);
const state = { steps: [], ran: new Map(), svg: null, run: '', abort: null };

// setStatus says where the run is; data-state is the machine-readable word.
function setStatus(word, text) {
  const s = $('status');
  s.dataset.state = word;
  s.textContent = text;
}

function reset() {
  state.steps = [];
  state.ran = new Map();
  state.svg = null;
  state.run = '';
  for (const id of ['graph', 'step', 'progress', 'progress-count', 'report', 'evidence', 'refinements', 'trace']) clear($(id));
  $('progress-box').open = true;
}

// showPlan draws plan's steps and those the run added.
function showPlan(plan, ran = [], refinements = []) {
  state.steps = graph.added(graph.steps(plan), ran, refinements);
  state.svg = graph.draw(state.steps, (s) => views.step($('step'), s, state.ran.get(s.id)));
  clear($('graph')).append(state.svg);
  for (const [id, r] of state.ran) graph.mark(state.svg, id, r.status);
}

function markStep(id, r) {
  state.ran.set(id, { ...state.ran.get(id), ...r });
  if (state.svg) graph.mark(state.svg, id, r.status);
}

// progress logs one event of the run.
function progress(name, d) {
  const text = {
    pass: () => `Pass ${d.pass}`,
    step_start: () => `${d.step} started: ${d.description || ''}`,
    step_end: () => `${d.step} ${d.status}`,
    refinement: () => `Refinement ${d.status} ${d.step}: ${d.detail || ''}`,
    depth: () => `Depth ${d.status}: ${d.detail || ''}`,
    done: () => 'Done',
  }[name];
  if (!text) return;
  $('progress').append(el('li', { class: `ev-${token(name)}` }, text()));
  $('progress-count').textContent = `(${$('progress').childElementCount} events)`;
}

// showOutput shows a finished run: nous ask --format json.
function showOutput(out) {
  const res = out.result || {};
  for (const s of res.steps || []) markStep(String(s.id), { status: s.status, records: s.records, output: s.output });
  const refinements = ((out.history && out.history.passes) || []).flatMap((p) => p.refinements || []);
  if (out.plan) showPlan(out.plan, res.steps || [], refinements);
  views.report($('report'), out);
  views.evidence($('evidence'), out);
  views.refinements($('refinements'), out);
  views.trace($('trace'), out);
  const conf = res.answer && res.answer.confidence_level;
  setStatus(res.status || 'unknown', `Run ${res.execution_id || state.run}: ${res.status || 'unknown'}` + (conf ? ` · confidence ${conf}` : ''));
}

function showError(e) {
  const diags = (e instanceof APIError ? e.diagnostics : []).map((d) => `${d.code}: ${d.message}`);
  setStatus('error', [e.message, ...diags].join(' · '));
}

// authorized runs fn, asking for a token when the server wants one.
async function authorized(fn) {
  for (let tries = 0; ; tries++) {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof Unauthorized) || tries >= 3 || !(await askToken(true))) throw e;
    }
  }
}

// askToken opens the token dialog; it reports whether a token was saved.
function askToken(required) {
  const d = $('token-dialog');
  $('token').value = getToken();
  $('token-title').textContent = required ? 'This server asks for a bearer token' : 'Bearer token';
  d.showModal();
  return new Promise((resolve) => d.addEventListener('close', () => {
    if (d.returnValue === 'save') setToken($('token').value.trim());
    if (d.returnValue === 'forget') setToken('');
    resolve(d.returnValue === 'save' && !!getToken());
  }, { once: true }));
}

async function ask(query, mode) {
  reset();
  const body = { query };
  if (mode) body.mode = mode;
  setStatus('planning', 'Planning…');
  showPlan(await authorized(() => call('POST', '/v1/plan', body)));
  setStatus('running', 'Running…');
  state.abort = new AbortController();
  $('cancel-button').hidden = false;
  let ended = false;
  try {
    await authorized(() => stream(body, (name, data) => {
      const d = JSON.parse(data);
      switch (name) {
        case 'run':
          state.run = d.id;
          history.replaceState(null, '', '#run=' + encodeURIComponent(d.id));
          setStatus('running', `Run ${d.id}: running…`);
          refreshRuns();
          break;
        case 'step_start': markStep(d.step, { status: 'running' }); break;
        case 'step_end': markStep(d.step, { status: d.status }); break;
        case 'result': ended = true; $('progress-box').open = false; showOutput(d); break;
        case 'error': ended = true; showError(new APIError(0, `Run ${state.run}: ${d.error}`, d.diagnostics)); break;
      }
      progress(name, d);
    }, state.abort.signal));
    if (!ended) setStatus('error', 'The stream ended before the run did.');
  } finally {
    $('cancel-button').hidden = true;
    state.abort = null;
    refreshRuns();
  }
}

async function openRun(id) {
  reset();
  state.run = id;
  history.replaceState(null, '', '#run=' + encodeURIComponent(id));
  setStatus('loading', `Run ${id}: loading…`);
  $('progress-box').open = false;
  $('progress-count').textContent = '(shown while a run streams)';
  const d = await authorized(() => call('GET', '/v1/runs/' + encodeURIComponent(id)));
  $('query').value = d.query || '';
  $('mode').value = d.mode || '';
  if (d.output) showOutput(d.output);
  else setStatus(d.status, `Run ${id}: ${d.status}${d.error ? ' · ' + d.error : ''}`);
  refreshRuns();
}

async function refreshRuns() {
  try {
    const d = await authorized(() => call('GET', '/v1/runs?limit=20'));
    views.runs($('runs'), d.runs || [], (id) => openRun(id).catch(showError), state.run);
  } catch (e) {
    clear($('runs')).append(el('li', { class: 'empty' }, e.message));
  }
}

$('ask').addEventListener('submit', (e) => {
  e.preventDefault();
  const query = $('query').value.trim();
  if (!query || state.abort) return;
  $('ask-button').disabled = true;
  ask(query, $('mode').value.trim()).catch((err) => {
    if (err.name !== 'AbortError') showError(err);
    else setStatus('cancelled', `Run ${state.run}: cancelled`);
  }).finally(() => { $('ask-button').disabled = false; });
});

// Cancel asks the server to end the run (its partial result still
// streams in); without a run ID yet, it drops the stream.
$('cancel-button').addEventListener('click', () => {
  if (state.run) authorized(() => call('DELETE', '/v1/runs/' + encodeURIComponent(state.run))).catch(showError);
  else if (state.abort) state.abort.abort();
});
$('token-button').addEventListener('click', () => askToken(false).then(refreshRuns));
$('runs-refresh').addEventListener('click', refreshRuns);

const linked = /^#run=(.+)$/.exec(location.hash);
if (linked) openRun(decodeURIComponent(linked[1])).catch(showError);
else refreshRuns();
