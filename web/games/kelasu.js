// Kelasu: a 10×10 board, ranks A (top) to J, files 0 to 9; squares are
// named like `C0`. Board part of the view (crates/games/src/kelasu/view.rs):
// { ranks, files, squares: [{square, piece, kind, colour, spent}],
//   victory_tiles, energy, spent, stones }; turn and quiet turns are counters.
// Moves: `B3-C3`, merges `W@D1:C1,D1` (click the Blanks in any order, then
// the square of the new piece).

import { s, h } from '../dom.js';
import { svg, square } from '../board.js';

const NAMES = { B: 'Blank', W: 'Warrior', R: 'Runner', D: 'Diplomat', C: 'Champion', G: 'General', S: 'Stone' };
const FILL = { blue: '#2f6fd0', red: '#c8382f' };

function parseMerge(text) {
  const m = /^([A-Z])@([A-J]\d):(.+)$/.exec(text);
  return m ? { letter: m[1], target: m[2], blanks: m[3].split(',') } : null;
}

export default {
  draw(board, ctx = {}) {
    const ranks = board.ranks || ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    const files = board.files || ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const size = 10;
    const pad = ctx.small ? 0 : 4;
    const pic = svg(files.length * size + pad, ranks.length * size + pad);
    const pieces = new Map((board.squares || []).map((p) => [p.square, p]));
    const tiles = new Set(board.victory_tiles || []);
    const flip = !!ctx.flip;
    ranks.forEach((rank, r) => {
      files.forEach((file, f) => {
        const row = flip ? ranks.length - 1 - r : r;
        const col = flip ? files.length - 1 - f : f;
        const x = pad + col * size;
        const y = row * size;
        const name = `${rank}${file}`;
        const light = (r + f) % 2 === 0;
        const sq = square(x, y, size, name, light ? '#e9e4d4' : '#d3cbb3', ctx);
        if (tiles.has(name)) sq.append(s('rect', { x: x + 0.6, y: y + 0.6, width: size - 1.2, height: size - 1.2, fill: 'none', stroke: '#d4a017', 'stroke-width': 0.9, 'pointer-events': 'none' }));
        const p = pieces.get(name);
        if (p) {
          const g = s('g', { 'pointer-events': 'none', opacity: p.spent ? 0.45 : 1 });
          const blank = p.piece === 'B';
          g.append(s('circle', { cx: x + size / 2, cy: y + size / 2, r: blank ? size * 0.26 : size * 0.38, fill: FILL[p.colour] || '#555', stroke: '#222', 'stroke-width': 0.4 }));
          if (!blank) g.append(s('text', { x: x + size / 2, y: y + size / 2, 'font-size': size * 0.42, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#fff', 'font-weight': 'bold', 'font-family': 'system-ui, sans-serif', text: p.piece }));
          sq.append(g);
        }
        pic.append(sq);
      });
    });
    if (!ctx.small) {
      ranks.forEach((rank, r) => pic.append(s('text', { x: 1.5, y: (flip ? ranks.length - 1 - r : r) * size + size / 2, 'font-size': 2.6, 'dominant-baseline': 'central', fill: '#666', text: rank })));
      files.forEach((file, f) => pic.append(s('text', { x: pad + (flip ? files.length - 1 - f : f) * size + size / 2, y: ranks.length * size + 2.6, 'font-size': 2.6, 'text-anchor': 'middle', fill: '#666', text: file })));
    }
    return pic;
  },

  tokens(text) {
    const merge = parseMerge(text);
    if (merge) return [...merge.blanks, merge.target];
    const m = /^([A-J]\d)-([A-J]\d)$/.exec(text);
    return m ? [m[1], m[2]] : [];
  },

  /// Merges: the Blanks may be clicked in any order.
  unordered(text) {
    const merge = parseMerge(text);
    return merge ? merge.blanks.length : 0;
  },

  label(text) {
    const merge = parseMerge(text);
    return merge ? `${NAMES[merge.letter] || merge.letter} on ${merge.target} (${merge.blanks.length} Blanks)` : text;
  },

  panel(board) {
    if (!board || board.energy === undefined) return null;
    const stones = board.stones || {};
    return h('div', { class: 'info-box' },
      board.to_act ? h('b', {}, `${board.to_act} to act — `) : '', `Energy left: `, h('b', { 'data-energy': '' }, String(board.energy)),
      board.spent && board.spent.length ? ` — spent: ${board.spent.join(', ')}` : '',
      h('br'), `Stones: blue ${stones.blue ?? '?'}, red ${stones.red ?? '?'}`,
      h('br'), h('small', { class: 'muted' }, 'Merge: click the Blanks (any order), then the square of the new piece. Gold squares are Victory Tiles.'));
  },
};
