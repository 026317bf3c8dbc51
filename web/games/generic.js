// The fallback renderer: any game whose view is not drawn by its own module
// is shown as its text (every move stays playable from the move buttons).

import { h } from '../dom.js';

export default {
  draw(board) {
    const text = board && typeof board.text === 'string' ? board.text : JSON.stringify(board, null, 1);
    return h('pre', { class: 'board-text' }, text);
  },
};
