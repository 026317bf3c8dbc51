// Lilliputian Monochromatic Alice Chess: two 6×7 boards side by side.
// Board part of the view (crates/games/src/lma/view.rs): { boards: [{board:
// 1, squares: [{square: "1a7", piece: "r" | null, dark: bool}, ...]}, ...],
// castling }, beside the common keys of docs/api.md.
// Moves: `2b1c3` = from 2b1 to c3; the piece lands on the twin square of
// the other board when c3 has the other colour than 2b1 (drawn, not judged:
// the server checks every move).

import { Picture, COLOURS, fileName } from '../board.js';
import { chessPiece } from '../pieces.js';

const SIZE = 10;
const GAP = 7;
const TOP = 4;
/// Between boards one above the other (each has its label above it).
const STACKED_GAP = 2;

function squaresOf(board) {
  const all = new Map();
  for (const b of board.boards || []) for (const sq of b.squares || []) all.set(sq.square, sq);
  return all;
}

const colourOf = (letter) => (letter === letter.toUpperCase() ? 'white' : 'black');

export default {
  /// Side by side; on a narrow screen (`ctx.narrow`: a phone) one above
  /// the other, so that the squares are a finger's width.
  draw(board, ctx = {}) {
    const boards = board.boards || [];
    const top = ctx.small ? 0 : TOP;
    const stacked = !!ctx.narrow && !ctx.small && boards.length > 1;
    const boardWidth = 6 * SIZE;
    const boardHeight = 7 * SIZE + top;
    const width = stacked ? boardWidth : boards.length * boardWidth + (boards.length - 1) * GAP;
    const height = stacked ? boards.length * boardHeight + (boards.length - 1) * STACKED_GAP : boardHeight;
    const picture = new Picture(width, height, ctx);
    const flip = !!ctx.flip;
    boards.forEach((b, i) => {
      // Board 1 on the left, or above (on the right, or below, when
      // flipped: as seen from the other side).
      const slot = flip ? boards.length - 1 - i : i;
      const x0 = stacked ? 0 : slot * (boardWidth + GAP);
      const y0 = stacked ? slot * (boardHeight + STACKED_GAP) : 0;
      const cells = [];
      for (const sq of b.squares || []) {
        const m = /^(\d)([a-f])(\d)$/.exec(sq.square);
        if (!m) continue;
        const f = m[2].charCodeAt(0) - 97;
        const r = parseInt(m[3], 10) - 1;
        const col = flip ? 5 - f : f;
        const row = flip ? r : 6 - r;
        const x = x0 + col * SIZE;
        const y = y0 + top + row * SIZE;
        const cell = picture.square(sq.square, x, y, SIZE, sq.dark ? COLOURS.dark : COLOURS.light);
        cell.light = !sq.dark;
        if (col === 0) cell.rankLabel = String(r + 1);
        if (row === 6) cell.fileLabel = fileName(f);
        cells.push(cell);
        if (sq.piece) picture.piece(sq.square, chessPiece(sq.piece, colourOf(sq.piece), x, y, SIZE));
      }
      picture.edgeCoords(cells, SIZE, (c) => c.light);
      picture.coord(x0 + 3 * SIZE, y0 + top - 1.2, `board ${b.board}`, { 'font-size': 2.6, 'text-anchor': 'middle', fill: '#666', 'font-weight': 500, 'data-coord': `board ${b.board}` });
    });
    return picture.finish();
  },

  /// `2b1c3` -> ["2b1", landing square]: the same board if c3 has the
  /// colour of b1, the other board otherwise. An off-colour capture may
  /// also be made by clicking the piece it takes (T on the mover's board),
  /// so that square is an alternative to the landing square.
  tokens(text, _squares, board) {
    const m = /^([12])([a-f][1-7])([a-f][1-7])/.exec(text);
    if (!m) return [];
    const all = squaresOf(board || {});
    const from = `${m[1]}${m[2]}`;
    const same = `${m[1]}${m[3]}`;
    const other = `${m[1] === '1' ? '2' : '1'}${m[3]}`;
    const a = all.get(from);
    const t = all.get(same);
    if (!a || !t || a.dark === t.dark) return [from, same];
    const capture = t.piece && a.piece && colourOf(t.piece) !== colourOf(a.piece);
    return [from, capture ? [other, same] : other];
  },

  kings(board, side) {
    const king = side === 'white' ? 'K' : 'k';
    return [...squaresOf(board).values()].filter((sq) => sq.piece === king).map((sq) => sq.square);
  },

  isCapture(text, before) {
    const m = /^([12])([a-f][1-7])([a-f][1-7])/.exec(text);
    const t = m && squaresOf(before || {}).get(`${m[1]}${m[3]}`);
    return !!(t && t.piece);
  },

  short(text) {
    return text.length >= 5 ? `${text.slice(0, 3)}–${text.slice(3, 5)}${text.length > 5 ? `=${text[5].toUpperCase()}` : ''}` : text;
  },

  label(text) {
    const promo = /^[12][a-f][1-7][a-f][1-7]([qrc])$/.exec(text);
    const base = `${text.slice(0, 3)}→${text.slice(3, 5)}`;
    return promo ? `${base}, promoting to ${{ q: 'Queen', r: 'Rook', c: 'Cardinal' }[promo[1]]}` : base;
  },

  help: [
    'Drag a piece, or click it and then a target. Dots are moves, corner marks captures.',
    'A move that ends on a square of the other colour lands on the twin square of the other board: the dot shows where the piece will land. An off-colour capture can be made by dropping on the piece it takes.',
    'Cardinals (C) move as a Bishop or a Knight. Pawns promote to a Queen, Rook or Cardinal: you are asked which.',
  ],
};
