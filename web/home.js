// The home page: the games this browser plays, every variant with a small
// picture of its start, and the form that starts a new game.

import { api, myGames, ApiError } from './api.js';
import { h, clear } from './dom.js';
import { drawBoard, gameOf, loadRenderers } from './games/index.js';
import { importForm } from './records.js';
import { optionInputs, chosenVariant, timeControlInputs } from './gameform.js';
import { lobbySection } from './lobby.js';
import { homeTournaments } from './tournaments.js';

function showError(where, error) {
  const message = error instanceof ApiError ? error.message : String(error && error.message ? error.message : error);
  where.textContent = message;
  where.hidden = false;
}

export async function homePage(root) {
  document.title = 'Menagerie';
  clear(root);
  const yours = h('section', { class: 'yours' });
  const list = h('section', { class: 'variants' });
  const lobby = lobbySection();
  root.append(welcome(), yours, lobby.element, homeTournaments(), h('h2', {}, 'Games'), list, importForm());
  renderYourGames(yours);
  let data;
  try {
    data = await api.variants();
  } catch (error) {
    list.append(h('p', { class: 'error' }, `Cannot load the games: ${error.message}`));
    return;
  }
  lobby.start(data.variants);
  if (!data.variants.length) list.append(h('p', {}, 'No games are registered in this build.'));
  await loadRenderers(data.variants.map((v) => v.id));
  for (const variant of data.variants) list.append(variantCard(variant, data.levels));
  openAsked(list, new URLSearchParams(location.search).get('new'));
}

/// Each game's name in a line of invitation (the variants' full names are long).
const SHORT_NAMES = { lma: 'LMA Chess', fluid: 'Fluid Chess', lichen: 'Lichen Chess', kelasu: 'Kelasu', lunch: 'Lunch Chess' };

/// The newcomer's way in: nobody arrives knowing these games.
function welcome() {
  return h('section', { class: 'welcome', 'data-welcome': '' },
    h('p', {}, h('strong', {}, 'New to these games? '), 'Each takes five minutes to learn: short lessons on the real board, then puzzles, then a game against the computer.'),
    h('p', { class: 'button-row' }, h('a', { class: 'button primary', href: '/learn', 'data-learn-link': '' }, 'Learn'), ' ', h('a', { class: 'button', href: '/puzzle', 'data-puzzle-link': '' }, 'Puzzles')));
}

/// `/?new=<variant>` (a lesson's "Play a game"): that game's new-game form
/// open, against the computer, in view.
function openAsked(list, variant) {
  if (!variant) return;
  const card = [...list.querySelectorAll('[data-variant]')].find((el) => el.getAttribute('data-variant') === variant);
  const form = card && card.querySelector('form.new-game');
  if (!form) return;
  form.hidden = false;
  card.classList.add('asked');
  card.scrollIntoView({ block: 'center' });
}

function renderYourGames(section) {
  const games = myGames.all();
  clear(section);
  if (!games.length) return;
  section.append(h('h2', {}, 'Your games'));
  const ul = h('ul', { class: 'your-games' });
  section.append(ul);
  for (const game of games.slice(0, 30)) {
    const status = h('span', { class: 'status' }, '…');
    const link = h('a', { href: `/g/${game.id}?seat=${encodeURIComponent(game.seat)}` }, `${game.name || game.variant}`);
    const forget = h('button', { class: 'link', title: 'Remove from this list', onclick: () => { myGames.forget(game.id); renderYourGames(section); } }, '×');
    ul.append(h('li', { 'data-game': game.id }, link, ' ', h('span', { class: 'muted' }, game.opponent ? `vs ${game.opponent}` : modeLabel(game.mode)), ' ', status, ' ', forget));
    api.game(game.id, game.seat).then(
      (state) => {
        status.textContent = state.result ? state.result.summary : state.your_turn ? 'your move' : `move ${state.ply}`;
        if (state.your_turn) status.classList.add('your-turn');
        if (state.result) status.classList.add('over');
      },
      () => { status.textContent = 'unavailable'; },
    );
  }
}

