// A small Markdown renderer for the reports nous writes: headings,
// paragraphs, lists, pipe tables, fenced code, `code`, **bold** and links.
// It builds DOM nodes from text, so nothing in a report becomes markup.
import { el, link } from './dom.js';

// render returns the nodes of markdown text; headings start at level
// top (the page's own headings come first).
export function render(text, top = 3) {
  const lines = String(text ?? '').replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    if (line.startsWith('```')) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      i++;
      out.push(el('pre', {}, el('code', {}, code.join('\n'))));
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      out.push(el('h' + Math.min(6, top + h[1].length - 1), {}, inline(h[2])));
      i++;
      continue;
    }
    if (isRow(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      const head = cells(line);
      const rows = [];
      for (i += 2; i < lines.length && isRow(lines[i]); i++) rows.push(cells(lines[i]));
      out.push(el('table', {},
        el('thead', {}, el('tr', {}, head.map((c) => el('th', { scope: 'col' }, inline(c))))),
        el('tbody', {}, rows.map((r) => el('tr', {}, r.map((c) => el('td', {}, inline(c))))))));
      continue;
    }
    const item = listItem(line);
    if (item) {
      const list = el(item.ordered ? 'ol' : 'ul');
      for (let it; i < lines.length && (it = listItem(lines[i])) && it.ordered === item.ordered; i++) {
        list.append(el('li', {}, inline(it.text)));
      }
      out.push(list);
      continue;
    }
    const para = [];
    for (; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i++) para.push(lines[i].trim());
    if (!para.length) para.push(lines[i++].trim()); // a lone block marker
    out.push(el('p', {}, inline(para.join(' '))));
  }
  return out;
}

function startsBlock(line) {
  return line.startsWith('```') || /^#{1,6}\s/.test(line) || listItem(line) || isRow(line);
}

function listItem(line) {
  const m = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
  return m && { ordered: !m[1], text: m[3] };
}

function isRow(line) {
  return /^\s*\|.*\|\s*$/.test(line);
}

// cells splits a table row, honouring \| inside a cell.
function cells(line) {
  return line.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

// A link's address may hold one level of balanced parentheses, as
// Wikipedia's do.
const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|(https?:\/\/[^\s<>)]+)/g;

// inline returns the nodes of one line of text.
export function inline(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(el('code', {}, m[1]));
    else if (m[2] !== undefined) out.push(el('strong', {}, m[2]));
    else if (m[3] !== undefined) out.push(link(m[4], m[3]));
    else out.push(link(m[5], m[5]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
