// A player's profile, /@/<username> (docs/players.md): the date joined,
// the rating of each variant played (with `?` while provisional) and its
// history as a chart, and the player's games with filters (variant,
// result, rated), each linking to its game, and the download of them all
// as one records file. Everything comes from the API in lichess's shapes:
// /api/user/<name>, its rating-history and /api/games/user/<name>.

import { api, ApiError } from './api.js';
import { h, clear, fill } from './dom.js';
import { ratingChart } from './chart.js';
import { readRecords, gameIdOf, isRated, moveCount } from './pgn.js';
import { ratingText, progressBadge, variantName } from './ratings.js';
import { timeControlInputs } from './gameform.js';

const message = (error) => (error instanceof ApiError ? error.message : String(error && error.message ? error.message : error));

/** How many games the page lists at once (the download has them all). */
const LISTED = 100;

/** The filters of the games list, as `/api/games/user/<name>` takes them. */
const FILTERS = ['variant', 'result', 'rated'];

export async function profilePage(root, username) {
  document.title = `${username} · Menagerie`;
  clear(root);
  let user;
  let variants = [];
  try {
    [user, variants] = await Promise.all([api.user(username), api.variants().then((v) => v.variants).catch(() => [])]);
  } catch (error) {
    root.append(error instanceof ApiError && error.status === 404 ? noSuchPlayer(username) : h('p', { class: 'error' }, `Cannot load this profile: ${message(error)}`));
    return;
  }
  document.title = `${user.username} · Menagerie`;
  const closed = Boolean(user.disabled || user.closed);
  const section = h('section', { class: 'profile', 'data-profile': user.username },
    profileHead(user, closed));
  root.append(section);
  if (closed) {
    section.append(h('p', { class: 'muted', 'data-profile-closed': '' }, 'This account is closed. Its games stay, under a neutral name.'));
    return;
  }
  const me = await api.me().catch(() => null);
  if (me && me.username && !sameName(me.username, user.username)) {
    section.append(h('div', { class: 'profile-actions' }, challengeForm(user, variants), blockButton(user)));
  }
  const ratings = h('div', { class: 'profile-ratings', 'data-profile-ratings': '' });
  section.append(h('h3', {}, 'Ratings'), ratings);
  const lines = await api.ratingHistory(user.username).catch(() => []);
  drawRatings(ratings, user, Array.isArray(lines) ? lines : [], variants);
  section.append(gamesSection(user, variants));
}

/**
 * Block / Unblock (docs/api.md, "Blocking"): a blocked player cannot
 * challenge you, is not paired with you in the lobby, and its notices to
 * you are dropped.
 */
function blockButton(user) {
  let blocking = Boolean(user.blocking);
  const status = h('span', { class: 'muted', 'data-block-status': '', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'button', 'data-block-button': '' });
  const show = () => {
    button.textContent = blocking ? 'Unblock' : 'Block';
    button.dataset.blocking = String(blocking);
    button.title = blocking
      ? `${user.username} may challenge you and meet you in the lobby again`
      : `${user.username} will not be able to challenge you or meet you in the lobby`;
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await (blocking ? api.unblock(user.username) : api.block(user.username));
      blocking = !blocking;
      status.textContent = blocking ? `You block ${user.username}.` : '';
      show();
    } catch (error) {
      status.textContent = `Cannot ${blocking ? 'unblock' : 'block'}: ${message(error)}`;
    }
    button.disabled = false;
  });
  show();
  if (blocking) status.textContent = `You block ${user.username}.`;
  return h('div', { class: 'profile-block' }, button, ' ', status);
}

/** How long the page waits between looks at a challenge it sent. */
const CHALLENGE_LOOK_MS = 1500;

/**
 * The Challenge button (docs/api.md, "Challenges"): a form of variant,
 * time and colour; once sent, the page waits for the answer and opens the
 * game when it is accepted.
 */
function challengeForm(user, variants) {
  const variant = h('select', { name: 'variant', 'aria-label': 'Game' }, variants.map((v) => h('option', { value: v.id }, v.name)));
  const time = timeControlInputs();
  const colour = h('select', { name: 'color', 'aria-label': 'Your colour' },
    h('option', { value: 'random' }, 'random'), h('option', { value: 'white' }, 'first (white)'), h('option', { value: 'black' }, 'second (black)'));
  const rated = h('input', { type: 'checkbox', name: 'rated' });
  const status = h('p', { class: 'muted', 'data-challenge-status': '', 'aria-live': 'polite' });
  const send = h('button', { type: 'submit', class: 'primary' }, `Challenge ${user.username}`);
  const form = h('form', { class: 'challenge-form', 'data-challenge-form': '', hidden: true },
    h('label', {}, 'Game ', variant), time.element, h('label', {}, 'Your colour ', colour),
    h('label', {}, rated, ' rated'), send);
  const open = h('button', { type: 'button', class: 'button', 'data-challenge-button': '' }, 'Challenge');
  open.addEventListener('click', () => { form.hidden = !form.hidden; });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const terms = { variant: variant.value, color: colour.value, rated: rated.checked };
    const clock = time.value();
    if (clock && clock.days) terms.days = clock.days;
    else if (clock) Object.assign(terms, { 'clock.limit': clock.initial, 'clock.increment': clock.increment });
    send.disabled = true;
    try {
      const challenge = await api.challenge(user.username, terms);
      status.textContent = `Challenge sent: waiting for ${user.username} to answer…`;
      waitForAnswer(challenge.id, status, send);
    } catch (error) {
      status.textContent = `Cannot challenge: ${message(error)}`;
      send.disabled = false;
    }
  });
  return h('div', { class: 'profile-challenge' }, open, form, status);
}

