// A rating history drawn as plain SVG (no chart library): time along the
// bottom, rating up the side, one dot per day with a rated game (its title
// says the date and the rating), gridlines at round ratings. Drawn at the
// width of its box, and again when that width changes (a phone turned).

import { s, clear } from './dom.js';

const DAY = 86400000;

/** The points of `/api/user/<name>/rating-history` (`[year, month0, day,
 * rating]`) as `{ time, rating }`, oldest first. */
export function historyPoints(points) {
  return (points || [])
    .filter((p) => Array.isArray(p) && p.length >= 4 && p.every(Number.isFinite))
    .map(([year, month0, day, rating]) => ({ time: Date.UTC(year, month0, day), rating }))
    .sort((a, b) => a.time - b.time);
}

/** A step between gridlines that gives about four of them over `span`. */
export function gridStep(span) {
  for (const step of [10, 20, 25, 50, 100, 200, 250, 500, 1000]) {
    if (span / step <= 5) return step;
  }
  return 2000;
}

const dateLabel = (time) => new Date(time).toLocaleDateString(undefined, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });

/** Draws the history `points` (`[year, month0, day, rating]`) into `box`
 * and keeps it drawn at the box's width. */
export function ratingChart(box, points, { height = 180 } = {}) {
  const data = historyPoints(points);
  box.classList.add('rating-chart');
  box.setAttribute('data-chart-points', data.length);
  let width = 0;
  const draw = () => {
    const now = Math.floor(box.clientWidth);
    if (!now || now === width) return;
    width = now;
    clear(box).append(chartSvg(data, width, height));
  };
  draw();
  if (typeof ResizeObserver === 'function') new ResizeObserver(draw).observe(box);
  else addEventListener('resize', draw);
  return box;
}

function chartSvg(data, width, height) {
  const left = 40, right = 10, top = 10, bottom = 22;
  const svg = s('svg', { class: 'chart-svg', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  if (!data.length) {
    svg.setAttribute('aria-label', 'no rated games yet');
    svg.append(s('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'chart-empty' }, 'No rated games yet'));
    return svg;
  }
  const ratings = data.map((p) => p.rating);
  let low = Math.min(...ratings), high = Math.max(...ratings);
  // A flat history still gets some height around it.
  if (high - low < 40) { low -= 20; high += 20; }
  const step = gridStep(high - low);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  let first = data[0].time, last = data[data.length - 1].time;
  // One day alone is drawn in the middle of a week.
  if (last - first < DAY) { first -= 3 * DAY; last += 3 * DAY; }
  const x = (time) => left + ((time - first) / (last - first)) * (width - left - right);
  const y = (rating) => top + ((high - rating) / (high - low)) * (height - top - bottom);
  svg.setAttribute('aria-label', `rating from ${ratings[0]} to ${ratings[ratings.length - 1]}`);
  for (let r = low; r <= high; r += step) {
    svg.append(
      s('line', { x1: left, x2: width - right, y1: y(r), y2: y(r), class: 'chart-grid' }),
      s('text', { x: left - 5, y: y(r) + 4, 'text-anchor': 'end', class: 'chart-label' }, r));
  }
  svg.append(
    s('text', { x: left, y: height - 5, class: 'chart-label' }, dateLabel(data[0].time)),
    data.length > 1 ? s('text', { x: width - right, y: height - 5, 'text-anchor': 'end', class: 'chart-label' }, dateLabel(data[data.length - 1].time)) : null);
  const line = data.map((p, i) => `${i ? 'L' : 'M'}${x(p.time).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  svg.append(s('path', { d: line, class: 'chart-line' }));
  for (const p of data) {
    svg.append(s('circle', { cx: x(p.time), cy: y(p.rating), r: data.length > 60 ? 1.5 : 3, class: 'chart-dot', 'data-rating': p.rating },
      s('title', {}, `${dateLabel(p.time)}: ${p.rating}`)));
  }
  return svg;
}
