// The lobby on the home page (docs/api.md, "Lobby"): your display name,
// the open seeks (accept one, or cancel yours), a form to create a seek,
// and the games being played, kept live by the lobby socket. Accepting a
// seek takes both players to their game: the accepter by the answer, the
// creator by the socket's "started" message.

import { api, myGames, ApiError } from './api.js';
import { h, clear, fill } from './dom.js';
import { optionInputs, chosenVariant, timeControlInputs } from './gameform.js';
import { ratingText } from './ratings.js';

const message = (error) => (error instanceof ApiError ? error.message : String(error && error.message ? error.message : error));

/** The lobby's section, filled once the variants are known (`start`). */
export function lobbySection() {
  const section = h('section', { class: 'lobby', 'data-lobby': '' }, h('h2', {}, 'Lobby'), h('p', { class: 'muted' }, 'Connecting…'));
  return {
    element: section,
    start: (variants) => startLobby(section, variants),
  };
}

async function startLobby(section, variants) {
  const byId = new Map(variants.map((v) => [v.id, v]));
  const error = h('p', { class: 'error', hidden: true });
  const showError = (e) => { error.textContent = message(e); error.hidden = false; };
  const seeks = h('div', { class: 'lobby-seeks' });
  const games = h('div', { class: 'lobby-games' });
  const status = h('span', { class: 'muted lobby-status' });
  // Who this browser is comes first: the lobby socket must carry its
  // identity cookie, or the creator of a seek could not be told of its game.
  let me = { name: '' };
  try {
    me = await api.me();
  } catch (e) {
    showError(e);
  }
  clear(section).append(
    h('div', { class: 'lobby-head' }, h('h2', {}, 'Lobby'), status,
      me.username ? h('p', { class: 'lobby-account' }, 'Playing as ', h('a', { href: `/@/${encodeURIComponent(me.username)}`, 'data-lobby-username': me.username }, me.username)) : nameForm(me.name, showError)),
    error,
    h('div', { class: 'lobby-columns' }, h('div', {}, seeks, seekForm(variants, me, showError)), games),
  );
  const render = (lobby) => {
    renderSeeks(seeks, lobby.seeks, byId, showError);
    renderGames(games, lobby.games, byId);
  };
  connect(status, render, showError, () => { error.hidden = true; });
}

/** The lobby socket, opened again when it drops (a server restart). */
function connect(status, render, showError, clearError) {
  let retry = 1000;
  const open = () => {
    const socket = new WebSocket(api.lobbySocketUrl());
    socket.onopen = () => { retry = 1000; status.textContent = ''; clearError(); };
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.type === 'lobby') render(data);
      if (data.type === 'started') goToGame(data.game);
    };
    socket.onclose = () => {
      status.textContent = 'reconnecting…';
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 15000);
    };
    socket.onerror = () => showError('the lobby connection failed');
  };
  open();
}

/** Keeps a started game among this browser's games (with the opponent's
 * name, which the game page shows) and opens it at its seat. */
function goToGame(started) {
  const seat = started.secrets[started.you];
  myGames.save({ id: started.id, variant: started.variant || '', name: `${started.variant} vs ${started.opponent}`, opponent: started.opponent, mode: started.mode, you: started.you, seat, secrets: started.secrets, created: Date.now() });
  location.href = `/g/${started.id}?seat=${encodeURIComponent(seat)}`;
}

function nameForm(name, showError) {
  const input = h('input', { name: 'lobby-name', maxlength: '24', placeholder: 'Anonymous', 'aria-label': 'your name', class: 'lobby-name-input', value: name });
  const saved = h('span', { class: 'muted', hidden: true }, 'saved');
  const form = h('form', { class: 'lobby-name' }, h('label', {}, 'Your name ', input), ' ', h('button', { type: 'submit' }, 'Save'), ' ', saved);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const me = await api.rename(input.value);
      input.value = me.name;
      saved.hidden = false;
      setTimeout(() => { saved.hidden = true; }, 1500);
    } catch (e) {
      showError(e);
    }
  });
  return form;
}

const variantOf = (text, byId) => byId.get(text.split(':')[0]);

function variantLabel(text, byId) {
  const variant = variantOf(text, byId);
  const options = text.includes(':') ? ` (${text.slice(text.indexOf(':') + 1)})` : '';
  return `${variant ? variant.name : text}${options}`;
}

function clockLabel(clock) {
  if (!clock) return 'unlimited';
  if (clock.days) return `${clock.days} day${clock.days > 1 ? 's' : ''} a move`;
  return `${+(clock.initial / 60).toFixed(2)}+${clock.increment}`;
}

/** The side the seek's creator plays, as a name of the game. */
function creatorSide(seek, byId) {
  const players = (variantOf(seek.variant, byId) || {}).players || ['first', 'second'];
  if (seek.colour === 'first') return players[0];
  if (seek.colour === 'second') return players[1];
  return seek.colour;
}