const modeLabel = (mode) => ({ computer: 'vs computer', friend: 'vs a friend', local: 'on this device' })[mode] || mode;

function variantCard(variant, levels) {
  const picture = h('div', { class: 'thumb' });
  if (variant.start) {
    picture.append(drawBoard(variant.id, variant.start, { small: true, flip: false, highlights: {} }));
  }
  const form = newGameForm(variant, levels);
  form.hidden = true;
  const button = h('button', { class: 'primary', 'data-new-game': variant.id, onclick: () => { form.hidden = !form.hidden; } }, 'New game');
  return h(
    'article',
    { class: 'variant', 'data-variant': variant.id },
    picture,
    h('div', { class: 'about' },
      h('h3', {}, variant.name, ' ', h('code', {}, variant.id)),
      h('p', { class: 'summary', title: variant.summary }, variant.summary),
      h('p', {},
        variant.rules ? h('a', { href: variant.rules, target: '_blank' }, 'Rules') : h('span', { class: 'muted' }, 'Rules page not written yet'), ' ',
        variant.insights ? [h('a', { href: variant.insights, target: '_blank' }, 'Insights'), ' '] : [],
        button),
      h('p', { class: 'learn-it' }, h('a', { href: `/learn#learn-${gameOf(variant.id)}`, 'data-learn-game': gameOf(variant.id) }, `New to ${SHORT_NAMES[gameOf(variant.id)] || variant.name}? Learn it in five minutes`)),
      form),
  );
}

/** A level's name, with its measured Elo in this game (random = 0) when there is one. */
function levelName(level, variantId) {
  const rating = level.ratings && level.ratings[variantId];
  return rating ? `${level.name} (${rating.elo} Elo)` : level.name;
}

function newGameForm(variant, levels) {
  const players = variant.players || ['first', 'second'];
  const options = optionInputs(variant);
  const opponent = h('select', { name: 'opponent' },
    h('option', { value: 'computer' }, 'the computer'),
    h('option', { value: 'friend' }, 'a friend (send a link)'),
    h('option', { value: 'local' }, 'both sides on this device'));
  const level = h('select', { name: 'level' }, levels.map((l) => h('option', { value: l.id, title: l.summary, selected: l.default }, levelName(l, variant.id))));
  const levelLabel = h('label', {}, 'Level ', level);
  opponent.addEventListener('change', () => { levelLabel.hidden = opponent.value !== 'computer'; });
  const colour = h('select', { name: 'colour' },
    h('option', { value: 'first' }, players[0]),
    h('option', { value: 'second' }, players[1]),
    h('option', { value: 'random' }, 'random'));
  const error = h('p', { class: 'error', hidden: true });
  const time = timeControlInputs();
  const form = h('form', { class: 'new-game' },
    options.length ? h('fieldset', {}, h('legend', {}, 'Options'), options) : null,
    h('label', {}, 'Play against ', opponent), ' ', levelLabel, ' ',
    h('label', {}, 'Your side ', colour), ' ',
    time.element, ' ',
    h('button', { type: 'submit', class: 'primary', 'data-start': variant.id }, 'Start'),
    error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const variantString = chosenVariant(form, variant);
    try {
      const created = await api.create({ variant: variantString, opponent: opponent.value, level: opponent.value === 'computer' ? level.value : undefined, colour: colour.value, clock: time.value() });
      const seat = created.secrets[created.you];
      myGames.save({ id: created.id, variant: variantString, name: variant.name, mode: created.mode, you: created.you, seat, secrets: created.secrets, created: Date.now() });
      location.href = `/g/${created.id}?seat=${encodeURIComponent(seat)}`;
    } catch (e) {
      showError(error, e);
    }
  });
  return form;
}
