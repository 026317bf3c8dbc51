// Drawing a board, shared by the game renderers: an SVG in layers, so that
// what the player must see is never hidden by what stands on a square.
//
//   squares  the cells, each a <g data-square="name"> (what clicks hit)
//   marks    last move, selection, check: tints under the pieces
//   pieces   the pieces (pointer-transparent: clicks fall to the squares)
//   coords   coordinates
//   arrows   game marks drawn over pieces (Lunch Chess battles, holds)
//   hints    legal targets: a dot on an empty cell, a ring round a slot —
//            above everything, and each a click target of its own
//            (data-hint-for="name"). An occupied cell's corner marks are
//            painted in `marks`, under the piece, its badges (hit points)
//            and the coordinates, which they would hide; its click target
//            stays here.

import { s } from './dom.js';
import DRAWING from './drawing.js';

/// The board's colours (drawing.js: the rules pages' diagrams use them too).
export const COLOURS = DRAWING.board;

/// A narrow screen (a phone), as the page's style sheet says it: boards
/// may be drawn otherwise there (`ctx.narrow`), and again when it changes.
export const NARROW = typeof window !== 'undefined' && window.matchMedia
  ? window.matchMedia('(max-width: 760px)')
  : { matches: false, addEventListener() {} };

/// File letters a, b, c...
export const fileName = (i) => String.fromCharCode(97 + i);

/// A board picture being drawn. `ctx.highlights` holds sets of cell names:
/// `selected`, `targets`, `last`, `check`; `ctx.small` draws a thumbnail
/// (no coordinates); `ctx.dragging` fades the piece being dragged.
export class Picture {
  constructor(width, height, ctx = {}) {
    this.ctx = ctx;
    this.hl = ctx.highlights || {};
    this.svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'board-svg', xmlns: 'http://www.w3.org/2000/svg', role: 'img', 'data-aspect': (width / height).toFixed(4) });
    this.layers = {};
    for (const name of ['squares', 'marks', 'pieces', 'coords', 'arrows', 'hints']) {
      this.layers[name] = s('g', { class: `layer-${name}`, 'pointer-events': name === 'squares' || name === 'hints' ? null : 'none' });
      this.svg.append(this.layers[name]);
    }
    this.cells = new Map();
  }

  /// A square cell: its clickable rect and the marks under its piece.
  square(name, x, y, size, fill, extra = {}) {
    const g = s('g', { 'data-square': name, class: 'square' });
    g.append(s('rect', { x, y, width: size, height: extra.height || size, fill, ...(extra.stroke ? { stroke: extra.stroke, 'stroke-width': extra.strokeWidth || 0.3 } : {}) }));
    this.layers.squares.append(g);
    const cell = { name, shape: 'square', x, y, w: size, h: extra.height || size, occupied: !!extra.occupied };
    this.cells.set(name, cell);
    this.marksFor(cell);
    return cell;
  }

  /// A round cell (a Lichen slot) centred at (cx, cy).
  slot(name, cx, cy, r, extra = {}) {
    const g = s('g', { 'data-square': name, class: 'slot' });
    g.append(s('circle', { cx, cy, r, fill: extra.fill || 'rgba(255,255,255,0.25)', stroke: extra.stroke || '#4a4a4a', 'stroke-width': r * 0.18 }));
    this.layers.squares.append(g);
    const cell = { name, shape: 'circle', cx, cy, r, occupied: !!extra.occupied };
    this.cells.set(name, cell);
    return cell;
  }

  /// Marks a cell as holding something (a capture, not a move, goes there).
  occupy(name) {
    const cell = this.cells.get(name);
    if (cell) cell.occupied = true;
  }

  marksFor(cell) {
    const { x, y, w, h, name } = cell;
    const hl = this.hl;
    if (hl.last && hl.last.has(name)) this.layers.marks.append(s('rect', { x, y, width: w, height: h, fill: COLOURS.last, class: 'mark-last' }));
    if (hl.selected && hl.selected.has(name)) this.layers.marks.append(s('rect', { x, y, width: w, height: h, fill: COLOURS.selected, class: 'mark-selected' }));
    if (hl.check && hl.check.has(name)) {
      // A red glow from the centre of the king's square.
      const cx = x + w / 2;
      const cy = y + h / 2;
      const g = s('g', { class: 'mark-check' });
      for (const [r, o] of [[0.5, 0.25], [0.4, 0.35], [0.3, 0.5], [0.2, 0.6]]) g.append(s('circle', { cx, cy, r: w * r, fill: `rgba(230, 20, 20, ${o})` }));
      this.layers.marks.append(g);
    }
  }

  /// Places a drawn piece on cell `name` (it is dragged with the cell).
  piece(name, element) {
    element.setAttribute('data-piece-at', name);
    if (this.ctx.dragging === name) element.setAttribute('opacity', '0.3');
    this.occupy(name);
    this.layers.pieces.append(element);
    return element;
  }

  /// Anything drawn over a cell that is not its piece (badges, stacks).
  decorate(element) {
    this.layers.pieces.append(element);
    return element;
  }

  /// A coordinate label.
  coord(x, y, text, attrs = {}) {
    if (this.ctx.small) return null;
    const t = s('text', { x, y, class: 'coord', 'data-coord': text, 'font-family': COLOURS.coordFont, 'font-weight': 600, text, ...attrs });
    this.layers.coords.append(t);
    return t;
  }

  /// Coordinates inside the edge cells of a rectangular grid, as lichess:
  /// ranks in the first column's cells (top left), files in the bottom
  /// row's (bottom right), each in the colour of the other square shade.
  edgeCoords(cells, size, isLight, ink = { onLight: COLOURS.dark, onDark: COLOURS.light }, fontScale = 0.18) {
    const fill = (c) => (isLight(c) ? ink.onLight : ink.onDark);
    const font = size * fontScale;
    for (const c of cells) {
      if (c.rankLabel !== undefined) this.coord(c.x + size * 0.05, c.y + size * 0.03 + font, c.rankLabel, { 'font-size': font, fill: fill(c) });
      if (c.fileLabel !== undefined) this.coord(c.x + size * 0.95, c.y + size * 0.95, c.fileLabel, { 'font-size': font, 'text-anchor': 'end', fill: fill(c) });
    }
  }

  arrow(from, to, colour = COLOURS.arrow) {
    const a = this.cells.get(from);
    const b = this.cells.get(to);
    if (!a || !b) return;
    const [x1, y1] = centre(a);
    const [x2, y2] = centre(b);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const w = (a.w || a.r * 2) * 0.14;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const tipX = x2 - ux * w * 1.5;
    const tipY = y2 - uy * w * 1.5;
    const head = w * 2.2;
    const bx = tipX - ux * head;
    const by = tipY - uy * head;
    this.layers.arrows.append(
      s('g', { class: 'arrow', opacity: 0.85 },
        s('line', { x1: x1 + ux * w, y1: y1 + uy * w, x2: bx, y2: by, stroke: colour, 'stroke-width': w, 'stroke-linecap': 'round' }),
        s('path', { d: `M${tipX} ${tipY}L${bx - uy * head * 0.6} ${by + ux * head * 0.6}L${bx + uy * head * 0.6} ${by - ux * head * 0.6}Z`, fill: colour })),
    );
  }

  /// Draws the legal targets above everything and returns the <svg>.
  finish() {
    const targets = this.hl.targets || new Set();
    for (const name of targets) {
      const cell = this.cells.get(name);
      if (!cell) continue;
      this.layers.hints.append(hint(cell));
      if (cell.shape !== 'circle' && cell.occupied) this.layers.marks.append(cornerMarks(cell));
    }
    return this.svg;
  }
}

