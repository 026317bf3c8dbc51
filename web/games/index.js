// Which module draws which variant. Every module exports
// { draw(board, ctx) -> Element, tokens?(text, squares), panel?(board, ctx) }.

import generic from './generic.js';
import nim from './nim.js';
import lma from './lma.js';
import fluid from './fluid.js';
import lichen from './lichen.js';
import kelasu from './kelasu.js';
import lunch from './lunch.js';

const BY_ID = { nim, lma, fluid, lichen, kelasu, lunch };

/// The renderer of a variant string (`lma-double`, `lunch:princess`).
export function rendererFor(variant) {
  const id = String(variant || '').split(':')[0];
  const game = id.split('-')[0];
  return BY_ID[game] || generic;
}

/// Draws defensively: a renderer that throws (a view shape it does not
/// know yet) falls back to the text view rather than breaking the page.
export function drawBoard(variant, board, ctx) {
  const renderer = rendererFor(variant);
  try {
    return renderer.draw(board, ctx);
  } catch (error) {
    console.warn('renderer failed, showing text', error);
    return generic.draw(board, ctx);
  }
}
