// Lilliputian Monochromatic Alice Chess: two 6×7 boards side by side.
// Board part of the view (crates/games/src/lma/view.rs): { boards: [{board:
// 1, squares: [{square: "1a7", piece: "r" | null, dark: bool}, ...]}, ...],
// castling }, beside the common keys of docs/api.md.
// Moves: `2b1c3` = from 2b1 to c3; the piece lands on the twin square of
// the other board when c3 has the other colour than 2b1 (drawn, not judged:
// the server checks every move).

import { s } from '../dom.js';
import { svg, square, piece } from '../board.js';

const FILES = 'abcdef';

function squaresOf(board) {
  const all = new Map();
  for (const b of board.boards || []) for (const sq of b.squares || []) all.set(sq.square, sq);
  return all;
}

export default {
  draw(board, ctx = {}) {
    const size = 10;
    const gap = 6;
    const boards = board.boards || [];
    const width = boards.length * 6 * size + (boards.length - 1) * gap;
    const pic = svg(width, 7 * size + (ctx.small ? 0 : 5));
    const flip = !!ctx.flip;
    boards.forEach((b, i) => {
      // Board 1 on the left (right when flipped, as seen from the other side).
      const slot = flip ? boards.length - 1 - i : i;
      const x0 = slot * (6 * size + gap);
      for (const sq of b.squares || []) {
        const m = /^(\d)([a-f])(\d)$/.exec(sq.square);
        if (!m) continue;
        const f = FILES.indexOf(m[2]);
        const r = parseInt(m[3], 10) - 1;
        const col = flip ? 5 - f : f;
        const row = flip ? r : 6 - r;
        const x = x0 + col * size;
        const y = row * size;
        const cell = square(x, y, size, sq.square, sq.dark ? '#b58863' : '#f0d9b5', ctx);
        if (sq.piece) {
          const white = sq.piece === sq.piece.toUpperCase();
          const letter = sq.piece.toLowerCase() === 'c' ? 'C' : sq.piece;
          cell.append(piece(x, y, size, letter, white ? 'first' : 'second', { disc: sq.piece.toLowerCase() === 'c' }));
        }
        pic.append(cell);
      }
      if (!ctx.small) {
        pic.append(s('text', { x: x0 + 3 * size, y: 7 * size + 4, 'font-size': 3.2, 'text-anchor': 'middle', fill: '#666', text: `board ${b.board}` }));
      }
    });
    return pic;
  },

  /// `2b1c3` -> ["2b1", landing square]: the same board if c3 has the
  /// colour of b1, the other board otherwise.
  tokens(text, _squares, board) {
    const m = /^([12])([a-f][1-7])([a-f][1-7])/.exec(text);
    if (!m) return [];
    const all = squaresOf(board || {});
    const from = `${m[1]}${m[2]}`;
    const same = `${m[1]}${m[3]}`;
    const other = `${m[1] === '1' ? '2' : '1'}${m[3]}`;
    const a = all.get(from);
    const t = all.get(same);
    const landing = a && t && a.dark !== t.dark ? other : same;
    return [from, landing];
  },

  label(text) {
    const promo = /([qrc])$/.exec(text.length > 5 ? text : '');
    return promo ? `${text} (promote to ${{ q: 'Queen', r: 'Rook', c: 'Cardinal' }[promo[1]]})` : text;
  },
};
