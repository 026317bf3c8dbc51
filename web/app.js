// The Menagerie page: the home page (games, new game, your games) and the
// game page (board, moves, live updates). No rules live here: the server
// lists the legal move texts, and the page only maps clicks to them.

import { api, myGames, ApiError } from './api.js';
import { h, clear } from './dom.js';
import { downloadLink, importForm } from './records.js';
import { rendererFor, drawBoard, loadRenderers, hasOwnRenderer } from './games/index.js';

const root = document.getElementById('app');

function route() {
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9]+)\/?$/);
  if (match) {
    gamePage(match[1], new URLSearchParams(location.search).get('seat'));
  } else {
    homePage();
  }
}

function showError(where, error) {
  const message = error instanceof ApiError ? error.message : String(error && error.message ? error.message : error);
  where.textContent = message;
  where.hidden = false;
}

// ---------------------------------------------------------------- home

async function homePage() {
  document.title = 'Menagerie';
  clear(root);
  const yours = h('section', { class: 'yours' });
  const list = h('section', { class: 'variants' });
  root.append(yours, h('h2', {}, 'Games'), list, importForm());
  renderYourGames(yours);
  let data;
  try {
    data = await api.variants();
  } catch (error) {
    list.append(h('p', { class: 'error' }, `Cannot load the games: ${error.message}`));
    return;
  }
  if (!data.variants.length) list.append(h('p', {}, 'No games are registered in this build.'));
  await loadRenderers(data.variants.map((v) => v.id));
  for (const variant of data.variants) list.append(variantCard(variant, data.levels));
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
    ul.append(h('li', { 'data-game': game.id }, link, ' ', h('span', { class: 'muted' }, modeLabel(game.mode)), ' ', status, ' ', forget));
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
      h('p', {}, variant.rules ? h('a', { href: variant.rules, target: '_blank' }, 'Rules') : h('span', { class: 'muted' }, 'Rules page not written yet'), ' ', button),
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
  const options = variant.options.map((option) => {
    // An option naming data the server offers (a deck): one of its names;
    // the first is what the variant plays without the option.
    if (option.choices) {
      const select = h('select', { name: `opt-${option.name}`, 'data-option': option.name, 'data-valued': '1', 'data-default': option.choices[0] },
        option.choices.map((name) => h('option', { value: name }, name)));
      return h('label', { class: 'option' }, `${option.name} `, select, h('small', {}, ` ${option.summary}`));
    }
    if (option.value) {
      return h('label', { class: 'option' }, `${option.name} `, h('input', { name: `opt-${option.name}`, placeholder: option.value, 'data-option': option.name, 'data-valued': '1' }), h('small', {}, ` ${option.summary}`));
    }
    return h('label', { class: 'option' }, h('input', { type: 'checkbox', 'data-option': option.name }), ` ${option.name} `, h('small', {}, option.summary));
  });
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
  const form = h('form', { class: 'new-game' },
    options.length ? h('fieldset', {}, h('legend', {}, 'Options'), options) : null,
    h('label', {}, 'Play against ', opponent), ' ', levelLabel, ' ',
    h('label', {}, 'Your side ', colour), ' ',
    h('button', { type: 'submit', class: 'primary', 'data-start': variant.id }, 'Start'),
    error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = [];
    for (const input of form.querySelectorAll('[data-option]')) {
      if (input.dataset.valued) {
        const value = input.value.trim();
        if (value && value !== input.dataset.default) chosen.push(`${input.dataset.option}=${value}`);
      } else if (input.checked) {
        chosen.push(input.dataset.option);
      }
    }
    const variantString = chosen.length ? `${variant.id}:${chosen.join(',')}` : variant.id;
    try {
      const created = await api.create({ variant: variantString, opponent: opponent.value, level: opponent.value === 'computer' ? level.value : undefined, colour: colour.value });
      const seat = created.secrets[created.you];
      myGames.save({ id: created.id, variant: variantString, name: variant.name, mode: created.mode, you: created.you, seat, secrets: created.secrets, created: Date.now() });
      location.href = `/g/${created.id}?seat=${encodeURIComponent(seat)}`;
    } catch (e) {
      showError(error, e);
    }
  });
  return form;
}

// ---------------------------------------------------------------- game page