/** Looks at a sent challenge until it is answered: its game, or why not. */
async function waitForAnswer(id, status, send) {
  let challenge;
  try {
    challenge = await api.challengeShown(id);
  } catch (_) {
    setTimeout(() => waitForAnswer(id, status, send), CHALLENGE_LOOK_MS);
    return;
  }
  if (challenge.status === 'accepted' && challenge.gameId) {
    location.href = `/g/${challenge.gameId}`;
    return;
  }
  if (challenge.status === 'created') {
    setTimeout(() => waitForAnswer(id, status, send), CHALLENGE_LOOK_MS);
    return;
  }
  status.textContent = challenge.status === 'declined'
    ? `Declined: ${challenge.declineReason || 'no reason given'}`
    : 'The challenge ended unanswered.';
  send.disabled = false;
}

function noSuchPlayer(username) {
  document.title = 'No such player · Menagerie';
  return h('section', { class: 'profile no-such-player', 'data-no-such-player': '' },
    h('h2', {}, 'No such player'),
    h('p', {}, 'Nobody plays here as ', h('b', {}, username), '.'),
    h('p', {}, h('a', { href: '/leaderboard' }, 'Leaderboards'), ' · ', h('a', { href: '/' }, 'Home')));
}

function profileHead(user, closed) {
  const count = user.count || {};
  const facts = [
    user.createdAt ? `Joined ${new Date(user.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}` : null,
    Number.isFinite(count.all) ? `${count.all} game${count.all === 1 ? '' : 's'}` : null,
    Number.isFinite(count.rated) ? `${count.rated} rated` : null,
  ].filter(Boolean);
  return h('div', { class: 'profile-head' },
    h('h2', { 'data-profile-username': user.username },
      user.title ? h('span', { class: 'player-title', 'data-player-title': user.title }, `${user.title} `) : null,
      user.username, closed ? h('span', { class: 'badge closed' }, 'closed') : null),
    h('p', { class: 'muted', 'data-profile-joined': '' }, facts.join(' · ')));
}

/** One card per variant played: its rating, progress, games and chart. */
function drawRatings(where, user, history, variants) {
  const perfs = Object.entries(user.perfs || {})
    .filter(([, perf]) => perf && (perf.games > 0 || perf.rating))
    .sort(([, a], [, b]) => (b.games || 0) - (a.games || 0));
  if (!perfs.length) {
    fill(where, h('p', { class: 'muted' }, 'No rated games yet.'));
    return;
  }
  const byName = new Map(history.map((line) => [line.name, line.points]));
  fill(where, perfs.map(([id, perf]) => {
    const chart = h('div', { 'data-chart': id });
    const card = h('article', { class: 'rating-card', 'data-perf': id },
      h('header', {},
        h('a', { class: 'rating-variant', href: `/leaderboard/${id}` }, variantName(id, variants)),
        h('span', { class: 'rating-value', 'data-rating': id, title: `rating deviation ${perf.rd}` }, ratingText(perf)),
        progressBadge(perf.prog)),
      h('p', { class: 'muted rating-facts' }, `${perf.games} rated game${perf.games === 1 ? '' : 's'} · RD ${perf.rd}${perf.prov ? ' · provisional' : ''}`),
      chart);
    // Drawn once in the page, where it knows its width.
    requestAnimationFrame(() => ratingChart(chart, byName.get(id) || []));
    return card;
  }));
}

