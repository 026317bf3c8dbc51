// Lichen Chess: stones with eight slots on a small grid. Board part of the
// view (crates/games/src/lichen/view.rs): { files, ranks, squares,
// directions, stones: [{square, slots: {n: "white"|"black"|null, ...},
// kingstone, controller}], hands: {white, black}, harvest }.
// A turn: `a2ne` (place a token on a2's ne slot), then optionally `;c1>n`
// (move the stone on c1 north) or `;a2*ne` (a2 colonizes north-east).
// Click a slot, then (optionally) a stone and the square it goes to.

import { s, h } from '../dom.js';
import { svg, fileName } from '../board.js';

const DIRS = { n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1], s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1] };
const COLOUR = { white: '#f5f5f5', black: '#262626' };

function neighbour(square, dir) {
  const m = /^([a-z])(\d+)$/.exec(square);
  const d = DIRS[dir];
  if (!m || !d) return null;
  return `${fileName(m[1].charCodeAt(0) - 97 + d[0])}${parseInt(m[2], 10) + d[1]}`;
}

export default {
  draw(board, ctx = {}) {
    const files = board.files || 5;
    const ranks = board.ranks || 3;
    const size = 30;
    const pic = svg(files * size, ranks * size);
    const flip = !!ctx.flip;
    const hl = ctx.highlights || {};
    const stones = new Map((board.stones || []).map((st) => [st.square, st]));
    const harvest = new Set(board.harvest || []);
    for (let r = 0; r < ranks; r++) {
      for (let f = 0; f < files; f++) {
        const name = `${fileName(f)}${r + 1}`;
        const col = flip ? files - 1 - f : f;
        const row = flip ? r : ranks - 1 - r;
        const x = col * size;
        const y = row * size;
        const cell = s('g', { 'data-square': name, class: 'square' });
        cell.append(s('rect', { x, y, width: size, height: size, fill: (f + r) % 2 ? '#dfe8d0' : '#cfdcbc', stroke: '#9aa88a', 'stroke-width': 0.3 }));
        if (hl.last && hl.last.has(name)) cell.append(s('rect', { x, y, width: size, height: size, fill: 'rgba(205,210,60,0.45)' }));
        if (hl.selected && hl.selected.has(name)) cell.append(s('rect', { x, y, width: size, height: size, fill: 'rgba(20,85,200,0.35)' }));
        if (hl.targets && hl.targets.has(name)) cell.append(s('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.1, fill: 'rgba(20,85,200,0.45)' }));
        pic.append(cell);
        const st = stones.get(name);
        if (!st) continue;
        const cx = x + size / 2;
        const cy = y + size / 2;
        const ring = st.controller === 'white' ? '#c9a227' : st.controller === 'black' ? '#5b3a8c' : '#888';
        pic.append(s('circle', { cx, cy, r: size * 0.3, fill: '#a7a196', stroke: ring, 'stroke-width': 1.4, 'pointer-events': 'none' }));
        if (st.kingstone) {
          pic.append(s('text', { x: cx, y: cy, 'font-size': size * 0.3, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: COLOUR[st.kingstone] === '#f5f5f5' ? '#fff' : '#111', stroke: '#333', 'stroke-width': 0.3, 'pointer-events': 'none', text: '♚' }));
        }
        if (harvest.has(name)) pic.append(s('circle', { cx, cy, r: size * 0.36, fill: 'none', stroke: '#2a8f3a', 'stroke-dasharray': '1.5 1', 'stroke-width': 0.6, 'pointer-events': 'none' }));
        // The eight slots round the stone, each clickable as `<square><dir>`.
        for (const [dir, [dx, dy]] of Object.entries(DIRS)) {
          const sx = cx + (flip ? -dx : dx) * size * 0.36;
          const sy = cy - (flip ? -dy : dy) * size * 0.36;
          const slotName = `${name}${dir}`;
          const token = st.slots ? st.slots[dir] : null;
          const slot = s('g', { 'data-square': slotName, class: 'slot' });
          slot.append(s('circle', { cx: sx, cy: sy, r: size * 0.085, fill: token ? COLOUR[token] : 'rgba(255,255,255,0.25)', stroke: '#444', 'stroke-width': 0.35 }));
          if (hl.targets && hl.targets.has(slotName)) slot.append(s('circle', { cx: sx, cy: sy, r: size * 0.11, fill: 'none', stroke: '#1455c8', 'stroke-width': 0.8 }));
          if ((hl.selected && hl.selected.has(slotName)) || (hl.last && hl.last.has(slotName))) slot.append(s('circle', { cx: sx, cy: sy, r: size * 0.12, fill: 'none', stroke: '#c8a000', 'stroke-width': 0.8 }));
          pic.append(slot);
        }
      }
    }
    return pic;
  },

  /// `a2ne;c1>n` -> ["a2ne", "c1", "c2"]; `a2ne;a2*ne` -> ["a2ne", "a2", "b3"].
  tokens(text) {
    const [place, act] = text.split(';');
    const tokens = [];
    if (/^[a-z]\d+(n|ne|e|se|s|sw|w|nw)$/.test(place || '')) tokens.push(place);
    const m = act ? /^([a-z]\d+)([>*])(n|ne|e|se|s|sw|w|nw)$/.exec(act) : null;
    if (m) tokens.push(m[1], neighbour(m[1], m[3]));
    return tokens;
  },

  label(text) {
    const [place, act] = text.split(';');
    if (!act) return `${place}: place only, end the turn`;
    return act.includes('*') ? `${place}, then colonize ${act.replace('*', ' → ')}` : `${place}, then move ${act.replace('>', ' → ')}`;
  },

  panel(board) {
    if (!board || !board.hands) return null;
    return h('div', { class: 'info-box' },
      `Hands — white: `, h('b', {}, String(board.hands.white)), `, black: `, h('b', {}, String(board.hands.black)),
      board.to_act ? ` — ${board.to_act} to move` : '',
      board.harvest && board.harvest.length ? ` — harvest at the start of this turn: ${board.harvest.join(', ')}` : '',
      h('br'), h('small', { class: 'muted' }, 'Click a slot to place a token; then click a stone and where it moves or what it colonizes, or choose "place only" to end the turn. Rings: gold = white controls, purple = black.'));
  },
};