async function gamePage(id, seat) {
  clear(root);
  const page = new GamePage(id, seat);
  await page.start();
}

class GamePage {
  constructor(id, seat) {
    this.id = id;
    this.seat = seat;
    this.entry = myGames.get(id);
    this.state = null;
    this.viewing = null; // null: live; otherwise {ply, board, last_move, check}
    this.flip = false;
    this.path = []; // squares clicked so far towards a move
    this.busy = false;
    this.el = {};
  }

  /// The secret to act with: ours, or in a local game the acting side's.
  actingSeat() {
    const s = this.state;
    if (this.entry && this.entry.mode === 'local' && this.entry.secrets && s && s.to_act && this.entry.secrets[s.to_act]) {
      return this.entry.secrets[s.to_act];
    }
    return this.seat;
  }

  /// For the browser tests: the clicks that make some legal move, as
  /// {squares: [...]} (board clicks) or {button: text} (a move button).
  clickPlan() {
    const parsed = this.parsed || [];
    const onBoard = parsed.find((m) => m.tokens.length > 0);
    if (onBoard) {
      const names = squareNames(this.el.board);
      const squares = onBoard.tokens.map((t) => names.find((sq) => this.matches(t, sq)));
      if (squares.every(Boolean)) return { squares, move: onBoard.text };
    }
    const renderer = rendererFor(this.state.variant);
    const inPanel = (m) => renderer.inPanel && renderer.inPanel(m.text);
    const loose = parsed.find((m) => m.tokens.length === 0 && !inPanel(m));
    if (loose) return { button: loose.text };
    const panel = parsed.find(inPanel);
    return panel ? { panel: panel.text } : null;
  }

  async start() {
    window.menagerieGame = this;
    this.build();
    try {
      this.state = await api.game(this.id, this.seat);
    } catch (error) {
      clear(root).append(h('p', { class: 'error' }, `Cannot open this game: ${error.message}`), h('p', {}, h('a', { href: '/' }, 'Home')));
      return;
    }
    await loadRenderers([this.state.variant]);
    this.flip = this.state.you === 'second';
    if (this.entry && this.state.you) {
      this.entry.name = this.state.name;
      myGames.save(this.entry);
    } else if (this.seat && this.state.you && !this.entry) {
      // Opened from a friend's link: remember it.
      this.entry = { id: this.id, variant: this.state.variant, name: this.state.name, mode: this.state.mode, you: this.state.you, seat: this.seat, secrets: { [this.state.you]: this.seat }, created: Date.now() };
      myGames.save(this.entry);
    }
    if (this.entry && this.entry.mode === 'local' && this.entry.secrets) {
      // Both sides here: we act with whichever seat is to act.
      const acting = this.actingSeat();
      if (acting !== this.seat) this.state = await api.game(this.id, acting);
    }
    this.render();
    this.connect();
    document.addEventListener('keydown', (event) => this.onKey(event));
  }

  build() {
    const e = this.el;
    e.title = h('h2', { class: 'game-title' });
    e.players = h('div', { class: 'players' });
    e.banner = h('div', { class: 'banner', hidden: true, role: 'status' });
    e.status = h('div', { class: 'status-line', 'data-status': '' });
    e.board = h('div', { class: 'board', 'data-board': '' });
    e.counters = h('div', { class: 'counters muted', 'data-counters': '' });
    e.panel = h('div', { class: 'panel' });
    e.actions = h('div', { class: 'actions' });
    e.chooser = h('div', { class: 'chooser', hidden: true });
    e.error = h('p', { class: 'error', hidden: true });
    e.moves = h('ol', { class: 'moves', 'data-moves': '' });
    e.invite = h('div', { class: 'invite', hidden: true });
    e.nav = h('div', { class: 'nav' },
      h('button', { title: 'Start (Home)', 'data-nav': 'start', onclick: () => this.step('start') }, '|◀'),
      h('button', { title: 'Back (←)', 'data-nav': 'back', onclick: () => this.step('back') }, '◀'),
      h('button', { title: 'Forward (→)', 'data-nav': 'forward', onclick: () => this.step('forward') }, '▶'),
      h('button', { title: 'Now (End)', 'data-nav': 'end', onclick: () => this.step('end') }, '▶|'),
      h('button', { title: 'Flip the board (f)', 'data-flip': '', onclick: () => { this.flip = !this.flip; this.renderBoard(); } }, '⇅ Flip'));
    e.controls = h('div', { class: 'controls' });
    e.allMoves = h('details', { class: 'all-moves' });
    root.append(
      h('div', { class: 'game' },
        h('div', { class: 'left' }, e.title, e.players, e.banner, e.status, e.board, e.counters, e.chooser, e.actions),
        h('div', { class: 'right' }, e.nav, e.moves, e.controls, e.error, e.invite, e.panel, e.allMoves)),
    );
  }

