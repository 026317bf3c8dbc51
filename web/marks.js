// Marks drawn over a board: cells framed and an arrow from the first to
// the last (a lesson's hint, a puzzle's wrong try, a review's better move).

import { s } from './dom.js';

/// Frames `cells` of a drawn board in `colour` (an arrow from the first to
/// the last when there are two or more). `options`: a square's `fill`, the
/// attributes that name the marks for tests (`cellAttr`, `arrowAttr`), their
/// classes and the arrow's width as a share of a cell.
export function frameCells(svg, cells, colour, options = {}) {
  const { fill = 'none', cellAttr = 'data-marked-cell', arrowAttr = 'data-marked-arrow', markClass = 'mark', arrowClass = 'arrow', arrowWidth = 0.12 } = options;
  const marks = svg.querySelector('.layer-marks') || svg;
  const centres = [];
  for (const name of cells) {
    const shape = svg.querySelector(`[data-square="${CSS.escape(name)}"] > rect, [data-square="${CSS.escape(name)}"] > circle`);
    if (!shape) continue;
    if (shape.tagName === 'circle') {
      const [cx, cy, r] = ['cx', 'cy', 'r'].map((a) => Number(shape.getAttribute(a)));
      centres.push([cx, cy, r * 2]);
      marks.append(s('circle', { cx, cy, r: r * 1.1, fill: 'none', stroke: colour, 'stroke-width': r * 0.2, class: markClass, [cellAttr]: name }));
    } else {
      const [x, y, w, hgt] = ['x', 'y', 'width', 'height'].map((a) => Number(shape.getAttribute(a)));
      centres.push([x + w / 2, y + hgt / 2, Math.min(w, hgt)]);
      marks.append(s('rect', { x: x + w * 0.05, y: y + hgt * 0.05, width: w * 0.9, height: hgt * 0.9, fill, stroke: colour, 'stroke-width': w * 0.08, class: markClass, [cellAttr]: name }));
    }
  }
  const arrows = svg.querySelector('.layer-arrows');
  if (!arrows || centres.length < 2) return;
  const [x1, y1, size] = centres[0];
  const [x2, y2] = centres[centres.length - 1];
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const w = size * arrowWidth;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const head = w * 2.4;
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  arrows.append(s('g', { class: arrowClass, [arrowAttr]: '' },
    s('line', { x1: x1 + ux * w, y1: y1 + uy * w, x2: bx, y2: by, stroke: colour, 'stroke-width': w, 'stroke-linecap': 'round' }),
    s('path', { d: `M${x2} ${y2}L${bx - uy * head * 0.6} ${by + ux * head * 0.6}L${bx + uy * head * 0.6} ${by - ux * head * 0.6}Z`, fill: colour })));
}

