// Fluid Chess: up to two pieces on a square. Board part of the view
// (crates/games/src/fluid/view.rs): { files, ranks, squares: {a1: [{colour,
// letter, kind}], ...}, labels, castling, en_passant, promotions }.
// Moves: `<unit><from><to>[x<captured>][=<promotion>]`: the squares are
// clicked (or the unit dragged), the unit (one piece or the pair), the
// capture and the promotion are chosen from a list when several moves
// share the squares.

import { s } from '../dom.js';
import { Picture, grid } from '../board.js';
import { chessPiece } from '../pieces.js';

const KIND = { K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn' };
const unitName = (letters) => (letters === 'BR' ? 'Queen (Bishop+Rook)' : letters.split('').map((c) => KIND[c] || c).join('+'));

/// The pieces of one square: a Bishop and Rook of one side are a Queen;
/// any other two stand side by side at a smaller size, both readable.
function drawSquare(here, x, y, size) {
  const g = s('g', { class: 'stack' });
  if (here.length === 1) {
    g.append(chessPiece(here[0].letter, here[0].colour, x, y, size));
  } else if (here.length >= 2) {
    const [a, b] = here;
    if (a.colour === b.colour && [a.letter, b.letter].sort().join('') === 'BR') {
      g.append(chessPiece('q', a.colour, x, y, size));
    } else {
      g.append(chessPiece(a.letter, a.colour, x - size * 0.02, y - size * 0.02, size * 0.64));
      g.append(chessPiece(b.letter, b.colour, x + size * 0.38, y + size * 0.38, size * 0.64));
    }
  }
  return g;
}

export default {
  draw(board, ctx = {}) {
    const files = (board.files || []).length || 8;
    const ranks = (board.ranks || []).length || 8;
    const size = 10;
    const picture = new Picture(files * size, ranks * size, ctx);
    const squares = board.squares || {};
    grid(picture, {
      files, ranks, size, flip: !!ctx.flip,
      pieceAt: (name, x, y) => ((squares[name] || []).length ? drawSquare(squares[name], x, y, size) : null),
    });
    return picture.finish();
  },

  tokens(text) {
    const m = /^[A-Z]{1,2}([a-h][1-8])([a-h][1-8])/.exec(text);
    return m ? [m[1], m[2]] : [];
  },

  kings(board, side) {
    return Object.entries(board.squares || {}).filter(([, here]) => here.some((p) => p.letter === 'K' && p.colour === side)).map(([sq]) => sq);
  },

  isCapture(text, before) {
    const m = /^[A-Z]{1,2}([a-h][1-8])([a-h][1-8])/.exec(text);
    if (!m || !before || !before.squares) return false;
    const mover = (before.squares[m[1]] || [])[0];
    return (before.squares[m[2]] || []).some((p) => mover && p.colour !== mover.colour);
  },

  short(text) {
    const m = /^([A-Z]{1,2})([a-h][1-8])([a-h][1-8])(.*)$/.exec(text);
    return m ? `${m[1] === 'P' ? '' : m[1]}${m[2]}–${m[3]}${m[4]}` : text;
  },

  label(text) {
    const m = /^([A-Z]{1,2})([a-h][1-8])([a-h][1-8])(?:x([A-Z]{1,2}))?(?:=([A-Z]{1,2}))?$/.exec(text);
    if (!m) return text;
    let out = `${unitName(m[1])} ${m[2]}→${m[3]}`;
    if (m[4]) out += `, taking the ${unitName(m[4])}`;
    if (m[5]) out += `, promoting to ${unitName(m[5])}`;
    return out;
  },

  help: [
    'Drag a piece, or click it and then a target. Dots are moves; corner marks are captures or joins (two of your pieces may share a square).',
    'A Queen is a Bishop and a Rook on one square: when both may move, or only one of them, you are asked which unit moves. You also choose which piece to take from a square of two.',
  ],
};
