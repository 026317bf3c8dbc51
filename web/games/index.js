// Which module draws which game. A game's renderer is `web/games/<game>.js`,
// where <game> is the variant id up to its first `-` (`lma-double` -> lma);
// it is loaded the first time a variant of that game is shown, so adding a
// game here is adding its file. Every module exports
// { draw(board, ctx) -> Element, tokens?(text, squares), panel?(board, ctx) }.

import generic from './generic.js';

const loaded = new Map();

/// The game a variant string belongs to (`lma-double`, `lunch:princess` -> lma, lunch).
export function gameOf(variant) {
  return String(variant || '').split(':')[0].split('-')[0];
}

/// Loads the renderers of these variants (a game without one is drawn as text).
export async function loadRenderers(variants) {
  const games = [...new Set(variants.map(gameOf))].filter((game) => !loaded.has(game));
  await Promise.all(games.map(async (game) => {
    if (!/^[a-z0-9]+$/.test(game)) {
      loaded.set(game, generic);
      return;
    }
    try {
      loaded.set(game, (await import(`./${game}.js`)).default);
    } catch (error) {
      console.warn(`no renderer for ${game}, showing text`, error);
      loaded.set(game, generic);
    }
  }));
}

/// The renderer of a variant string, once loaded.
export function rendererFor(variant) {
  return loaded.get(gameOf(variant)) || generic;
}

/// Whether the variant's game has a renderer of its own (loaded).
export function hasOwnRenderer(variant) {
  const renderer = loaded.get(gameOf(variant));
  return !!renderer && renderer !== generic;
}

/// Draws defensively: a renderer that throws (a view shape it does not
/// know yet) falls back to the text view rather than breaking the page,
/// and tells `ctx.onError` (the page shows it to the browser tests).
export function drawBoard(variant, board, ctx) {
  const renderer = rendererFor(variant);
  try {
    return renderer.draw(board, ctx);
  } catch (error) {
    console.warn('renderer failed, showing text', error);
    if (ctx && ctx.onError) ctx.onError(error);
    return generic.draw(board, ctx);
  }
}
