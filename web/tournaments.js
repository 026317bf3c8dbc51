// Tournaments (docs/players.md, docs/api.md "Tournaments"): /tournaments
// lists those to come, running and finished with the form that makes one;
// /tournament/<id> shows one, its live standings (the NDJSON stream), the
// games in play, join or leave in one click, berserk, and the podium at the
// end. The home page lists the ones to come and running (homeTournaments).

import { api, ApiError, tournamentGames } from './api.js';
import { h, clear } from './dom.js';

const message = (error) => (error instanceof ApiError ? error.message : String(error && error.message ? error.message : error));

const call = async (method, path, body) => {
  const init = { method, headers: {} };
  if (method !== 'GET') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || response.statusText);
  return data;
};

const clockText = (clock) => `${clock.limit >= 60 ? `${clock.limit / 60}` : `${clock.limit}s`}+${clock.increment}`;
const when = (ms) => new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
const kindText = (t) => (t.kind === 'round_robin' ? `round robin${t.rounds ? `, ${t.rounds} rounds` : ''}` : `arena, ${t.minutes} min`);

function summaryRow(t) {
  return h('li', { class: 'tournament-item', 'data-tournament': t.id },
    h('a', { href: `/tournament/${t.id}` }, t.fullName),
    ' ', h('span', { class: 'muted' }, `${t.variant} · ${clockText(t.clock)} · ${kindText(t)} · ${t.nbPlayers} players`),
    t.hasPassword ? h('span', { class: 'muted', title: 'needs a password' }, ' 🔒') : null,
    ' ', h('span', { class: `tournament-status ${t.status}` },
      t.status === 'created' ? `starts ${when(t.startsAt)}` : t.status === 'started' ? 'running' : 'finished'));
}

/** The home page's list: tournaments to come and running. */
export function homeTournaments() {
  // Drawn at once at its empty size: the page below does not move when the
  // list comes (unless there are tournaments to show).
  const body = h('p', { class: 'muted' }, 'Looking for tournaments…');
  const section = h('section', { class: 'home-tournaments', 'data-home-tournaments': '' },
    h('h2', {}, 'Tournaments ', h('a', { class: 'small', href: '/tournaments' }, 'all, or make one')), body);
  call('GET', '/api/tournament').then((lists) => {
    const shown = [...lists.started, ...lists.created].slice(0, 8);
    if (!shown.length) body.textContent = 'None to come right now.';
    else body.replaceWith(h('ul', { class: 'tournament-list' }, shown.map(summaryRow)));
  }).catch(() => { body.textContent = 'None to come right now.'; });
  return section;
}

export async function tournamentsPage(root) {
  document.title = 'Tournaments · Menagerie';
  clear(root);
  const lists = h('div', { class: 'tournament-lists' }, h('p', { class: 'muted' }, 'Loading…'));
  const formBox = h('div', {});
  root.append(h('section', { class: 'tournaments', 'data-tournaments': '' },
    h('p', { class: 'crumbs' }, h('a', { href: '/' }, 'Home'), ' › '),
    h('h2', {}, 'Tournaments'), formBox, lists));
  try {
    const all = await call('GET', '/api/tournament');
    lists.replaceChildren(
      ...[['Running', all.started], ['To come', all.created], ['Finished', all.finished]].map(([title, list]) =>
        h('div', { 'data-list': title }, h('h3', {}, title),
          list.length ? h('ul', { class: 'tournament-list' }, list.map(summaryRow)) : h('p', { class: 'muted' }, 'None.'))));
  } catch (error) {
    lists.replaceChildren(h('p', { class: 'error' }, message(error)));
  }
  const account = await api.session().catch(() => null);
  if (!account) {
    formBox.append(h('p', { class: 'muted' }, h('a', { href: '/account' }, 'Log in'), ' to make or join a tournament.'));
    return;
  }
  const variants = await api.variants().then((v) => v.variants).catch(() => []);
  formBox.append(createForm(variants));
}

