// Lichen Chess: stones with eight slots on a small grid. Board part of the
// view (crates/games/src/lichen/view.rs): { files, ranks, squares,
// directions, stones: [{square, slots: {n: "white"|"black"|null, ...},
// kingstone, controller}], hands: {white, black}, harvest }.
// A turn: `a2ne` (place a token on a2's ne slot), then optionally `;c1>n`
// (move the stone on c1 north) or `;a2*ne` (a2 colonizes north-east).
// Click a slot, then (optionally) a stone and the square it goes to.

import { h, s } from '../dom.js';
import { Picture, fileName } from '../board.js';
import { lichenStone, lichenToken } from '../pieces.js';
import DRAWING from '../drawing.js';

const DIRS = { n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1], s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1] };
const ARROWS = { n: '↑', ne: '↗', e: '→', se: '↘', s: '↓', sw: '↙', w: '←', nw: '↖' };
const { shades: SHADES, halo: HALO } = DRAWING.lichen;

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
    const picture = new Picture(files * size, ranks * size, ctx);
    const flip = !!ctx.flip;
    const stones = new Map((board.stones || []).map((st) => [st.square, st]));
    const harvest = new Set(board.harvest || []);
    const cells = [];
    for (let r = 0; r < ranks; r++) {
      for (let f = 0; f < files; f++) {
        const name = `${fileName(f)}${r + 1}`;
        const col = flip ? files - 1 - f : f;
        const row = flip ? r : ranks - 1 - r;
        const x = col * size;
        const y = row * size;
        const light = (f + r) % 2 === 1;
        const cell = picture.square(name, x, y, size, light ? SHADES.light : SHADES.dark, { stroke: DRAWING.lichen.grid, strokeWidth: 0.3 });
        cell.light = light;
        if (col === 0) cell.rankLabel = String(r + 1);
        if (row === ranks - 1) cell.fileLabel = fileName(f);
        cells.push(cell);
        const st = stones.get(name);
        if (!st) continue;
        const cx = x + size / 2;
        const cy = y + size / 2;
        const g = s('g', { class: 'lichen-stone' });
        if (st.controller) g.append(s('circle', { cx, cy, r: size * 0.285, fill: 'none', stroke: HALO[st.controller], 'stroke-width': size * 0.04, opacity: 0.9 }));
        g.append(lichenStone(x + size * 0.15, y + size * 0.15, size * 0.7, st.kingstone));
        if (harvest.has(name)) g.append(s('circle', { cx, cy, r: size * 0.47, fill: 'none', stroke: DRAWING.lichen.harvest, 'stroke-dasharray': '2 1.4', 'stroke-width': 0.7 }));
        picture.piece(name, g);
        // The eight slots round the stone, each clickable as `<square><dir>`.
        for (const [dir, [dx, dy]] of Object.entries(DIRS)) {
          const k = dx && dy ? 0.3 : 0.36;
          const sx = cx + (flip ? -dx : dx) * size * k;
          const sy = cy - (flip ? -dy : dy) * size * k;
          const slotName = `${name}${dir}`;
          const token = st.slots ? st.slots[dir] : null;
          picture.slot(slotName, sx, sy, size * 0.075, { occupied: !!token, fill: DRAWING.lichen.slot.fill, stroke: DRAWING.lichen.slot.stroke });
          if (token) picture.decorate(lichenToken(token, sx, sy, size * 0.07));
          const hl = ctx.highlights || {};
          if ((hl.selected && hl.selected.has(slotName)) || (hl.last && hl.last.has(slotName))) {
            picture.layers.marks.append(s('circle', { cx: sx, cy: sy, r: size * 0.11, fill: hl.selected && hl.selected.has(slotName) ? 'rgba(20, 85, 30, 0.5)' : 'rgba(155, 199, 0, 0.7)' }));
          }
        }
      }
    }
    picture.edgeCoords(cells, size, (c) => c.light, { onLight: DRAWING.lichen.coords, onDark: DRAWING.lichen.coords }, 0.13);
    return picture.finish();
  },

  /// A press on a stone (or one of its slots) that leads to no move: the
  /// nearest of the stone's slots that does (`usable`), by the distance on
  /// screen from the press to the slot's centre. A slot is a few pixels
  /// wide on a phone; the whole stone is the target.
  nearestCell(cell, point, container, usable) {
    const m = /^([a-z]\d+)(?:n|ne|e|se|s|sw|w|nw)?$/.exec(cell);
    if (!m) return null;
    let best = null;
    let nearest = Infinity;
    for (const dir of Object.keys(DIRS)) {
      const name = `${m[1]}${dir}`;
      const slot = usable(name) && container.querySelector(`.slot[data-square="${name}"]`);
      if (!slot) continue;
      const r = slot.getBoundingClientRect();
      const distance = Math.hypot(r.x + r.width / 2 - point.x, r.y + r.height / 2 - point.y);
      if (distance < nearest) {
        nearest = distance;
        best = name;
      }
    }
    return best;
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

  isCapture(text, before) {
    const m = /;([a-z]\d+)\*(n|ne|e|se|s|sw|w|nw)$/.exec(text);
    if (!m || !before) return false;
    const target = (before.stones || []).find((st) => st.square === neighbour(m[1], m[2]));
    const mover = before.to_act;
    const there = target && target.slots ? target.slots[m[2]] : null;
    return !!(there && there !== mover);
  },

  short(text) {
    const [place, act] = text.split(';');
    const dir = (t) => t.replace(/(ne|nw|se|sw|n|e|s|w)$/, (d) => ARROWS[d]);
    if (!act) return dir(place);
    const m = /^([a-z]\d+)([>*])(\w+)$/.exec(act);
    return m ? `${dir(place)} ${m[1]}${m[2] === '*' ? '*' : ''}${ARROWS[m[3]] || m[3]}` : text;
  },

  label(text) {
    const [place, act] = text.split(';');
    const where = (slot) => { const m = /^([a-z]\d+)([nesw]+)$/.exec(slot); return m ? `${m[1]} ${ARROWS[m[2]] || m[2]}` : slot; };
    if (!act) return `Place on ${where(place)}, and stop`;
    const m = /^([a-z]\d+)([>*])(\w+)$/.exec(act);
    if (!m) return text;
    return m[2] === '*' ? `Place on ${where(place)}, then ${m[1]} colonizes ${ARROWS[m[3]] || m[3]}` : `Place on ${where(place)}, then move ${m[1]} ${ARROWS[m[3]] || m[3]}`;
  },

  now(board, ctx = {}) {
    if (!board || !board.hands) return null;
    const me = ctx.you === 'second' ? 'black' : 'white';
    return h('div', { class: 'lichen-now' }, 'Tokens in hand: ', h('b', {}, `white ${board.hands.white}`), ' · ', h('b', {}, `black ${board.hands.black}`),
      board.harvest && board.harvest.length && !ctx.over ? h('span', { class: 'muted' }, ` · ${me === board.to_act ? 'your' : 'the'} harvest this turn: ${board.harvest.join(', ')}`) : '');
  },

  help: [
    'Your turn: click an empty slot (the small circles round a stone) to place a token there. If you may also act, the stones you could move or colonize from are marked: click one, then where it goes — or press "Place only".',
    'You may also drag a stone you control to its new square after placing.',
    'Whoever has more tokens on a stone controls it (white or black halo). Control your opponent\'s kingstone (the crown) to win. Dashed rings: your stones harvested at the start of this turn.',
  ],
};
