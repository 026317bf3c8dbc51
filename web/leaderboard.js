// The leaderboards (docs/players.md): /leaderboard lists every variant with
// its first ten players, /leaderboard/<variant> the top 50 of one, with
// rank, name (linking to the profile), rating and progress, from
// /api/player/top/<nb>/<variant> (lichess's shape).

import { api, ApiError } from './api.js';
import { h, clear } from './dom.js';
import { progressBadge, variantName } from './ratings.js';

const message = (error) => (error instanceof ApiError ? error.message : String(error && error.message ? error.message : error));

/** How many players a variant's leaderboard shows, and the index page. */
const TOP = 50;
const TOP_ON_INDEX = 10;

/** Who is listed: the sentence both pages show, with the API's threshold
 * (docs/api.md, "Players"). */
export const LEADERBOARD_RD = 150;
const WHO = `Players whose rating deviation (RD) is below ${LEADERBOARD_RD}, best first: those who have played rated games enough, and lately. (A rating is provisional, shown with ?, while its RD is 110 or more.)`;

export async function leaderboardPage(root, variant) {
  clear(root);
  const variants = await api.variants().then((v) => v.variants).catch(() => []);
  if (variant) return variantBoard(root, variant, variants);
  document.title = 'Leaderboards · Menagerie';
  const grid = h('div', { class: 'leaderboards' });
  root.append(h('section', { class: 'leaderboard-index', 'data-leaderboards': '' },
    h('h2', {}, 'Leaderboards'),
    h('p', { class: 'muted', 'data-leaderboard-who': '' }, WHO),
    grid));
  for (const v of variants) {
    const list = h('div', { class: 'leaderboard-short' }, h('p', { class: 'muted' }, 'Loading…'));
    grid.append(h('article', { class: 'leaderboard-card', 'data-leaderboard-variant': v.id },
      h('h3', {}, h('a', { href: `/leaderboard/${v.id}` }, v.name)), list));
    api.top(TOP_ON_INDEX, v.id)
      .then((answer) => list.replaceChildren(table(answer.users || [], v.id, true)))
      .catch((error) => list.replaceChildren(h('p', { class: 'error' }, message(error))));
  }
}

async function variantBoard(root, variant, variants) {
  if (variants.length && !variants.some((v) => v.id === variant)) {
    document.title = 'No such variant · Menagerie';
    root.append(h('section', { class: 'leaderboard', 'data-no-such-variant': '' },
      h('h2', {}, 'No such variant'),
      h('p', {}, 'There is no leaderboard for ', h('b', {}, variant), '. ', h('a', { href: '/leaderboard' }, 'All leaderboards'), '.')));
    return;
  }
  const name = variantName(variant, variants);
  document.title = `${name} leaderboard · Menagerie`;
  const section = h('section', { class: 'leaderboard', 'data-leaderboard': variant },
    h('p', { class: 'crumbs' }, h('a', { href: '/leaderboard' }, 'Leaderboards'), ' › '),
    h('h2', {}, `${name}: the top ${TOP}`),
    h('p', { class: 'muted', 'data-leaderboard-who': '' }, WHO));
  root.append(section);
  try {
    const answer = await api.top(TOP, variant);
    section.append(table(answer.users || [], variant, false));
  } catch (error) {
    section.append(h('p', { class: 'error' }, `Cannot load the leaderboard: ${message(error)}`));
  }
}

function table(users, variant, short) {
  if (!users.length) return h('p', { class: 'muted', 'data-leaderboard-empty': '' }, 'Nobody yet.');
  return h('table', { class: `leaderboard-table${short ? ' short' : ''}` },
    short ? null : h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'), h('th', {}, 'Progress'))),
    h('tbody', {}, users.map((user, index) => {
      const perf = (user.perfs && user.perfs[variant]) || {};
      return h('tr', { 'data-leaderboard-row': user.username },
        h('td', { class: 'rank' }, index + 1),
        h('td', { class: 'who' },
          user.title ? h('span', { class: 'player-title', 'data-player-title': user.title }, `${user.title} `) : null,
          h('a', { href: `/@/${encodeURIComponent(user.username)}` }, user.username)),
        h('td', { class: 'rating', 'data-rating': perf.rating }, Number.isFinite(perf.rating) ? Math.round(perf.rating) : '?'),
        h('td', { class: 'progress' }, progressBadge(perf.progress)));
    })));
}