function createForm(variants) {
  const field = (label, input) => h('label', {}, label, ' ', input);
  const name = h('input', { name: 'name', placeholder: 'Friday arena', maxlength: 60 });
  const kind = h('select', { name: 'kind' }, h('option', { value: 'arena' }, 'Arena'), h('option', { value: 'round_robin' }, 'Round robin'));
  const variant = h('select', { name: 'variant' }, variants.map((v) => h('option', { value: v.id }, v.name)));
  const clockTime = h('input', { name: 'clockTime', type: 'number', min: 0.25, step: 0.25, value: 3 });
  const increment = h('input', { name: 'clockIncrement', type: 'number', min: 0, value: 2 });
  const minutes = h('input', { name: 'minutes', type: 'number', min: 1, max: 1440, value: 30 });
  const rounds = h('input', { name: 'rounds', type: 'number', min: 1, max: 50, placeholder: 'all' });
  const wait = h('input', { name: 'waitMinutes', type: 'number', min: 0, value: 5 });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'new-password', placeholder: 'none' });
  const minutesLabel = field('Minutes', minutes);
  const roundsLabel = field('Rounds', rounds);
  roundsLabel.hidden = true;
  kind.addEventListener('change', () => {
    minutesLabel.hidden = kind.value !== 'arena';
    roundsLabel.hidden = kind.value === 'arena';
  });
  const error = h('p', { class: 'error', hidden: true });
  const form = h('form', { class: 'new-tournament', 'data-new-tournament': '' },
    h('h3', {}, 'Make a tournament'),
    field('Name', name), ' ', field('Kind', kind), ' ', field('Game', variant), ' ',
    field('Clock (minutes)', clockTime), ' ', field('+ seconds', increment), ' ',
    minutesLabel, ' ', roundsLabel, ' ', field('Starts in (minutes)', wait), ' ', field('Password', password), ' ',
    h('button', { type: 'submit', class: 'primary' }, 'Create'), error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {
      name: name.value, kind: kind.value, variant: variant.value,
      clockTime: Number(clockTime.value), clockIncrement: Number(increment.value),
      waitMinutes: Number(wait.value), password: password.value || undefined,
    };
    if (kind.value === 'arena') body.minutes = Number(minutes.value);
    else if (rounds.value) body.rounds = Number(rounds.value);
    try {
      const created = await call('POST', '/api/tournament', body);
      location.href = `/tournament/${created.id}`;
    } catch (e) {
      error.textContent = message(e);
      error.hidden = false;
    }
  });
  return form;
}

export async function tournamentPage(root, id) {
  clear(root);
  const head = h('div', { class: 'tournament-head' });
  const actions = h('div', { class: 'tournament-actions' });
  const podium = h('div', { class: 'podium' });
  const standing = h('div', { class: 'standing' });
  const games = h('div', { class: 'tournament-games' });
  const error = h('p', { class: 'error', hidden: true });
  root.append(h('section', { class: 'tournament', 'data-tournament-page': id },
    h('p', { class: 'crumbs' }, h('a', { href: '/tournaments' }, 'Tournaments'), ' › '),
    head, actions, error, podium, h('div', { class: 'tournament-body' }, standing, games)));
  const account = await api.session().catch(() => null);
  const show = (t) => render(t, { head, actions, podium, standing, games, error, account, id });
  try {
    show(await call('GET', `/api/tournament/${id}`));
  } catch (e) {
    document.title = 'No such tournament · Menagerie';
    head.replaceChildren(h('h2', {}, 'No such tournament'), h('p', {}, message(e)));
    return;
  }
  follow(id, show);
}

