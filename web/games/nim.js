// Nim, the test game: a pile of stones. Board part of the view: {"stones": n}.

import { s } from '../dom.js';
import { svg } from '../board.js';

export default {
  draw(board) {
    const stones = (board && Number.isInteger(board.stones)) ? board.stones : 0;
    const perRow = 10;
    const rows = Math.max(1, Math.ceil(stones / perRow));
    const pic = svg(perRow * 10, rows * 10);
    for (let i = 0; i < stones; i++) {
      pic.append(s('circle', { cx: (i % perRow) * 10 + 5, cy: Math.floor(i / perRow) * 10 + 5, r: 4, fill: '#777', stroke: '#333', 'stroke-width': 0.5 }));
    }
    return pic;
  },
};
