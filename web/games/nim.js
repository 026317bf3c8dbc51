// Nim, the test game: a pile of stones. Board part of the view: {"stones": n}.

import { s } from '../dom.js';
import { Picture } from '../board.js';

export default {
  draw(board, ctx = {}) {
    const stones = (board && Number.isInteger(board.stones)) ? board.stones : 0;
    const perRow = 10;
    const rows = Math.max(1, Math.ceil(stones / perRow));
    const picture = new Picture(perRow * 10, rows * 10, ctx);
    for (let i = 0; i < stones; i++) {
      picture.decorate(s('circle', { cx: (i % perRow) * 10 + 5, cy: Math.floor(i / perRow) * 10 + 5, r: 4, fill: '#777', stroke: '#333', 'stroke-width': 0.5 }));
    }
    return picture.finish();
  },

  help: ['Take stones with the buttons beside the board; whoever takes the last stone wins.'],
};