/** Reads the live stream, and opens it again when it drops before the end. */
async function follow(id, show) {
  for (;;) {
    let finished = false;
    try {
      const response = await fetch(`/api/tournament/${id}/stream`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (!line.trim()) continue;
          const t = JSON.parse(line);
          show(t);
          finished = t.status === 'finished';
        }
      }
    } catch (_) { /* reconnect below */ }
    if (finished) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function render(t, { head, actions, podium, standing, games, error, account, id }) {
  document.title = `${t.fullName} · Menagerie`;
  const status = t.status === 'created' ? `Starts ${when(t.startsAt)}`
    : t.status === 'started' ? (t.finishesAt ? `Running until ${when(t.finishesAt)}` : 'Running') : 'Finished';
  head.replaceChildren(h('h2', {}, t.fullName),
    h('p', { class: 'muted' }, `${t.variant} · ${clockText(t.clock)} · ${kindText(t)} · rated${t.berserkable ? ' · berserk allowed' : ''}`),
    h('p', { class: `tournament-status ${t.status}`, 'data-status': t.status }, status, ` · ${t.nbPlayers} players`));
  actions.replaceChildren();
  const act = async (path, body) => {
    error.hidden = true;
    try {
      await call('POST', `/api/tournament/${id}/${path}`, body);
      render(await call('GET', `/api/tournament/${id}`), { head, actions, podium, standing, games, error, account, id });
    } catch (e) {
      error.textContent = message(e);
      error.hidden = false;
    }
  };
  if (!account) {
    if (t.status !== 'finished') actions.append(h('p', { class: 'muted' }, h('a', { href: '/account' }, 'Log in'), ' to join.'));
  } else if (t.status !== 'finished') {
    const me = t.me || {};
    if (me.joined) {
      actions.append(h('button', { 'data-withdraw': '', onclick: () => act('withdraw') }, 'Leave'));
    } else if (!(t.kind === 'round_robin' && t.status === 'started')) {
      const password = t.hasPassword ? h('input', { type: 'password', placeholder: 'password', 'data-join-password': '' }) : null;
      actions.append(password || '', h('button', { class: 'primary', 'data-join': '', onclick: () => act('join', password ? { password: password.value } : {}) }, 'Join'));
    }
    if (me.gameId && t.status === 'started' && !tournamentGames.opened(me.gameId)) {
      // Paired: the game opens at once (a game not started in time is
      // lost). Once: coming back here during it stays here.
      tournamentGames.remember(me.gameId);
      location.assign(`/g/${me.gameId}`);
    }
    if (me.gameId) {
      actions.append(' ', h('a', { class: 'button primary', href: `/g/${me.gameId}`, 'data-my-game': me.gameId }, 'Your game'));
      if (t.berserkable) actions.append(' ', h('button', { 'data-berserk': '', title: 'Halve your clock for one more point on a win', onclick: () => act('berserk') }, 'Berserk'));
    }
  }
  podium.replaceChildren();
  if (t.podium) {
    podium.append(h('ol', { class: 'podium-list', 'data-podium': '' },
      t.podium.map((p, i) => h('li', { class: `place-${i + 1}` }, h('span', { class: 'medal' }, ['🥇', '🥈', '🥉'][i]), ' ',
        h('a', { href: `/@/${encodeURIComponent(p.name)}` }, p.name), ' ', h('b', {}, p.score)))));
  }
  const players = (t.standing && t.standing.players) || [];
  standing.replaceChildren(players.length
    ? h('table', { class: 'leaderboard-table standing-table', 'data-standing': '' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Sheet'), h('th', {}, 'Score'))),
      h('tbody', {}, players.map((p) => h('tr', { 'data-player': p.name, class: p.withdraw ? 'withdrawn' : '' },
        h('td', { class: 'rank' }, p.rank),
        h('td', { class: 'who' }, h('a', { href: `/@/${encodeURIComponent(p.name)}` }, p.name), ' ', h('span', { class: 'muted' }, p.rating),
          p.playing ? h('a', { class: 'playing', href: `/g/${p.playing}`, title: 'playing now' }, ' ▶') : null),
        h('td', { class: 'sheet' }, (p.sheet.scores || []).join(' ')),
        h('td', { class: 'score' }, p.sheet.fire ? '🔥 ' : '', h('b', {}, p.score))))))
    : h('p', { class: 'muted' }, 'Nobody has joined yet.'));
  const inPlay = (t.games || []).filter((g) => !g.result);
  games.replaceChildren(h('h3', {}, 'Games in play'),
    inPlay.length
      ? h('ul', { class: 'tournament-games-list' }, inPlay.map((g) => h('li', { 'data-game': g.id },
        h('a', { href: `/g/${g.id}` }, `${g.white} – ${g.black}`))))
      : h('p', { class: 'muted' }, 'None right now.'));
}