/** The games list, its filters and the download of every game they pick. */
function gamesSection(user, variants) {
  const initial = new URLSearchParams(location.search);
  const select = (name, label, choices) => {
    const element = h('select', { name, 'data-filter': name, 'aria-label': label },
      choices.map(([value, text]) => h('option', { value }, text)));
    element.value = initial.get(name) || '';
    if (element.selectedIndex < 0) element.value = '';
    return h('label', {}, `${label} `, element);
  };
  const filters = h('form', { class: 'profile-filters', 'data-profile-filters': '' },
    select('variant', 'Game', [['', 'all games'], ...variants.map((v) => [v.id, v.name])]),
    select('result', 'Result', [['', 'any'], ['win', 'wins'], ['loss', 'losses'], ['draw', 'draws']]),
    select('rated', 'Rated', [['', 'rated and casual'], ['true', 'rated'], ['false', 'casual']]));
  const download = h('a', { class: 'button', 'data-download-games': '' }, 'Download these games');
  const list = h('div', { class: 'profile-games-list', 'data-profile-games': '' }, h('p', { class: 'muted' }, 'Loading…'));
  const chosen = () => Object.fromEntries(FILTERS.map((name) => [name, filters.elements[name].value]).filter(([, value]) => value));
  let asked = 0;
  const refresh = async () => {
    const picked = chosen();
    const query = new URLSearchParams(picked).toString();
    history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
    download.href = api.userGamesUrl(user.username, picked);
    download.setAttribute('download', `menagerie-${user.username}.pgn`);
    const ask = ++asked;
    try {
      const text = await api.userGames(user.username, { ...picked, max: LISTED });
      if (ask === asked) drawGames(list, user.username, readRecords(text), variants, picked);
    } catch (error) {
      if (ask === asked) fill(list, h('p', { class: 'error' }, `Cannot load the games: ${message(error)}`));
    }
  };
  filters.addEventListener('change', refresh);
  filters.addEventListener('submit', (event) => event.preventDefault());
  refresh();
  return h('section', { class: 'profile-games' },
    h('div', { class: 'profile-games-head' }, h('h3', {}, 'Games'), download),
    filters, list);
}

const sameName = (a, b) => String(a || '').toLowerCase() === String(b || '').toLowerCase();

/** Whether a record's player name is an account's (a link to its profile). */
const isUsername = (name) => /^[A-Za-z0-9_-]{2,20}$/.test(name || '') && name !== 'Anonymous';

function playerCell(name, rating, diff) {
  const who = isUsername(name) ? h('a', { href: `/@/${encodeURIComponent(name)}` }, name) : h('span', {}, name || '?');
  return h('span', { class: 'game-player' }, who,
    rating && rating !== '?' ? h('span', { class: 'muted' }, ` (${rating})`) : null,
    diff ? ratingDiff(diff) : null);
}

function ratingDiff(diff) {
  const value = Number.parseInt(diff, 10);
  if (!Number.isFinite(value)) return null;
  return h('span', { class: `rating-diff ${value > 0 ? 'up' : value < 0 ? 'down' : ''}`, 'data-rating-diff': value }, ` ${value > 0 ? '+' : ''}${value}`);
}

/** The player's outcome of a record: win, loss, draw or null (going on). */
function outcome(tags, username) {
  const first = sameName(tags.White, username);
  const second = sameName(tags.Black, username);
  if (tags.Result === '1/2-1/2') return 'draw';
  if (tags.Result === '1-0') return first ? 'win' : second ? 'loss' : null;
  if (tags.Result === '0-1') return second ? 'win' : first ? 'loss' : null;
  return null;
}

function drawGames(where, username, records, variants, picked) {
  if (!records.length) {
    fill(where, h('p', { class: 'muted', 'data-no-games': '' }, 'No games with these filters.'));
    return;
  }
  const rows = records.map(({ tags, moves }) => {
    const id = gameIdOf(tags);
    const result = outcome(tags, username);
    // What the record does not say, the filter may: every game it picks is rated (or casual).
    const rated = isRated(tags) ?? (picked.rated ? picked.rated === 'true' : null);
    const variant = tags.Variant || '';
    const baseId = variant.split(':')[0];
    const name = variantName(baseId, variants) + (variant.includes(':') ? ` (${variant.slice(variant.indexOf(':') + 1)})` : '');
    return h('tr', { 'data-game-row': id || '', 'data-result': result || tags.Result || '*', 'data-rated': String(rated), 'data-variant': baseId },
      h('td', {}, id ? h('a', { href: `/g/${id}`, 'data-game-link': id }, name) : name,
        h('div', { class: 'muted small' }, `${rated === null ? '' : rated ? 'rated · ' : 'casual · '}${(tags.Date || '').replace(/\./g, '-')}`)),
      h('td', { class: 'game-players' },
        playerCell(tags.White, tags.WhiteElo, tags.WhiteRatingDiff), h('span', { class: 'muted' }, ' vs '),
        playerCell(tags.Black, tags.BlackElo, tags.BlackRatingDiff)),
      h('td', { class: `game-outcome ${result || ''}` }, result ? { win: 'Won', loss: 'Lost', draw: 'Draw' }[result] : (tags.Result && tags.Result !== '*' ? tags.Result : 'playing'),
        h('div', { class: 'muted small' }, `${tags.Termination || ''}${tags.Termination ? ' · ' : ''}${moveCount(moves)} moves`)));
  });
  fill(where,
    h('table', { class: 'profile-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Players'), h('th', {}, 'Result'))),
      h('tbody', {}, rows)),
    records.length >= LISTED ? h('p', { class: 'muted' }, `The newest ${LISTED}; the download has them all.`) : null);
}
