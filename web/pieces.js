// Menagerie's own piece set, drawn here as SVG paths (no font, no image
// file): the chess men, the Cardinal (LMA) and the Princess (Lunch Chess),
// the Kelasu pieces and Blanks, Lichen's stones, tokens and kingstone
// crown. Every piece is drawn in a 100×100 box and scaled into its square,
// so it is crisp at any size and the same on every machine.
//
// A drawing is a list of parts: `body` parts are filled with the piece's
// colour and outlined, `line` parts are strokes in the detail colour (dark
// on light pieces, light on dark ones), `dot` parts are filled with it.

import { s } from './dom.js';
import DRAWING from './drawing.js';

/// The chess men and the two extra chess pieces (`c` the Cardinal: a knight
/// wearing the bishop's mitre; `i` the Princess: a tiara of three), by
/// lower-case letter, and their names.
const CHESS = DRAWING.chess.parts;
const CHESS_NAMES = DRAWING.chess.names;

/// Fill and detail colours of a side.
const SIDES = DRAWING.sides;

function part(spec, colours, width) {
  const common = { 'stroke-linejoin': 'round', 'stroke-linecap': 'round' };
  if (spec.body) return s('path', { ...common, d: spec.body, fill: colours.fill, stroke: colours.stroke, 'stroke-width': width });
  if (spec.circle) {
    const [cx, cy, r] = spec.circle;
    return s('circle', { cx, cy, r, fill: colours.fill, stroke: colours.stroke, 'stroke-width': width });
  }
  if (spec.line) return s('path', { ...common, d: spec.line, fill: 'none', stroke: colours.detail, 'stroke-width': width });
  if (spec.dot) {
    const [cx, cy, r] = spec.dot;
    return s('circle', { cx, cy, r, fill: colours.detail });
  }
  if (spec.emblem) return s('path', { ...common, d: spec.emblem, fill: colours.detail, stroke: 'none' });
  if (spec.emblemLine) return s('path', { ...common, d: spec.emblemLine, fill: 'none', stroke: colours.detail, 'stroke-width': spec.width || width });
  if (spec.emblemCut) return s('path', { ...common, d: spec.emblemCut, fill: colours.fill, stroke: 'none' });
  throw new Error('unknown piece part');
}

/// A drawing placed in the box (x, y, size): a <g> with a tooltip.
function place(parts, colours, x, y, size, title, strokeWidth = 3.2) {
  const g = s('g', { class: 'piece', transform: `translate(${x} ${y}) scale(${size / 100})` });
  if (title) g.append(s('title', { text: title }));
  for (const spec of parts) g.append(part(spec, colours, strokeWidth));
  return g;
}

/// A chess piece (`k q r b n p c i`, either case) of `colour` (white/black).
export function chessPiece(letter, colour, x, y, size) {
  const key = String(letter).toLowerCase();
  const parts = CHESS[key];
  if (!parts) throw new Error(`no chess piece ${letter}`);
  return place(parts, SIDES[colour] || SIDES.white, x, y, size, `${colour} ${CHESS_NAMES[key]}`);
}

export const chessName = (letter) => CHESS_NAMES[String(letter).toLowerCase()] || String(letter);

// ---------------------------------------------------------------- Kelasu

/// Kelasu's pieces by letter: discs in the side's colour with an emblem
/// (Blanks plain and smaller; Stones faceted gems that never move).
const KELASU = DRAWING.kelasu.parts;
const KELASU_NAMES = DRAWING.kelasu.names;

/// A Kelasu piece (`B W R D C G S`) of `colour` (blue/red).
export function kelasuPiece(letter, colour, x, y, size) {
  const key = String(letter).toUpperCase();
  const parts = KELASU[key];
  if (!parts) throw new Error(`no Kelasu piece ${letter}`);
  return place(parts, SIDES[colour] || SIDES.blue, x, y, size, `${colour} ${KELASU_NAMES[key]}`, 3);
}

export const kelasuName = (letter) => KELASU_NAMES[String(letter).toUpperCase()] || String(letter);

// ---------------------------------------------------------------- Lichen

const LICHEN = DRAWING.lichen;

/// A Lichen stone (the grey pebble), with the crown of a kingstone's owner.
export function lichenStone(x, y, size, kingstone) {
  const g = s('g', { class: 'piece stone', transform: `translate(${x} ${y}) scale(${size / 100})` });
  g.append(s('title', { text: kingstone ? `${kingstone}'s kingstone` : 'stone' }));
  g.append(s('path', { d: LICHEN.pebble, fill: LICHEN.stone.fill, stroke: LICHEN.stone.stroke, 'stroke-width': 3 }));
  g.append(s('path', { d: LICHEN.shine, fill: 'none', stroke: LICHEN.stone.shine, 'stroke-width': 5, 'stroke-linecap': 'round' }));
  if (kingstone) {
    const c = SIDES[kingstone] || SIDES.white;
    g.append(s('path', { d: LICHEN.crown, fill: c.fill, stroke: c.stroke, 'stroke-width': 3.5, 'stroke-linejoin': 'round' }));
    g.append(s('path', { d: LICHEN.crownBase, fill: c.fill, stroke: c.stroke, 'stroke-width': 3.5, 'stroke-linejoin': 'round' }));
  }
  return g;
}

/// A Lichen token of `colour` centred at (cx, cy).
export function lichenToken(colour, cx, cy, r) {
  const c = SIDES[colour] || SIDES.white;
  const g = s('g', { class: 'piece token' });
  g.append(s('circle', { cx, cy, r, fill: c.fill, stroke: c.stroke, 'stroke-width': r * 0.22 }));
  g.append(s('circle', { cx: cx - r * 0.3, cy: cy - r * 0.3, r: r * 0.28, fill: colour === 'black' ? '#555' : '#fff', opacity: 0.8 }));
  return g;
}