function renderSeeks(where, list, byId, showError) {
  const rows = list.map((seek) => {
    const action = seek.yours
      ? h('button', { 'data-cancel-seek': seek.id, onclick: () => api.cancelSeek(seek.id).catch(showError) }, 'Cancel')
      : h('button', { class: 'primary', 'data-accept-seek': seek.id, onclick: () => accept(seek.id, showError) }, 'Accept');
    return h('tr', { 'data-seek': seek.id, 'data-rated': String(Boolean(seek.rated)), class: seek.yours ? 'yours' : '' },
      h('td', { class: 'who' }, listedPlayer(seek), seek.yours ? h('span', { class: 'muted' }, ' (you)') : null),
      h('td', {}, variantLabel(seek.variant, byId), seek.position ? h('span', { class: 'muted', title: seek.position }, ' · set position') : null,
        h('div', { class: `seek-mode muted small${seek.rated ? ' rated' : ''}`, 'data-seek-mode': seek.rated ? 'rated' : 'casual' },
          seek.rated ? 'rated' : 'casual', rangeLabel(seek))),
      h('td', {}, clockLabel(seek.clock)),
      h('td', {}, creatorSide(seek, byId) === 'random' ? 'random sides' : `plays ${creatorSide(seek, byId)}`),
      h('td', {}, action));
  });
  fill(where,
    h('h3', {}, 'Open seeks'),
    rows.length
      ? h('table', { class: 'lobby-table' }, h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Game'), h('th', {}, 'Time'), h('th', {}, 'Sides'), h('th', {}))), h('tbody', {}, rows))
      : h('p', { class: 'muted' }, 'No open seeks: create one below.'));
}

/** A player as the lobby lists it: the name, linking to the profile when
 * an account's (an account has a rating), and the rating in the variant. */
function listedPlayer(player) {
  const account = Number.isFinite(player.rating);
  const name = account
    ? h('a', { href: `/@/${encodeURIComponent(player.name)}`, 'data-lobby-player': player.name }, player.name)
    : player.name;
  const rating = account
    ? h('span', { class: 'muted lobby-rating', 'data-lobby-rating': player.rating }, ` ${ratingText({ rating: player.rating, prov: player.provisional })}`)
    : null;
  return [name, rating];
}

/** The ratings a seek accepts, if it names a range. */
function rangeLabel(seek) {
  const range = seek.ratingRange;
  if (!range) return null;
  const [low, high] = Array.isArray(range) ? range : String(range).split('-');
  return ` · ${low}–${high}`;
}

async function accept(id, showError) {
  try {
    goToGame(await api.acceptSeek(id));
  } catch (e) {
    showError(e);
  }
}

function renderGames(where, list, byId) {
  const items = list.map((game) => h('li', { 'data-live-game': game.id },
    h('strong', {}, variantLabel(game.variant, byId)), ' ',
    game.rated ? h('span', { class: 'seek-mode rated' }, 'rated ') : null,
    game.seats.map((seat, i) => [i ? ' – ' : '', listedPlayer(seat), h('span', { class: 'muted' }, ` (${seat.side})`)]),
    h('span', { class: 'muted' }, game.ply ? ` · ply ${game.ply} ` : ' · just started '),
    h('a', { href: game.link, class: 'button' }, 'Watch')));
  fill(where,
    h('h3', {}, 'Games being played'),
    items.length ? h('ul', { class: 'lobby-list' }, items) : h('p', { class: 'muted' }, 'None right now.'));
}

/** Rated or casual (rated only between accounts: the box is enabled
 * once logged in), and the opponents' ratings the seek accepts. */
function ratedInputs(me) {
  const rated = h('input', { type: 'checkbox', name: 'seek-rated', 'data-seek-rated': '', disabled: !me.username });
  const low = h('input', { type: 'number', name: 'seek-rating-min', class: 'short-number', min: '400', max: '4000', step: '50', placeholder: 'any', 'aria-label': 'lowest rating' });
  const high = h('input', { type: 'number', name: 'seek-rating-max', class: 'short-number', min: '400', max: '4000', step: '50', placeholder: 'any', 'aria-label': 'highest rating' });
  const element = h('div', { class: 'seek-rated' },
    h('label', { title: me.username ? 'the game changes both ratings' : 'log in to play rated games' }, rated, ' Rated'),
    me.username ? null : h('span', { class: 'muted small' }, h('a', { href: '/account' }, 'log in'), ' to play rated'),
    h('span', { class: 'seek-range' }, 'Opponent rated ', low, ' to ', high));
  return {
    element,
    /** The fields of the seek's body (none for a casual seek open to all:
     * `rated` is false by default). */
    value: () => {
      const body = rated.checked && !rated.disabled ? { rated: true } : {};
      if (low.value || high.value) body.ratingRange = `${low.value || 400}-${high.value || 4000}`;
      return body;
    },
  };
}

function seekForm(variants, me, showError) {
  const variant = h('select', { name: 'seek-variant' }, variants.map((v) => h('option', { value: v.id }, v.name)));
  const options = h('div', { class: 'seek-options' });
  const colour = h('select', { name: 'seek-colour' });
  const time = timeControlInputs();
  const rating = ratedInputs(me);
  const chosen = () => variants.find((v) => v.id === variant.value);
  const refresh = () => {
    const v = chosen();
    const opts = optionInputs(v);
    fill(options, opts.length ? h('fieldset', {}, h('legend', {}, 'Options'), opts) : null);
    const players = v.players || ['first', 'second'];
    fill(colour, h('option', { value: 'random' }, 'random'), h('option', { value: 'first' }, players[0]), h('option', { value: 'second' }, players[1]));
  };
  variant.addEventListener('change', refresh);
  if (variants.length) refresh();
  const form = h('form', { class: 'new-game seek-form' },
    h('label', {}, 'Game ', variant), ' ',
    h('label', {}, 'Your side ', colour), ' ',
    time.element, ' ',
    rating.element,
    options,
    h('button', { type: 'submit', class: 'primary', 'data-create-seek': '' }, 'Create seek'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api.createSeek({ variant: chosenVariant(options, chosen()), colour: colour.value, clock: time.value(), ...rating.value() });
    } catch (e) {
      showError(e);
    }
  });
  return h('details', { class: 'lobby-create' }, h('summary', {}, 'Create a seek'), form);
}
