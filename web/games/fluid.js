// Fluid Chess: up to two pieces on a square. Board part of the view
// (crates/games/src/fluid/view.rs): { files, ranks, squares: {a1: [{colour,
// letter, kind}], ...}, labels, castling, en_passant, promotions }.
// Moves: `<unit><from><to>[x<captured>][=<promotion>]`: the squares are
// clicked, the unit (one piece or the pair), the capture and the promotion
// are chosen from a list when several moves share the squares.

import { s } from '../dom.js';
import { svg, square, piece, fileName } from '../board.js';

const KIND = { K: 'King', Q: 'Queen', R: 'Rook', B: 'Bishop', N: 'Knight', P: 'Pawn' };

export default {
  draw(board, ctx = {}) {
    const files = (board.files || []).length || 8;
    const ranks = (board.ranks || []).length || 8;
    const size = 10;
    const pic = svg(files * size, ranks * size);
    const flip = !!ctx.flip;
    const squares = board.squares || {};
    for (let r = 0; r < ranks; r++) {
      for (let f = 0; f < files; f++) {
        const name = `${fileName(f)}${r + 1}`;
        const col = flip ? files - 1 - f : f;
        const row = flip ? r : ranks - 1 - r;
        const x = col * size;
        const y = row * size;
        const cell = square(x, y, size, name, (f + r) % 2 === 1 ? '#f0d9b5' : '#b58863', ctx);
        const here = squares[name] || [];
        if (here.length === 1) {
          const p = here[0];
          cell.append(piece(x, y, size, p.letter, p.colour === 'white' ? 'first' : 'second'));
        } else if (here.length >= 2) {
          // Two pieces: each at half size, side by side, so both stay legible.
          here.slice(0, 2).forEach((p, i) => {
            cell.append(piece(x + (i === 0 ? -0.02 : 0.42) * size, y + (i === 0 ? 0.05 : 0.35) * size, size * 0.6, p.letter, p.colour === 'white' ? 'first' : 'second'));
          });
        }
        if (r === (flip ? ranks - 1 : 0) && !ctx.small) cell.append(s('text', { x: x + size * 0.96, y: y + size * 0.95, 'font-size': 1.7, 'text-anchor': 'end', fill: '#555', 'pointer-events': 'none', text: fileName(f) }));
        if (f === (flip ? files - 1 : 0) && !ctx.small) cell.append(s('text', { x: x + 0.4, y: y + 1.9, 'font-size': 1.7, fill: '#555', 'pointer-events': 'none', text: String(r + 1) }));
        pic.append(cell);
      }
    }
    return pic;
  },

  tokens(text) {
    const m = /^[A-Z]{1,2}([a-h][1-8])([a-h][1-8])/.exec(text);
    return m ? [m[1], m[2]] : [];
  },

  label(text) {
    const m = /^([A-Z]{1,2})([a-h][1-8])([a-h][1-8])(?:x([A-Z]{1,2}))?(?:=([A-Z]{1,2}))?$/.exec(text);
    if (!m) return text;
    const unit = m[1].split('').map((c) => KIND[c] || c).join(' + ');
    let out = `${unit} ${m[2]}→${m[3]}`;
    if (m[4]) out += `, capturing the ${m[4].split('').map((c) => KIND[c] || c).join(' + ')}`;
    if (m[5]) out += `, promoting to ${m[5].split('').map((c) => KIND[c] || c).join(' + ')}`;
    return out;
  },
};
