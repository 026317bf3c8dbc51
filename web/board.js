// Drawing helpers shared by the game renderers: square grids, pieces as
// letters in discs (crisp at any size), highlight layers.

import { s } from './dom.js';

export const COLOURS = {
  light: '#f0d9b5',
  dark: '#b58863',
  selected: 'rgba(20, 85, 200, 0.45)',
  target: 'rgba(20, 85, 200, 0.35)',
  last: 'rgba(205, 210, 60, 0.55)',
  check: 'rgba(220, 30, 30, 0.55)',
};

// Unicode chess glyphs by lower-case letter (solid shapes, coloured by fill).
const GLYPHS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };

/// A piece: a glyph when the letter is a chess piece, otherwise the letter
/// in a disc. `side` is 'first' | 'second' (light / dark pieces).
export function piece(x, y, size, letter, side, extra = {}) {
  const g = s('g', { class: `piece ${side}`, 'pointer-events': 'none' });
  const l = String(letter || '?');
  const lower = l.toLowerCase();
  const fill = side === 'first' ? '#fafafa' : '#222';
  const stroke = side === 'first' ? '#222' : '#eee';
  if (GLYPHS[lower] && !extra.disc) {
    g.append(
      s('text', {
        x: x + size / 2, y: y + size * 0.53, 'font-size': size * 0.82, 'text-anchor': 'middle',
        'dominant-baseline': 'central', fill, stroke, 'stroke-width': size * 0.03, 'paint-order': 'stroke',
        class: 'glyph', text: GLYPHS[lower],
      }),
    );
  } else {
    g.append(s('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.38, fill, stroke, 'stroke-width': size * 0.04 }));
    g.append(
      s('text', {
        x: x + size / 2, y: y + size / 2, 'font-size': size * (l.length > 1 ? 0.32 : 0.45), 'text-anchor': 'middle',
        'dominant-baseline': 'central', fill: stroke, 'font-weight': 'bold', 'font-family': 'system-ui, sans-serif', text: l.toUpperCase(),
      }),
    );
  }
  if (extra.badge !== undefined && extra.badge !== null) {
    g.append(s('circle', { cx: x + size * 0.82, cy: y + size * 0.18, r: size * 0.16, fill: '#c0392b' }));
    g.append(s('text', { x: x + size * 0.82, y: y + size * 0.185, 'font-size': size * 0.2, fill: '#fff', 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-family': 'system-ui, sans-serif', text: String(extra.badge) }));
  }
  if (extra.faded) g.setAttribute('opacity', '0.4');
  return g;
}

/// A clickable square with its highlight: `name` goes in data-square.
export function square(x, y, size, name, fill, ctx) {
  const g = s('g', { 'data-square': name, class: 'square' });
  g.append(s('rect', { x, y, width: size, height: size, fill }));
  const hl = ctx && ctx.highlights;
  if (hl) {
    if (hl.last && hl.last.has(name)) g.append(s('rect', { x, y, width: size, height: size, fill: COLOURS.last }));
    if (hl.selected && hl.selected.has(name)) g.append(s('rect', { x, y, width: size, height: size, fill: COLOURS.selected }));
    if (hl.check && hl.check.has(name)) g.append(s('rect', { x, y, width: size, height: size, fill: COLOURS.check }));
    if (hl.targets && hl.targets.has(name)) {
      g.append(s('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.17, fill: COLOURS.target, class: 'target-dot' }));
    }
  }
  return g;
}

/// File letters a, b, c...
export const fileName = (i) => String.fromCharCode(97 + i);

/// A rectangular board: squares named `${prefix}${file}${rank}`, rank 1 at
/// the bottom (top when flipped). `pieceAt(name)` returns {letter, side, ...}
/// or null. Returns the <g> and its size.
export function grid({ files, ranks, x0 = 0, y0 = 0, size = 10, prefix = '', flip = false, ctx, pieceAt, shade, label = true }) {
  const g = s('g', { class: 'grid' });
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const col = flip ? files - 1 - f : f;
      const row = flip ? r : ranks - 1 - r;
      const x = x0 + col * size;
      const y = y0 + row * size;
      const name = `${prefix}${fileName(f)}${r + 1}`;
      const light = shade ? shade(f, r) : (f + r) % 2 === 1;
      const sq = square(x, y, size, name, light ? COLOURS.light : COLOURS.dark, ctx);
      const p = pieceAt && pieceAt(name, f, r);
      if (p) sq.append(piece(x, y, size, p.letter, p.side, p));
      g.append(sq);
      if (label && f === (flip ? files - 1 : 0)) {
        g.append(s('text', { x: x + size * 0.04, y: y + size * 0.2, 'font-size': size * 0.17, fill: light ? COLOURS.dark : COLOURS.light, 'pointer-events': 'none', text: String(r + 1) }));
      }
      if (label && r === (flip ? ranks - 1 : 0)) {
        g.append(s('text', { x: x + size * 0.96, y: y + size * 0.95, 'font-size': size * 0.17, 'text-anchor': 'end', fill: light ? COLOURS.dark : COLOURS.light, 'pointer-events': 'none', text: fileName(f) }));
      }
    }
  }
  return g;
}

/// An <svg> with a viewBox, scaled by CSS.
export function svg(width, height, ...children) {
  return s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'board-svg', xmlns: 'http://www.w3.org/2000/svg', role: 'img' }, ...children);
}

/// Reads a FEN-like board text (`rnbqkbnr/pppppppp/8/...`), top rank first,
/// into a map square -> letter. Digits are runs of empty squares.
export function readFenBoard(text, prefix = '') {
  const map = new Map();
  const rows = String(text).split('/');
  const ranks = rows.length;
  let files = 0;
  rows.forEach((row, i) => {
    let f = 0;
    const rank = ranks - i;
    for (let k = 0; k < row.length; k++) {
      const c = row[k];
      if (c >= '0' && c <= '9') {
        let n = c.charCodeAt(0) - 48;
        while (k + 1 < row.length && row[k + 1] >= '0' && row[k + 1] <= '9') {
          k++;
          n = n * 10 + (row.charCodeAt(k) - 48);
        }
        f += n;
      } else {
        map.set(`${prefix}${fileName(f)}${rank}`, c);
        f++;
      }
    }
    files = Math.max(files, f);
  });
  return { map, files, ranks };
}
