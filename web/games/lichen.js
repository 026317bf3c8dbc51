// lichen: drawn from the game's view_json (see its module doc). Until the game's
// view is known this falls back to the text view.

import generic from './generic.js';

export default {
  draw(board, ctx) {
    return generic.draw(board, ctx);
  },
};
