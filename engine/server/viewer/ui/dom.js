// DOM helpers. Everything the server sends is untrusted: it only ever
// becomes text nodes and attribute values, never markup.

// el builds an element: attrs are attributes (on* names are refused),
// children are nodes or strings (text).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';

// svg builds an SVG element as el does.
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false || /^on/i.test(k)) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// clear empties node.
export function clear(node) {
  node.replaceChildren();
  return node;
}

// safeURL is url when it is an absolute http(s) address, else null: a
// record's link must not run script (javascript:) or point at the page.
export function safeURL(url) {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

// link is an anchor to an outside address that opens in a new tab, or
// plain text when the address is not safe.
export function link(url, text) {
  const href = safeURL(url);
  if (!href) return document.createTextNode(text);
  return el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
}

// token is a CSS class fragment from an untrusted word (a status).
export function token(word) {
  return String(word || '').toLowerCase().replace(/[^a-z0-9_-]/g, '');
}

// short trims s to n characters with an ellipsis.
export function short(s, n) {
  s = String(s ?? '');
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}