function centre(cell) {
  return cell.shape === 'circle' ? [cell.cx, cell.cy] : [cell.x + cell.w / 2, cell.y + cell.h / 2];
}

/// One legal target: what it looks like depends on what the cell holds.
/// The transparent area is what the pointer hits, so a click (or a drop)
/// on a hint is a click on its cell.
function hint(cell) {
  const g = s('g', { class: `hint ${cell.occupied ? 'hint-occupied' : 'hint-empty'}`, 'data-hint-for': cell.name });
  if (cell.shape === 'circle') {
    const { cx, cy, r } = cell;
    g.append(s('circle', { cx, cy, r: r * 1.55, fill: 'transparent', class: 'hint-area' }));
    g.append(s('circle', { cx, cy, r: r * 1.3, fill: 'none', stroke: COLOURS.hint, 'stroke-width': r * 0.45, class: 'hint-mark' }));
    return g;
  }
  const { x, y, w, h } = cell;
  g.append(s('rect', { x, y, width: w, height: h, fill: 'transparent', class: 'hint-area' }));
  if (!cell.occupied) g.append(s('circle', { cx: x + w / 2, cy: y + h / 2, r: Math.min(w, h) * 0.16, fill: COLOURS.hint, class: 'hint-mark' }));
  return g;
}

/// Four corner triangles marking an occupied target: the piece stays
/// visible between them.
function cornerMarks(cell) {
  const { x, y, w, h, name } = cell;
  const k = Math.min(w, h) * 0.3;
  const d = [
    `M${x} ${y}h${k}L${x} ${y + k}Z`,
    `M${x + w} ${y}h${-k}L${x + w} ${y + k}Z`,
    `M${x} ${y + h}h${k}L${x} ${y + h - k}Z`,
    `M${x + w} ${y + h}h${-k}L${x + w} ${y + h - k}Z`,
  ].join('');
  return s('path', { d, fill: COLOURS.hint, class: 'hint-mark hint-corners', 'data-corners-for': name });
}

/// A rectangular board of `files` × `ranks` squares named
/// `${prefix}${file}${rank}` (rank 1 at the bottom, at the top when
/// flipped), with coordinates in the edge squares. `pieceAt(name)` draws
/// the piece of a square (or returns null). Returns the cells.
export function grid(picture, { files, ranks, x0 = 0, y0 = 0, size = 10, prefix = '', flip = false, pieceAt, shade, colours = COLOURS }) {
  const cells = [];
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const col = flip ? files - 1 - f : f;
      const row = flip ? r : ranks - 1 - r;
      const x = x0 + col * size;
      const y = y0 + row * size;
      const name = `${prefix}${fileName(f)}${r + 1}`;
      const light = shade ? shade(f, r) : (f + r) % 2 === 1;
      const cell = picture.square(name, x, y, size, light ? colours.light : colours.dark);
      cell.light = light;
      if (col === 0) cell.rankLabel = String(r + 1);
      if (row === ranks - 1) cell.fileLabel = fileName(f);
      const p = pieceAt && pieceAt(name, x, y, size);
      if (p) picture.piece(name, p);
      cells.push(cell);
    }
  }
  picture.edgeCoords(cells, size, (c) => c.light);
  return cells;
}
