// Kelasu: a 10×10 board, ranks A (top) to J, files 0 to 9; squares are
// named like `C0`. Board part of the view (crates/games/src/kelasu/view.rs):
// { ranks, files, squares: [{square, piece, kind, colour, spent}],
//   victory_tiles, energy, spent, stones }; turn and quiet turns are counters.
// Moves: `B3-C3`, merges `W@D1:C1,D1` (click the Blanks in any order, then
// the square of the new piece).

import { h, s } from '../dom.js';
import { Picture } from '../board.js';
import { kelasuPiece, kelasuName } from '../pieces.js';
import DRAWING from '../drawing.js';

const SHADES = DRAWING.kelasu.shades;

function parseMerge(text) {
  const m = /^([A-Z])@([A-J]\d):(.+)$/.exec(text);
  return m ? { letter: m[1], target: m[2], blanks: m[3].split(',') } : null;
}

export default {
  /// Blue starts at the top (rank A): its player sees the board turned.
  firstAtTop: true,

  draw(board, ctx = {}) {
    const ranks = board.ranks || ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    const files = board.files || ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const size = 10;
    const picture = new Picture(files.length * size, ranks.length * size, ctx);
    const pieces = new Map((board.squares || []).map((p) => [p.square, p]));
    const tiles = new Set(board.victory_tiles || []);
    const flip = !!ctx.flip;
    const cells = [];
    ranks.forEach((rank, r) => {
      files.forEach((file, f) => {
        const row = flip ? ranks.length - 1 - r : r;
        const col = flip ? files.length - 1 - f : f;
        const x = col * size;
        const y = row * size;
        const name = `${rank}${file}`;
        const light = (r + f) % 2 === 0;
        const cell = picture.square(name, x, y, size, light ? SHADES.light : SHADES.dark);
        cell.light = light;
        if (col === 0) cell.rankLabel = rank;
        if (row === ranks.length - 1) cell.fileLabel = file;
        cells.push(cell);
        if (tiles.has(name)) {
          picture.layers.marks.append(s('rect', { x: x + 0.5, y: y + 0.5, width: size - 1, height: size - 1, fill: DRAWING.kelasu.tile.fill, stroke: DRAWING.kelasu.tile.stroke, 'stroke-width': 0.8, class: 'victory-tile' }));
        }
        const p = pieces.get(name);
        if (p) {
          const art = kelasuPiece(p.piece, p.colour, x + size * 0.05, y + size * 0.05, size * 0.9);
          if (p.spent) art.setAttribute('opacity', String(DRAWING.kelasu.spentOpacity));
          picture.piece(name, art);
        }
      });
    });
    picture.edgeCoords(cells, size, (c) => c.light, DRAWING.kelasu.coords);
    return picture.finish();
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

  isCapture(text, before) {
    const m = /^([A-J]\d)-([A-J]\d)$/.exec(text);
    if (!m || !before) return false;
    const at = new Map((before.squares || []).map((p) => [p.square, p]));
    const a = at.get(m[1]);
    const b = at.get(m[2]);
    return !!(a && b && a.colour !== b.colour);
  },

  short(text) {
    const merge = parseMerge(text);
    return merge ? `${merge.letter}@${merge.target}` : text.replace('-', '–');
  },

  label(text) {
    const merge = parseMerge(text);
    return merge ? `Merge ${merge.blanks.length} Blanks into a ${kelasuName(merge.letter)} on ${merge.target}` : text.replace('-', '→');
  },

  now(board, ctx = {}) {
    if (!board || board.energy === undefined || ctx.over) return null;
    return h('div', { class: 'kelasu-now' }, `${capitalised(board.to_act || 'you')} has `, h('b', { 'data-energy': '' }, String(board.energy)), ` Energy left this turn`,
      board.spent && board.spent.length ? h('span', { class: 'muted' }, ` · spent: ${board.spent.join(', ')}`) : '');
  },

  panel(board) {
    if (!board || board.energy === undefined) return null;
    const stones = board.stones || {};
    return h('div', { class: 'info-box' }, `Stones (Energy next turn): blue ${stones.blue ?? '?'}, red ${stones.red ?? '?'}`);
  },

  help: [
    'A turn is several actions: each moves one piece (1 Energy) or merges Blanks (1 Energy a Blank). Energy = your Stones at the start of the turn; the turn ends at 0.',
    'Drag a piece, or click it and then a target (dots: moves; corner marks: captures, conversions, merges).',
    'Merge: click the Blanks (any order; 2 make a Warrior, 4 a Runner or Diplomat, 5 a Champion…), then the Blank where the new piece stands; if several pieces fit, you are asked which.',
    'Faded pieces have acted this turn. The framed squares in the middle are the Victory Tiles.',
  ],
};

const capitalised = (word) => word[0].toUpperCase() + word.slice(1);
