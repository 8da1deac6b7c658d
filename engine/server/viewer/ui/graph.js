// The plan as a graph: steps as nodes in columns by level (a step's level
// is one more than its deepest dependency's), dependencies as edges, each
// retrieval step with its retrieval plan. Nodes are focusable buttons.
import { svg, short, token } from './dom.js';

const W = 220, H = 92, GAP_X = 44, GAP_Y = 18, PAD = 12;

// MIN_SCALE is how far a wide graph shrinks to fit before it scrolls.
const MIN_SCALE = 0.6;

// steps reads a plan (nous plan --format json) into graph steps: id,
// dependencies and what to show, retrieval plans attached to their step.
export function steps(plan) {
  const hyps = (plan && plan.reasoning && plan.reasoning.hypotheses) || [];
  const plans = (plan && plan.retrieval && plan.retrieval.plans) || [];
  return hyps.map((h) => ({
    id: String(h.id),
    deps: (h.dependencies || []).map(String),
    name: h.name || h.action || '',
    action: h.action || '',
    role: h.role || '',
    intent: h.intent || '',
    description: h.description || '',
    retrieval: plans.filter((p) => p.hypothesis === h.id),
  }));
}

// added appends the steps a run ran that its plan did not have: a
// refinement's ADD, a sibling of its target step, so with the target's
// dependencies.
export function added(list, ran, refinements) {
  const known = new Map(list.map((s) => [s.id, s]));
  const siblingOf = new Map(refinements.filter((r) => r.op === 'ADD' && r.new_step_id)
    .map((r) => [String(r.new_step_id), String(r.target_step_id)]));
  for (const r of ran) {
    const id = String(r.id);
    if (known.has(id)) continue;
    const target = known.get(siblingOf.get(id));
    const s = {
      id, deps: target ? target.deps : [], name: r.action || '', action: r.action || '', role: r.role || '',
      intent: r.intent || '', description: r.description || '', retrieval: [], added: true,
    };
    list.push(s);
    known.set(id, s);
  }
  return list;
}

// levels gives every step its level; a dependency on an unknown step or
// a cycle (which the engine refuses) counts as none.
export function levels(list) {
  const byID = new Map(list.map((s) => [s.id, s]));
  const level = new Map();
  const visiting = new Set();
  const visit = (s) => {
    if (level.has(s.id)) return level.get(s.id);
    if (visiting.has(s.id)) return -1;
    visiting.add(s.id);
    let l = 0;
    for (const d of s.deps) if (byID.has(d)) l = Math.max(l, visit(byID.get(d)) + 1);
    visiting.delete(s.id);
    level.set(s.id, l);
    return l;
  };
  list.forEach(visit);
  return level;
}

// draw renders the graph of list into an SVG element; onSelect(step) is
// called when a node is clicked or activated from the keyboard.
export function draw(list, onSelect) {
  const level = levels(list);
  const columns = [];
  for (const s of list) (columns[level.get(s.id)] ||= []).push(s);
  const pos = new Map();
  columns.forEach((col, x) => col.forEach((s, y) => pos.set(s.id, {
    x: PAD + x * (W + GAP_X), y: PAD + y * (H + GAP_Y),
  })));
  const rows = Math.max(1, ...columns.map((c) => (c ? c.length : 0)));
  const width = PAD * 2 + Math.max(1, columns.length) * (W + GAP_X) - GAP_X;
  const height = PAD * 2 + rows * (H + GAP_Y) - GAP_Y;
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, role: 'group',
    'aria-label': `Plan graph: ${list.length} steps in ${columns.length} levels`,
  });
  root.style.minWidth = `${Math.round(width * MIN_SCALE)}px`;
  root.append(svg('defs', {}, svg('marker', {
    id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse',
  }, svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' }))));
  for (const s of list) {
    for (const d of s.deps) {
      const a = pos.get(d), b = pos.get(s.id);
      if (!a) continue;
      const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2, mx = (x1 + x2) / 2;
      root.append(svg('path', {
        class: 'edge', 'data-from': d, 'data-to': s.id, 'marker-end': 'url(#arrow)',
        d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`,
      }));
    }
  }
  for (const s of list) root.append(node(s, pos.get(s.id), level.get(s.id), onSelect));
  return root;
}

function node(s, p, lvl, onSelect) {
  const r = s.retrieval[0];
  const what = r ? `${(r.sources || []).join(', ')} · ${r.kind || 'any'}`
    : [s.action !== s.name && s.action, s.role].filter(Boolean).join(' · ');
  const filters = r ? filterText(r.filters) : '';
  const label = `Step ${s.id}${s.added ? ' (added by a refinement)' : ''}, level ${lvl + 1}: ${s.description}. ${what}${filters ? '; ' + filters : ''}` +
    (s.deps.length ? `. Depends on ${s.deps.join(', ')}` : '');
  const g = svg('g', {
    class: 'node st-pending', 'data-added': s.added, tabindex: 0, role: 'button', 'data-step': s.id, 'aria-label': label,
    transform: `translate(${p.x},${p.y})`,
  },
  svg('title', {}, label),
  svg('rect', { width: W, height: H, rx: 8 }),
  svg('text', { x: 10, y: 20, class: 'id' }, `${s.id} · ${short(s.name, 22)}`),
  svg('text', { x: W - 10, y: 20, class: 'state', 'text-anchor': 'end' }, ''),
  svg('text', { x: 10, y: 40, class: 'desc' }, short(s.description, 32)),
  svg('text', { x: 10, y: 60, class: 'what' }, short(what, 32)),
  svg('text', { x: 10, y: 78, class: 'filters' }, short(filters, 34)));
  const select = () => onSelect(s);
  g.addEventListener('click', select);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(); }
  });
  return g;
}

// filterText is a retrieval plan's filters on one line.
export function filterText(filters) {
  return Object.entries(filters || {}).map(([k, v]) => `${k}: ${[].concat(v).join(', ')}`).join('; ');
}

// mark shows a step's status on its node.
export function mark(root, id, status) {
  for (const g of root.querySelectorAll('g.node')) {
    if (g.dataset.step !== id) continue;
    g.setAttribute('class', `node st-${token(status)}`);
    g.querySelector('text.state').textContent = status;
  }
}