  connect() {
    const open = () => {
      const socket = new WebSocket(api.socketUrl(this.id, this.actingSeatForSocket()));
      socket.onmessage = (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch (_) { return; }
        if (data.type === 'state') this.onState(data);
      };
      socket.onclose = () => { this.socket = null; setTimeout(open, 1500); };
      this.socket = socket;
    };
    open();
  }

  actingSeatForSocket() {
    return this.seat;
  }

  async onState(data) {
    if (this.state && data.version < this.state.version && data.ply <= this.state.ply) return;
    // In a local game, the state for the acting seat carries its legal moves
    // (and its own view in hidden-information games).
    if (this.entry && this.entry.mode === 'local' && this.entry.secrets && data.to_act && data.you !== data.to_act && this.entry.secrets[data.to_act]) {
      try { data = await api.game(this.id, this.entry.secrets[data.to_act]); } catch (_) { /* keep what we have */ }
    }
    const changed = !this.state || data.ply !== this.state.ply;
    this.state = data;
    if (changed) this.path = [];
    this.render();
  }

  render() {
    const s = this.state;
    const e = this.el;
    document.title = `${s.name} · Menagerie`;
    e.title.textContent = s.name;
    e.title.append(' ', h('code', {}, s.variant));
    clear(e.players);
    for (const side of ['first', 'second']) {
      const seat = s.seats[side];
      const who = seat.kind === 'computer' ? `computer (${seat.level})` : (s.you === side ? 'you' : (this.entry && this.entry.mode === 'local' ? 'you' : 'friend'));
      e.players.append(h('span', { class: `player ${side}${s.to_act === side ? ' to-act' : ''}` }, h('b', {}, seat.name), ` ${who}`));
    }
    // Result banner
    if (s.result) {
      e.banner.hidden = false;
      clear(e.banner).append(h('strong', { 'data-result': '' }, s.result.summary));
    } else {
      e.banner.hidden = true;
    }
    e.status.textContent = this.statusText();
    this.renderMoves();
    this.renderControls();
    this.renderInvite();
    this.renderBoard();
  }

  statusText() {
    const s = this.state;
    if (s.result) return '';
    if (this.viewing) return `Viewing after move ${this.viewing.ply} of ${s.ply} — press End to return`;
    const actor = s.to_act && s.seats[s.to_act] ? s.seats[s.to_act].name : s.to_act;
    const check = s.check ? ' — check!' : '';
    if (s.your_turn) return `Your move (${actor})${check}`;
    if (s.to_act && s.seats[s.to_act] && s.seats[s.to_act].kind === 'computer') return `The computer (${actor}) is thinking…${check}`;
    return `${actor} to move${check}`;
  }

