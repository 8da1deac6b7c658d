// The sections of a run's output (nous ask --format json): report,
// evidence, refinements, reasoning trace, a step's details, the runs list.
import { el, clear, link, short, token } from './dom.js';
import { render } from './markdown.js';
import { filterText } from './graph.js';

// Rows shown at most in the evidence table and the trace: a run keeps
// up to a thousand records, the page stays light.
const MAX_ROWS = 200;

export function report(node, output) {
  const res = output.result || {};
  clear(node).append(...(res.report ? render(res.report) : [el('p', { class: 'empty' }, 'No report.')]));
}

// evidence lists the records, those the answer cites first, linked to
// their URLs.
export function evidence(node, output) {
  const res = output.result || {};
  const records = res.records || [];
  const cited = new Set([res.answer || {}, ...(res.answers || [])].flatMap((a) => a.sources_used || []).map(String));
  clear(node);
  if (!records.length) return node.append(el('p', { class: 'empty' }, 'No records.'));
  const sorted = [...records].sort((a, b) => cited.has(b.id) - cited.has(a.id));
  const shown = sorted.slice(0, MAX_ROWS);
  node.append(el('table', { class: 'evidence' },
    el('caption', {}, `${plural(records.length, 'record')}, ${records.filter((r) => cited.has(r.id)).length} cited` +
      (records.length > shown.length ? ` (first ${shown.length} shown)` : '')),
    el('thead', {}, el('tr', {}, ['', 'Record', 'Source', 'Kind', 'Author', 'Date'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, shown.map((r) => el('tr', { class: cited.has(r.id) ? 'cited' : '' },
      el('td', {}, cited.has(r.id) ? el('span', { class: 'badge', title: 'cited by the answer' }, 'cited') : ''),
      el('td', {}, link(r.url, short(r.title || r.id, 90)), r.title ? el('span', { class: 'rid' }, ' ' + short(r.id, 12)) : ''),
      el('td', {}, r.source || '', r.tier ? ` (tier ${r.tier})` : ''),
      el('td', {}, r.kind || ''),
      el('td', {}, r.author || ''),
      el('td', {}, (r.time || '').slice(0, 10)))))));
}

// refinements lists, pass by pass, what the run changed in its plan and why.
export function refinements(node, output) {
  const passes = (output.history && output.history.passes) || [];
  clear(node);
  const items = [];
  for (const p of passes) {
    for (const r of p.refinements || []) {
      const change = [
        r.new_step_id && `new step ${r.new_step_id}`,
        r.drop_filters && r.drop_filters.length && `drop ${r.drop_filters.join(', ')}`,
        r.set_filters && `set ${filterText(r.set_filters)}`,
        r.limit && `limit ${r.limit}`,
        r.nearest && `nearest ${r.nearest}`,
        r.new_description && `“${r.new_description}”`,
      ].filter(Boolean).join('; ');
      items.push(el('li', {},
        el('span', { class: 'badge' }, `pass ${p.number}`), ' ',
        el('strong', {}, `${r.op} ${r.target_step_id}`), change ? ` (${change})` : '', ': ',
        r.justification || '', ' ',
        r.applied ? el('span', { class: 'badge ok' }, 'applied') : el('span', { class: 'badge bad' }, `refused${r.refused ? ': ' + r.refused : ''}`)));
    }
  }
  node.append(items.length ? el('ol', { class: 'refinements' }, items) : el('p', { class: 'empty' }, 'No refinements: the first pass held.'));
}

// trace lists the reasoning trace: what the run thought, did and found.
export function trace(node, output) {
  const entries = output.trace || [];
  clear(node);
  for (const t of entries.slice(0, MAX_ROWS)) {
    const ev = t.evidence || [];
    node.append(el('li', {},
      el('span', { class: 'badge' }, t.stage || ''), ' ',
      el('strong', {}, t.action || ''), ' ',
      el('span', { class: `badge st-${token(t.outcome)}` }, t.outcome || ''), ' ',
      t.thought || '',
      ev.length ? el('ul', {}, ev.slice(0, 5).map((e) => el('li', {}, short(e, 200))),
        ev.length > 5 ? el('li', { class: 'empty' }, `and ${ev.length - 5} more`) : '') : ''));
  }
  if (!entries.length) node.append(el('li', { class: 'empty' }, 'No trace.'));
}

// step shows one step: its plan and, once run, what it did.
export function step(node, s, ran) {
  clear(node).append(el('h3', {}, `Step ${s.id}: ${s.description}`),
    el('dl', {},
      pair('Action', [s.action, s.role].filter(Boolean).join(' · ')),
      pair('Intent', s.intent),
      pair('Depends on', s.deps.join(', ') || 'nothing'),
      s.retrieval.map((r) => [
        pair(`Retrieval ${r.id}`, `${(r.sources || []).join(', ')} · kind ${r.kind || 'any'} · priority ${r.priority ?? ''}`),
        pair('Filters', filterText(r.filters) || 'none'),
      ]),
      ran && pair('Status', `${ran.status}${ran.records !== undefined ? ` · ${ran.records} records` : ''}`),
      ran && ran.output && pair('Output', short(ran.output, 600))));
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function pair(term, value) {
  return value ? [el('dt', {}, term), el('dd', {}, value)] : '';
}

// runs lists the recent runs; onOpen(id) opens one.
export function runs(node, list, onOpen, current) {
  clear(node);
  for (const r of list) {
    const b = el('button', { type: 'button', 'aria-current': r.id === current ? 'true' : false },
      el('span', { class: `badge st-${token(r.status)}` }, r.status), ' ', short(r.query, 80),
      el('time', { datetime: r.started_at }, (r.started_at || '').replace('T', ' ').slice(0, 19)));
    b.addEventListener('click', () => onOpen(r.id));
    node.append(el('li', {}, b));
  }
  if (!list.length) node.append(el('li', { class: 'empty' }, 'No runs yet.'));
}
