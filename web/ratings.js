// How ratings are written on every page (docs/players.md): `1523?` while
// the rating is provisional (RD at least 110), the progress over the last
// rated games as a green or red arrow, a variant by its name.

import { h } from './dom.js';

/** A rating is provisional while its deviation is at least this. */
export const PROVISIONAL_RD = 110;

/** `perf` as lichess gives it ({ rating, rd, prov }) written for people. */
export function ratingText(perf) {
  if (!perf || !Number.isFinite(perf.rating)) return '?';
  const provisional = perf.prov !== undefined ? Boolean(perf.prov) : perf.rd >= PROVISIONAL_RD;
  return `${Math.round(perf.rating)}${provisional ? '?' : ''}`;
}

/** The progress of a rating (`prog`, `progress`): ▲12 green, ▼8 red, nothing at 0. */
export function progressBadge(progress) {
  if (!Number.isFinite(progress) || progress === 0) return null;
  return h('span', { class: `rating-progress ${progress > 0 ? 'up' : 'down'}`, 'data-progress': progress },
    `${progress > 0 ? '▲' : '▼'}${Math.abs(progress)}`);
}

/** A variant id's name (`lma` -> its full name), or the id. */
export function variantName(id, variants) {
  const variant = (variants || []).find((v) => v.id === id);
  return variant ? variant.name : id;
}