  renderMoves() {
    const s = this.state;
    const e = this.el;
    clear(e.moves);
    const current = this.viewing ? this.viewing.ply : s.ply;
    for (const mv of s.moves) {
      const li = h('li', { class: `move ${mv.actor}${mv.ply === current ? ' current' : ''}`, 'data-ply': mv.ply, onclick: () => this.view(mv.ply) }, mv.text === null ? '(hidden)' : mv.text);
      e.moves.append(li);
    }
    const cur = e.moves.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  renderControls() {
    const s = this.state;
    const e = this.el;
    clear(e.controls);
    const mine = s.you !== null;
    if (!s.result && mine) {
      e.controls.append(h('button', { 'data-action': 'resign', onclick: () => { if (confirm('Resign this game?')) this.act(() => api.resign(this.id, this.actingSeat())); } }, 'Resign'));
      const offerBy = s.draw_offer;
      const me = this.entry && this.entry.mode === 'local' ? s.to_act : s.you;
      if (offerBy && offerBy !== me) {
        e.controls.append(
          h('span', { class: 'offer' }, `${s.seats[offerBy].name} offers a draw `),
          h('button', { 'data-action': 'accept-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'accept')) }, 'Accept'),
          h('button', { 'data-action': 'decline-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'decline')) }, 'Decline'));
      } else if (offerBy) {
        e.controls.append(h('span', { class: 'offer' }, 'Draw offered '), h('button', { onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'withdraw')) }, 'Withdraw'));
      } else {
        e.controls.append(h('button', { 'data-action': 'offer-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'offer')) }, 'Offer a draw'));
      }
    }
    if (s.result && mine) {
      e.controls.append(h('button', { class: 'primary', 'data-action': 'rematch', onclick: () => this.rematch() }, s.rematch ? 'Go to the rematch' : 'Rematch'));
    }
    e.controls.append(downloadLink(this.id), ' ', h('a', { href: '/', class: 'button' }, 'Home'));
  }

  renderInvite() {
    const e = this.el;
    const s = this.state;
    const entry = this.entry;
    if (!entry || entry.mode !== 'friend' || !entry.secrets || s.ply > 2) {
      e.invite.hidden = true;
      return;
    }
    const other = s.you === 'first' ? 'second' : 'first';
    const secret = entry.secrets[other];
    if (!secret) { e.invite.hidden = true; return; }
    const url = `${location.origin}/g/${this.id}?seat=${encodeURIComponent(secret)}`;
    const input = h('input', { readonly: true, value: url, 'data-invite': '', onclick: (ev) => ev.target.select() });
    clear(e.invite).append(h('p', {}, `Send this link to your friend (they play ${s.seats[other].name}):`), input,
      h('button', { onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, 'Copy'));
    e.invite.hidden = false;
  }

  /// The board shown: the live one or a past position.
  shown() {
    if (this.viewing) return { board: this.viewing.board, last: this.viewing.last_move, check: this.viewing.check };
    const s = this.state;
    const last = s.moves.length ? s.moves[s.moves.length - 1] : null;
    return { board: s.board, last, check: s.check };
  }

  legalMoves() {
    const s = this.state;
    if (this.viewing || s.result || !s.your_turn || !Array.isArray(s.legal_moves)) return [];
    return s.legal_moves;
  }

  renderBoard() {
    const e = this.el;
    const s = this.state;
    const shown = this.shown();
    const renderer = rendererFor(s.variant);
    clear(e.board);
    clear(e.actions);
    e.counters.textContent = countersText(shown.board);
    clear(e.panel);
    e.chooser.hidden = true;
    if (shown.board === null || shown.board === undefined) {
      e.board.append(h('p', { class: 'muted' }, 'No board to show for this position.'));
      return;
    }
    // First pass: draw to learn the square names, then work out highlights.
    this.drawError = hasOwnRenderer(s.variant) ? null : `no renderer of its own for ${s.variant}`;
    const onError = (error) => { this.drawError = String(error); };
    const baseCtx = { flip: this.flip, highlights: {}, you: s.you, state: s, onError };
    const probe = drawBoard(s.variant, shown.board, baseCtx);
    const squares = squareNames(probe);
    const moves = this.legalMoves();
    const tokensOf = (text) => (renderer.tokens ? renderer.tokens(text, squares, shown.board) : defaultTokens(text, squares));
    const matches = renderer.matches || ((token, square) => token === square);
    const parsed = moves.map((text) => ({ text, tokens: tokensOf(text), unordered: renderer.unordered ? renderer.unordered(text) : 0 }));
    this.parsed = parsed;
    this.matches = matches;
    const candidates = parsed.filter((m) => startsWithPath(m.tokens, this.path, matches, m.unordered));
    const targets = new Set();
    const selected = new Set(this.path);
    const depth = this.path.length;
    for (const m of candidates) {
      if (m.tokens.length > depth) {
        // Next squares: any not yet clicked of an unordered set, else the next one.
        const next = depth < m.unordered ? m.tokens.slice(0, m.unordered).filter((t) => !this.path.some((p) => matches(t, p))) : [m.tokens[depth]];
        for (const t of next) for (const sq of squares) if (matches(t, sq)) targets.add(sq);
      }
    }
    const last = new Set();
    if (shown.last && shown.last.text) for (const t of tokensOf(shown.last.text)) for (const sq of squares) if (matches(t, sq)) last.add(sq);
    const check = new Set();
    const ctx = { flip: this.flip, highlights: { selected, targets: this.path.length ? targets : new Set(), last, check }, you: s.you, state: s, movable: depth === 0 ? targets : null, onError };
    const board = depth === 0 && !last.size ? probe : drawBoard(s.variant, shown.board, ctx);
    e.board.append(board);
    this.attachBoard(board);
    // Moves that do not name squares (pass, end the turn, play a card...).
    const loose = parsed.filter((m) => m.tokens.length === 0 && !(renderer.inPanel && renderer.inPanel(m.text)));
    if (loose.length) {
      e.actions.append(h('span', { class: 'muted' }, 'Moves: '));
      for (const m of loose) e.actions.append(h('button', { 'data-move': m.text, class: 'move-button', onclick: () => this.play(m.text) }, renderer.label ? renderer.label(m.text, shown.board) : m.text));
    }
    // Game-specific extras (hands, energy, battles, cards to play).
    if (renderer.panel) {
      try {
        const history = this.viewing ? s.moves.slice(0, this.viewing.ply) : s.moves;
        const extra = renderer.panel(shown.board, { ...ctx, moves, history, play: (text) => this.play(text) });
        if (extra) e.panel.append(extra);
        this.panelError = null;
      } catch (error) {
        // Shown, not hidden: a panel that fails is a bug to see (the browser tests check).
        this.panelError = String(error);
        e.panel.append(h('p', { class: 'error', 'data-panel-error': '' }, `This panel failed to draw: ${error}`));
      }
    }
    // Every legal move as a list: nothing is ever unplayable.
    clear(e.allMoves);
    if (moves.length) {
      e.allMoves.append(h('summary', {}, `All legal moves (${moves.length})`));
      const ul = h('div', { class: 'move-list' });
      for (const text of moves) ul.append(h('button', { 'data-any-move': text, onclick: () => this.play(text) }, text));
      e.allMoves.append(ul);
    }
  }

  attachBoard(board) {
    let downOn = null;
    board.addEventListener('pointerdown', (event) => {
      const sq = event.target.closest && event.target.closest('[data-square]');
      downOn = sq ? sq.getAttribute('data-square') : null;
      if (downOn) {
        this.click(downOn);
        event.preventDefault();
      }
    });
    board.addEventListener('pointerup', (event) => {
      // Drag: released over another square than pressed = a second click.
      const target = document.elementFromPoint(event.clientX, event.clientY);
      const sq = target && target.closest && target.closest('[data-square]');
      const upOn = sq ? sq.getAttribute('data-square') : null;
      if (downOn && upOn && upOn !== downOn) this.click(upOn);
      downOn = null;
    });
  }

  click(square) {
    if (this.viewing) { this.step('end'); return; }
    const parsed = this.parsed || [];
    const matches = this.matches;
    let path = [...this.path, square];
    let candidates = parsed.filter((m) => startsWithPath(m.tokens, path, matches, m.unordered));
    if (!candidates.length) {
      path = [square];
      candidates = parsed.filter((m) => startsWithPath(m.tokens, path, matches, m.unordered));
    }
    if (!candidates.length) {
      this.path = [];
      this.renderBoard();
      return;
    }
    const complete = candidates.filter((m) => m.tokens.length === path.length);
    if (complete.length === candidates.length && complete.length === 1) {
      this.path = [];
      this.play(complete[0].text);
      return;
    }
    this.path = path;
    this.renderBoard();
    if (complete.length && complete.length === candidates.length) {
      // Several moves share these squares (promotions, which piece of a pair...): ask.
      this.choose(complete.map((m) => m.text));
    } else if (complete.length) {
      // Some moves end here, others go on: offer those that end here.
      this.choose(complete.map((m) => m.text), true);
    }
  }

  choose(texts, optional = false) {
    const e = this.el;
    const renderer = rendererFor(this.state.variant);
    clear(e.chooser).append(h('span', {}, optional ? 'Or stop here: ' : 'Which move? '));
    for (const text of texts) e.chooser.append(h('button', { 'data-choice': text, onclick: () => { this.path = []; this.play(text); } }, renderer.label ? renderer.label(text, this.state.board) : text));
    e.chooser.append(h('button', { class: 'link', onclick: () => { this.path = []; this.renderBoard(); } }, 'cancel'));
    e.chooser.hidden = false;
  }

  async play(text) {
    if (this.busy) return;
    this.busy = true;
    this.el.error.hidden = true;
    try {
      const state = await api.play(this.id, this.actingSeat(), text, this.state.ply);
      this.busy = false;
      await this.onState(state);
      this.render();
    } catch (error) {
      this.busy = false;
      showError(this.el.error, error);
      this.path = [];
      try { await this.onState(await api.game(this.id, this.actingSeat())); } catch (_) { /* offline */ }
    }
  }

  async act(call) {
    this.el.error.hidden = true;
    try {
      await this.onState(await call());
    } catch (error) {
      showError(this.el.error, error);
    }
  }

  async rematch() {
    try {
      const created = await api.rematch(this.id, this.actingSeat());
      const seat = created.secrets[created.you];
      myGames.save({ id: created.id, variant: this.state.variant, name: this.state.name, mode: created.mode, you: created.you, seat, secrets: created.secrets, created: Date.now() });
      location.href = `/g/${created.id}?seat=${encodeURIComponent(seat)}`;
    } catch (error) {
      showError(this.el.error, error);
    }
  }

  async view(ply) {
    const s = this.state;
    if (ply >= s.ply) {
      this.viewing = null;
    } else {
      try {
        this.viewing = await api.position(this.id, Math.max(0, ply), this.actingSeat());
      } catch (error) {
        showError(this.el.error, error);
        return;
      }
    }
    this.path = [];
    this.el.status.textContent = this.statusText();
    this.renderMoves();
    this.renderBoard();
  }

  step(where) {
    const s = this.state;
    if (!s) return;
    const current = this.viewing ? this.viewing.ply : s.ply;
    const target = { start: 0, back: current - 1, forward: current + 1, end: s.ply }[where];
    if (target === undefined || target < 0 || target > s.ply) return;
    this.view(target);
  }

  onKey(event) {
    if (event.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName)) return;
    const keys = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end', ArrowUp: 'start', ArrowDown: 'end' };
    if (keys[event.key]) {
      event.preventDefault();
      this.step(keys[event.key]);
    } else if (event.key === 'f') {
      this.flip = !this.flip;
      this.renderBoard();
    } else if (event.key === 'Escape') {
      this.path = [];
      this.renderBoard();
    }
  }
}

/// The view's counters in words (`turn 12 · halfmove clock 3`): the common
/// part of every game's view (docs/api.md), so no game needs its own code.
function countersText(board) {
  const c = (board && board.counters) || {};
  const parts = [];
  if (c.turn !== null && c.turn !== undefined) parts.push(`turn ${c.turn}`);
  if (c.halfmove_clock !== null && c.halfmove_clock !== undefined) parts.push(`halfmove clock ${c.halfmove_clock}`);
  if (c.quiet_turns !== null && c.quiet_turns !== undefined) parts.push(`quiet turns ${c.quiet_turns}`);
  return parts.join(' · ');
}

/// The square names a drawn board offers (elements with data-square).
function squareNames(element) {
  return [...element.querySelectorAll('[data-square]')].map((el) => el.getAttribute('data-square'));
}

/// The squares a move text names, in order: the longest square name at
/// each position of the text (no rules, only names).
export function defaultTokens(text, squares) {
  const names = [...new Set(squares)].sort((a, b) => b.length - a.length);
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const found = names.find((name) => name.length && text.startsWith(name, i));
    if (found) {
      tokens.push(found);
      i += found.length;
    } else {
      i += 1;
    }
  }
  return tokens;
}

/// Whether the clicked `path` is a beginning of the move's squares. The
/// first `unordered` squares (a set, like the Blanks of a Kelasu merge) may
/// be clicked in any order.
function startsWithPath(tokens, path, matches, unordered = 0) {
  if (tokens.length < path.length) return false;
  const used = new Set();
  for (let i = 0; i < path.length; i++) {
    if (i < unordered) {
      const j = tokens.findIndex((t, k) => k < unordered && !used.has(k) && matches(t, path[i]));
      if (j < 0) return false;
      used.add(j);
    } else if (!matches(tokens[i], path[i])) {
      return false;
    }
  }
  return true;
}

route();
