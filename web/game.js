// The game page: the board, the players and their clocks, the move list,
// what you must do now, and the game's own panel. No rules live here: the
// server lists the legal move texts, and the page maps clicks and drags to
// them (a move is the sequence of cells its text names).

import { api, myGames, ApiError, tournamentGames } from './api.js';
import { h, clear, fill } from './dom.js';
import { rendererFor, drawBoard, loadRenderers, hasOwnRenderer } from './games/index.js';
import { attachInput } from './input.js';
import { NARROW } from './board.js';
import { moveList } from './movelist.js';
import { sound } from './sound.js';
import { icon } from './icons.js';
import { syncTime, timeLeft, formatTime, describeControl } from './clock.js';
import { downloadLink } from './records.js';
import { ratingText } from './ratings.js';
import { GameReview } from './review.js';
import { frameCells } from './marks.js';

/// An account at a seat: its name linking to its profile, its rating
/// (`1500?` while provisional) and, once a rated game ended, the change.
function accountLabel(account, you) {
  const change = Number.isFinite(account.diff)
    ? h('span', { class: `rating-diff ${account.diff > 0 ? 'up' : account.diff < 0 ? 'down' : ''}`, 'data-rating-diff': account.diff }, ` ${account.diff > 0 ? '+' : ''}${account.diff}`)
    : null;
  return [
    account.closed
      ? h('span', { class: 'player-link' }, account.username)
      : h('a', { href: `/@/${encodeURIComponent(account.username)}`, class: 'player-link', 'data-player-username': account.username }, account.username),
    you ? ' (you)' : null,
    Number.isFinite(account.rating) ? h('span', { class: 'player-rating', 'data-player-rating': account.rating }, ` ${ratingText({ rating: account.rating, prov: account.prov })}`) : null,
    change,
  ];
}

function message(error) {
  return error instanceof ApiError ? error.message : String(error && error.message ? error.message : error);
}

/// How often a seat whose opponent must move asks whether it left.
const ABANDONED_EVERY_MS = 5000;

export async function gamePage(root, id, seat) {
  clear(root);
  const page = new GamePage(root, id, seat);
  await page.start();
}

class GamePage {
  constructor(root, id, seat) {
    this.root = root;
    this.id = id;
    this.seat = seat;
    this.entry = myGames.get(id);
    this.state = null;
    this.viewing = null; // null: live; otherwise {ply, board, last_move, check}
    this.positions = new Map(); // ply -> position, for stepping through the game
    this.flip = false;
    this.path = []; // cells clicked so far towards a move
    this.choosing = null; // {texts, optional}: several moves share the clicked cells
    this.busy = false;
    this.el = {};
    this.sound = sound; // for the browser tests: sound.last
  }

  /// The secret to act with: ours, or in a local game the acting side's.
  actingSeat() {
    const s = this.state;
    if (this.entry && this.entry.mode === 'local' && this.entry.secrets && s && s.to_act && this.entry.secrets[s.to_act]) {
      return this.entry.secrets[s.to_act];
    }
    return this.seat;
  }

  renderer() {
    return rendererFor(this.state.variant);
  }

  /// For the browser tests: the cells that make some legal move, as
  /// {squares: [...]} (board cells) or {button: text} / {panel: text};
  /// moves of two cells or more first (they can be made by a drag).
  clickPlan(filter) {
    const parsed = (this.parsed || []).filter((m) => !filter || filter(m.text));
    const onBoard = parsed.find((m) => m.tokens.length > 1) || parsed.find((m) => m.tokens.length > 0);
    if (onBoard) {
      const names = squareNames(this.el.board);
      const squares = onBoard.tokens.map((t) => names.find((sq) => this.matches(t, sq)));
      if (squares.every(Boolean)) return { squares, move: onBoard.text };
    }
    const renderer = this.renderer();
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
      clear(this.root).append(h('p', { class: 'error' }, `Cannot open this game: ${message(error)}`), h('p', {}, h('a', { href: '/' }, 'Home')));
      return;
    }
    await this.loadPlayers();
    await loadRenderers([this.state.variant]);
    const atTop = !!this.renderer().firstAtTop;
    this.flip = atTop ? this.state.you !== 'second' : this.state.you === 'second';
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
    // A board drawn for a phone is drawn again when the window widens (and back).
    NARROW.addEventListener('change', () => this.renderBoard());
    window.addEventListener('resize', () => this.fitDecisions());
    syncTime().then(() => this.tick());
    setInterval(() => this.tick(), 100);
    setInterval(() => this.checkAbandoned(), ABANDONED_EVERY_MS);
  }

  /// Whether the opponent left a live game that waits for it: then this
  /// seat may claim the win or a draw (docs/api.md, "Abandonment").
  async checkAbandoned() {
    const s = this.state;
    const e = this.el;
    const waiting = s && !s.result && s.you !== null && !s.your_turn && s.to_act && s.to_act !== s.you
      && s.mode === 'friend' && !(s.clock && s.clock.days);
    let claimable = false;
    if (waiting) claimable = (await api.claimable(this.id, this.seat).catch(() => ({}))).claimable === true;
    if (!claimable || this.state !== s) {
      const shown = !e.abandoned.hidden;
      e.abandoned.hidden = true;
      if (shown) this.fitDecisions();
      return;
    }
    if (!e.abandoned.hidden) return;
    const account = this.seatAccount(s.to_act);
    const gone = account ? account.username : capitalised((s.seats[s.to_act] && s.seats[s.to_act].name) || 'your opponent');
    clear(e.abandoned);
    e.abandoned.append(h('span', {}, `${gone} left the game.`),
      h('button', { class: 'primary', 'data-action': 'claim-win', onclick: () => this.act(() => api.claim(this.id, this.seat, 'win')) }, 'Claim victory'),
      h('button', { 'data-action': 'claim-draw', onclick: () => this.act(() => api.claim(this.id, this.seat, 'draw')) }, 'Call it a draw'));
    e.abandoned.hidden = false;
    this.fitDecisions();
  }

  /// The accounts holding the seats, by username (none: anonymous players),
  /// with their ratings in this game's variant.
  async loadPlayers() {
    this.players = await api.players(this.id).catch(() => ({}));
    // Opened: its tournament's page does not send the player here again.
    if (this.players.tournament) tournamentGames.remember(this.id);
  }

  /// The account at `side`, if any: `{ username, rating, prov, diff }`
  /// (`rating` before the game once a rated game ended, `diff` its change;
  /// docs/api.md, `GET /api/games/<id>/players`).
  seatAccount(side) {
    const players = this.players || {};
    const shown = (players.seats && players.seats[side]) || {};
    const username = shown.username || (typeof players[side] === 'string' ? players[side] : null);
    if (!username) return null;
    return { username, rating: shown.rating, prov: shown.provisional, diff: shown.ratingDiff, closed: username === 'closed account' };
  }

  /// Redraws the clocks' times (the server decides when a flag falls).
  tick() {
    const s = this.state;
    if (!s || !s.clock) return;
    for (const el of this.root.querySelectorAll('[data-clock]')) {
      const side = el.getAttribute('data-clock');
      const left = s.result ? (side === 'first' ? s.clock.first_ms : s.clock.second_ms) : timeLeft(s.clock, side);
      el.textContent = formatTime(left, s.clock);
      const low = !s.clock.days && left < Math.min(20000, (s.clock.initial_ms || 0) / 10 + 1000);
      el.classList.toggle('low', low);
      el.classList.toggle('running', !s.result && s.clock.running === side);
    }
  }

  build() {
    const e = this.el;
    e.title = h('h1', { class: 'game-title' });
    e.rules = h('a', { class: 'rules-link', target: '_blank', 'data-rules': '' }, 'Rules');
    e.learn = h('a', { class: 'rules-link', 'data-learn-link': '' }, 'Learn');
    e.helpBody = h('div', { class: 'help-body', 'data-help': '' });
    e.help = h('details', { class: 'help' }, h('summary', { 'data-help-toggle': '' }, 'How to move'), e.helpBody);
    e.sound = h('button', { class: 'icon sound-toggle', 'data-sound': '', onclick: () => { sound.setEnabled(!sound.enabled()); sound.unlock(); this.renderSoundButton(); } });
    e.tournament = h('a', { class: 'tournament-link', hidden: true });
    e.head = h('header', { class: 'g-head' }, e.title, h('div', { class: 'g-links' }, e.tournament, e.rules, e.learn, e.help, e.sound));
    e.top = h('div', { class: 'g-player g-top' });
    e.bottom = h('div', { class: 'g-player g-bottom' });
    e.board = h('div', { class: 'g-board', 'data-board': '' });
    e.positionLabel = h('span', { class: 'position-label', 'data-position-label': '' });
    e.nav = h('div', { class: 'nav' },
      h('button', { title: 'First position (Home)', 'aria-label': 'first position', 'data-nav': 'start', onclick: () => this.step('start') }, icon('first')),
      h('button', { title: 'Back (←)', 'aria-label': 'back', 'data-nav': 'back', onclick: () => this.step('back') }, icon('back')),
      e.positionLabel,
      h('button', { title: 'Forward (→)', 'aria-label': 'forward', 'data-nav': 'forward', onclick: () => this.step('forward') }, icon('forward')),
      h('button', { title: 'Now (End)', 'aria-label': 'now', 'data-nav': 'end', onclick: () => this.step('end') }, icon('last')));
    e.moveRows = h('div', { class: 'move-scroll' });
    e.moves = h('div', { class: 'g-moves' }, e.nav, e.moveRows);
    e.status = h('div', { class: 'status-line', 'data-status': '', role: 'status' });
    e.result = h('div', { class: 'result-panel', hidden: true });
    e.offer = h('div', { class: 'offer', hidden: true });
    e.abandoned = h('div', { class: 'offer', hidden: true, 'data-abandoned': '' });
    e.chooser = h('div', { class: 'chooser', hidden: true, 'data-chooser': '' });
    e.actions = h('div', { class: 'actions' });
    e.gameNow = h('div', { class: 'game-now' });
    e.error = h('p', { class: 'error', hidden: true, 'data-error': '' });
    e.restarting = h('p', { class: 'muted', hidden: true, role: 'status', 'data-restarting': '' }, 'The server is restarting: reconnecting…');
    e.invite = h('div', { class: 'invite', hidden: true });
    e.gameAfter = h('div', { class: 'game-now' });
    e.now = h('section', { class: 'g-now', 'data-now': '' }, e.restarting, e.result, e.status, e.offer, e.abandoned, e.gameNow, e.chooser, e.actions, e.gameAfter, e.error, e.invite);
    e.controls = h('div', { class: 'g-controls' });
    e.counters = h('div', { class: 'counters muted', 'data-counters': '' });
    e.panel = h('div', { class: 'panel' });
    e.allMoves = h('details', { class: 'all-moves', hidden: true });
    this.review = new GameReview(this);
    e.below = h('section', { class: 'g-below' }, this.review.element, e.counters, e.panel, e.allMoves);
    e.page = h('div', { class: 'game' }, e.head, e.top, e.board, e.bottom, e.moves, e.now, e.controls, e.below);
    this.root.append(e.page);
    attachInput(e.board, this);
  }

  connect() {
    const open = () => {
      const socket = new WebSocket(api.socketUrl(this.id, this.seat));
      socket.onmessage = (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch (_) { return; }
        if (data.type === 'state') this.onState(data);
      };
      socket.onopen = () => { this.el.restarting.hidden = true; syncTime(); };
      socket.onclose = (event) => {
        this.socket = null;
        // 1012: the server is restarting (a node stopping gracefully); it,
        // or another node, answers again in a moment. The notice stays
        // until a socket opens again.
        if (event.code === 1012) this.el.restarting.hidden = false;
        setTimeout(open, event.code === 1012 ? 500 : 1500);
      };
      this.socket = socket;
    };
    open();
  }

  /// Whether a state from the server says something new. Versions only
  /// grow (even across restarts), so an older one is stale, even when its
  /// ply is higher: a move that was taken back since. The same state again
  /// (the socket's first message) has nothing to redraw, and a half-made
  /// choice (picked cards, a selected piece) stays. A seat joining (its
  /// player opened the game) is news without a new version: it is presence,
  /// not a change to the game.
  isNews(data) {
    const s = this.state;
    if (!s) return true;
    if (data.version < s.version) return false;
    const joined = (state) => ['first', 'second'].map((seat) => Boolean(state.seats?.[seat]?.joined)).join();
    return !(data.version === s.version && data.you === s.you && data.ply === s.ply && joined(data) === joined(s));
  }

  async onState(data) {
    if (!this.isNews(data)) return;
    // In a local game, the state for the acting seat carries its legal moves
    // (and its own view in hidden-information games).
    if (this.entry && this.entry.mode === 'local' && this.entry.secrets && data.to_act && data.you !== data.to_act && this.entry.secrets[data.to_act]) {
      try { data = await api.game(this.id, this.entry.secrets[data.to_act]); } catch (_) { /* keep what we have */ }
      // Another state may have come while we asked (a takeback): keep the newer.
      if (!this.isNews(data)) return;
    }
    const before = this.state;
    const changed = !before || data.ply !== before.ply;
    this.state = data;
    // The end of a rated game changes the ratings: ask for them again.
    if (before && !before.result && data.result) await this.loadPlayers();
    if (changed) {
      this.path = [];
      this.choosing = null;
      if (before && data.ply > before.ply) this.playSound(before, data);
      if (before && data.ply < before.ply) this.positions.clear();
    } else if (before && !before.result && data.result) {
      sound.play('end');
    }
    this.render();
  }

  /// The sound of what just happened: the end, a check, a capture or a move.
  playSound(before, after) {
    if (after.result && !before.result) { sound.play('end'); return; }
    const played = after.moves.slice(before.ply).filter((m) => m.actor !== 'chance' && m.text);
    const last = played[played.length - 1];
    if (!last) return;
    if (after.check) { sound.play('check'); return; }
    const renderer = this.renderer();
    const capture = played.some((m) => renderer.isCapture && renderer.isCapture(m.text, before.board));
    sound.play(capture ? 'capture' : 'move');
  }

  unlock() {
    sound.unlock();
  }

  render() {
    const s = this.state;
    document.title = `${s.name} · Menagerie`;
    this.renderHead();
    this.renderPlayers();
    this.renderMoves();
    this.renderControls();
    this.renderBoard();
    this.review.update();
  }

  renderHead() {
    const s = this.state;
    const e = this.el;
    const rated = this.players && this.players.rated;
    fill(e.title, s.name, ' ', h('code', {}, s.variant), rated ? h('span', { class: 'badge rated', 'data-rated-game': '' }, 'rated') : null);
    const tournament = this.players && this.players.tournament;
    e.tournament.hidden = !tournament;
    if (tournament) {
      e.tournament.href = `/tournament/${encodeURIComponent(tournament.id)}`;
      e.tournament.setAttribute('data-tournament-link', tournament.id);
      e.tournament.title = `Back to ${tournament.name}`;
      e.tournament.textContent = tournament.name;
    }
    e.rules.href = `/rules/${encodeURIComponent(s.variant.split(':')[0])}`;
    e.learn.href = `/learn#learn-${encodeURIComponent(s.variant.split(':')[0].split('-')[0])}`;
    const help = this.renderer().help || ['Click a piece, then where it goes, or drag it there. Moves that name no square are buttons beside the board.'];
    fill(e.helpBody, ...help.map((line) => h('p', {}, line)), h('p', { class: 'muted' }, 'Keys: ← → step through the game, Home/End jump, f flips the board, Esc cancels a selection.'));
    this.renderSoundButton();
  }

  renderSoundButton() {
    const on = sound.enabled();
    fill(this.el.sound, icon(on ? 'soundOn' : 'soundOff'));
    this.el.sound.title = on ? 'Sound on (click to mute)' : 'Sound off (click to turn on)';
    this.el.sound.setAttribute('aria-pressed', String(on));
  }

  /// Which side sits at the bottom of the board as drawn.
  bottomSide() {
    const atTop = !!this.renderer().firstAtTop;
    return (atTop ? !this.flip : this.flip) ? 'second' : 'first';
  }

  renderPlayers() {
    const s = this.state;
    const bottom = this.bottomSide();
    const top = bottom === 'first' ? 'second' : 'first';
    for (const [el, side] of [[this.el.top, top], [this.el.bottom, bottom]]) {
      const seat = s.seats[side];
      const local = this.entry && this.entry.mode === 'local';
      // The other person: the name they go by in the lobby, if the game started there.
      const other = this.entry && this.entry.opponent ? this.entry.opponent : 'your friend';
      const you = s.you === side || local;
      const title = this.players && this.players.titles && this.players.titles[side];
      const account = this.seatAccount(side);
      const who = seat.kind === 'computer' ? `computer · ${seat.level}` : account ? [title ? h('span', { class: 'player-title', 'data-player-title': title }, `${title} `) : null, accountLabel(account, you)] : (you ? 'you' : (s.you ? other : 'player'));
      const acting = !s.result && (s.to_act === side || (this.onTurn() === side && s.to_act !== 'chance'));
      el.className = `g-player g-${el === this.el.top ? 'top' : 'bottom'}${acting ? ' to-act' : ''}${s.result && s.result.winner === side ? ' winner' : ''}`;
      el.setAttribute('data-player', side);
      fill(el,
        h('span', { class: `swatch side-${seat.name}` }),
        h('span', { class: 'player-name' }, h('b', {}, seat.name), ' ', h('span', { class: 'muted' }, who)),
        h('span', { class: 'turn-flag' }, acting ? (s.to_act === side ? (s.your_turn && (s.you === side || local) ? 'your move' : 'to move') : 'on turn') : ''),
        s.clock ? h('span', { class: 'clock', 'data-clock': side, title: describeControl(s.clock) }) : null,
      );
    }
    this.tick();
  }

  /// Whose turn it is (in Lunch Chess the other side may be answering).
  onTurn() {
    const board = this.state.board;
    if (board && typeof board.on_turn === 'string') {
      const names = this.state.seats;
      return Object.keys(names).find((side) => names[side].name === board.on_turn) || null;
    }
    return this.state.to_act;
  }

  statusText() {
    const s = this.state;
    if (s.result) return '';
    if (this.viewing) return `Viewing move ${this.viewing.ply} of ${s.ply}. Press End (or ⏭) to return to the game.`;
    const actor = s.to_act && s.seats[s.to_act] ? s.seats[s.to_act].name : s.to_act;
    const check = s.check ? ' Check!' : '';
    const forced = this.forcedPass();
    if (forced) return `Nothing to decide (${actor}): ${forced.label}.`;
    if (s.your_turn) return `Your move (${actor}).${check}`;
    if (s.to_act && s.seats[s.to_act] && s.seats[s.to_act].kind === 'computer') return `The computer (${actor}) is thinking…${check}`;
    if (s.to_act === 'chance') return 'Dealing…';
    return `${capitalised(actor)} to move.${check}`;
  }

  renderMoves() {
    const s = this.state;
    const e = this.el;
    const current = this.viewing ? this.viewing.ply : s.ply;
    const renderer = this.renderer();
    clear(e.moveRows).append(moveList(s.moves, { current, onPick: (ply) => this.view(ply), shortOf: renderer.short ? (text) => renderer.short(text, s.board) : null, names: { first: s.seats.first.name, second: s.seats.second.name }, glyphs: this.review ? this.review.glyphs() : null }));
    e.positionLabel.textContent = s.ply ? `move ${current} of ${s.ply}` : 'no moves yet';
    const cur = e.moveRows.querySelector('.current');
    if (cur) {
      // Keep the current move in view inside the list only (never scroll the page).
      const box = e.moveRows;
      const top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      const left = cur.offsetLeft - box.offsetLeft;
      if (left < box.scrollLeft || left > box.scrollLeft + box.clientWidth - cur.offsetWidth) box.scrollLeft = Math.max(0, left - box.clientWidth / 2);
    } else {
      e.moveRows.scrollTop = e.moveRows.scrollHeight;
    }
  }

  me() {
    const s = this.state;
    return this.entry && this.entry.mode === 'local' ? s.to_act : s.you;
  }

  renderControls() {
    const s = this.state;
    const e = this.el;
    clear(e.controls);
    clear(e.offer);
    e.offer.hidden = true;
    if (s.result || s.your_turn) e.abandoned.hidden = true;
    const mine = s.you !== null;
    if (!s.result && mine) {
      e.controls.append(h('button', { 'data-action': 'resign', onclick: () => { if (confirm('Resign this game?')) this.act(() => api.resign(this.id, this.actingSeat())); } }, 'Resign'));
      const offerBy = s.draw_offer;
      if (offerBy && offerBy !== this.me()) {
        // The other side asks: an answer is wanted now.
        e.offer.append(h('span', {}, `${s.seats[offerBy].name} offers a draw.`),
          h('button', { class: 'primary', 'data-action': 'accept-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'accept')) }, 'Accept'),
          h('button', { 'data-action': 'decline-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'decline')) }, 'Decline'));
        e.offer.hidden = false;
      } else if (offerBy) {
        e.controls.append(h('button', { 'data-action': 'withdraw-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'withdraw')) }, 'Withdraw the draw offer'));
      } else {
        e.controls.append(h('button', { 'data-action': 'offer-draw', onclick: () => this.act(() => api.draw(this.id, this.actingSeat(), 'offer')) }, 'Offer a draw'));
      }
      this.takebackControls();
    }
    e.controls.append(
      h('button', { title: 'Flip the board (f)', 'data-flip': '', onclick: () => this.toggleFlip() }, icon('flip'), ' Flip'),
      ' ', downloadLink(this.id));
    // While hidden cards are in play, only the seat to act may study its position now.
    if (!s.hidden_information || s.result || s.your_turn) {
      e.controls.append(' ', h('button', { 'data-action': 'analyse', title: 'Study the position shown on the analysis board', onclick: () => { location.href = this.analysisUrl(); } }, 'Analyse'));
    }
  }

  /// The analysis board at the position shown, as this viewer sees it.
  analysisUrl() {
    const s = this.state;
    const ply = this.viewing && !(s.hidden_information && !s.result) ? this.viewing.ply : s.ply;
    const seat = this.actingSeat();
    return `/analysis?game=${encodeURIComponent(this.id)}&ply=${ply}${seat ? `&seat=${encodeURIComponent(seat)}` : ''}`;
  }

  /// Taking back a move: asked for like a draw, answered by the other side
  /// (at once by the computer below "hard"). On one device, the player who
  /// moved last asks and the other answers from the same page. When the
  /// state says that side may not ask (the computer's level, or cards
  /// drawn since: docs/api.md), the button stays, disabled, with the reason.
  takebackControls() {
    const s = this.state;
    const e = this.el;
    const local = this.entry && this.entry.mode === 'local' && this.entry.secrets;
    const lastMover = [...s.moves].reverse().find((m) => m.actor !== 'chance');
    const offerBy = s.takeback_offer;
    const refusal = (side) => {
      const status = s.takeback && s.takeback[side];
      return status && !status.allowed ? status.reason : null;
    };
    if (local) {
      if (!lastMover) return;
      const why = refusal(lastMover.actor);
      if (why) return this.takebackRefused(why);
      e.controls.append(h('button', { 'data-action': 'takeback', title: 'Take back the last move', onclick: () => this.act(async () => {
        const asker = this.entry.secrets[lastMover.actor];
        const other = this.entry.secrets[lastMover.actor === 'first' ? 'second' : 'first'];
        await api.takeback(this.id, asker, 'offer');
        return api.takeback(this.id, other, 'accept');
      }) }, 'Take back'));
      return;
    }
    const mine = s.moves.some((m) => m.actor === s.you);
    const why = mine && refusal(s.you);
    if (offerBy && offerBy !== s.you) {
      e.offer.append(h('span', {}, `${capitalised(s.seats[offerBy].name)} asks to take back a move.`),
        h('button', { class: 'primary', 'data-action': 'accept-takeback', onclick: () => this.act(() => api.takeback(this.id, this.seat, 'accept')) }, 'Accept'),
        h('button', { 'data-action': 'decline-takeback', onclick: () => this.act(() => api.takeback(this.id, this.seat, 'decline')) }, 'Decline'));
      e.offer.hidden = false;
    } else if (offerBy) {
      e.controls.append(h('button', { 'data-action': 'withdraw-takeback', onclick: () => this.act(() => api.takeback(this.id, this.seat, 'withdraw')) }, 'Withdraw the takeback'));
    } else if (why) {
      this.takebackRefused(why);
    } else if (mine) {
      e.controls.append(h('button', { 'data-action': 'takeback', title: 'Ask to take back your last move', onclick: () => this.act(() => api.takeback(this.id, this.seat, 'offer')) }, 'Take back'));
    }
  }

  /// The Take back button, disabled, and why (under the controls).
  takebackRefused(reason) {
    this.el.controls.append(
      h('button', { 'data-action': 'takeback', disabled: true, title: capitalised(reason) }, 'Take back'),
      h('span', { class: 'takeback-why muted', 'data-takeback-reason': '' }, `${capitalised(reason)}.`));
  }

  toggleFlip() {
    this.flip = !this.flip;
    this.renderPlayers();
    this.renderBoard();
  }

  renderResult() {
    const s = this.state;
    const e = this.el;
    if (!s.result) {
      e.result.hidden = true;
      return;
    }
    const mine = s.you !== null;
    // A tournament game has no rematch: the tournament pairs the next one.
    const tournament = this.players && this.players.tournament;
    const after = tournament
      ? h('a', { class: 'button primary', href: `/tournament/${encodeURIComponent(tournament.id)}`, 'data-back-to-tournament': '' }, 'Back to the tournament')
      : mine ? h('button', { class: 'primary', 'data-action': 'rematch', onclick: () => this.rematch() }, s.rematch ? 'Go to the rematch' : 'Rematch') : null;
    fill(e.result, h('strong', { 'data-result': '' }, s.result.summary), after);
    e.result.hidden = false;
  }

  renderInvite() {
    const e = this.el;
    const s = this.state;
    const entry = this.entry;
    // Shown to the creator until the friend has opened the game (or moved),
    // however many moves the game made on its own before (a deal).
    const other = s.you === 'first' ? 'second' : 'first';
    const secret = entry && entry.mode === 'friend' && entry.secrets ? entry.secrets[other] : null;
    if (!secret || s.seats[other].joined || s.result) {
      e.invite.hidden = true;
      return;
    }
    const url = `${location.origin}/g/${this.id}?seat=${encodeURIComponent(secret)}`;
    const input = h('input', { readonly: true, value: url, 'data-invite': '', onclick: (ev) => ev.target.select() });
    fill(e.invite, h('p', {}, `Send this link to your friend (they play ${s.seats[other].name}):`), input,
      h('button', { onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, 'Copy'));
    e.invite.hidden = false;
  }

  /// The board shown: the live one or a past position (each view says
  /// whether the side to move stands in check, after the end too).
  shown() {
    if (this.viewing) return { board: this.viewing.board, last: this.viewing.last_move };
    const s = this.state;
    const last = [...s.moves].reverse().find((m) => m.actor !== 'chance') || null;
    return { board: s.board, last };
  }

  legalMoves() {
    const s = this.state;
    // Learning from a mistake: the moves of the position before it.
    const trying = this.review && this.review.tryable();
    if (trying) return trying;
    if (this.viewing || s.result || !s.your_turn || !Array.isArray(s.legal_moves)) return [];
    return s.legal_moves;
  }

  /// A pass that is the only legal move is no decision: the page plays it
  /// itself (FORCED_PASS_MS after it is shown, so that the player sees what
  /// went by). The page, not the server: the server leaves every decision
  /// to the seat's client (a bot decides its own), and acting for a seat at
  /// once would tell the other side, by the speed of the answer, that the
  /// hand holds no card for it. `{label}` when so, else null.
  forcedPass() {
    if (this.review && this.review.tryable()) return null;
    const moves = this.legalMoves();
    if (moves.length !== 1 || moves[0] !== 'pass') return null;
    const renderer = this.renderer();
    const label = renderer.label ? renderer.label('pass', this.state.board) : 'pass';
    return { label: label.charAt(0).toLowerCase() + label.slice(1) };
  }

  /// Plays the forced pass of this state once, after the pause, unless
  /// something else happened meanwhile.
  playForcedPass() {
    const s = this.state;
    if (!this.forcedPass() || this.forcedAt === s.version) return;
    this.forcedAt = s.version;
    setTimeout(() => {
      if (this.state === s && !this.viewing && this.forcedPass()) this.play('pass');
    }, FORCED_PASS_MS);
  }

  renderBoard() {
    const e = this.el;
    const s = this.state;
    const shown = this.shown();
    const renderer = this.renderer();
    clear(e.board);
    clear(e.actions);
    clear(e.gameNow);
    clear(e.gameAfter);
    clear(e.panel);
    e.status.textContent = this.statusText();
    e.status.hidden = !e.status.textContent;
    this.renderResult();
    this.renderInvite();
    e.counters.textContent = countersText(shown.board);
    if (shown.board === null || shown.board === undefined) {
      e.board.append(h('p', { class: 'muted hidden-board' }, 'No board to show for this position.'));
      this.renderChooser();
      return;
    }
    // First pass: draw to learn the cell names, then work out highlights.
    this.drawError = hasOwnRenderer(s.variant) ? null : `no renderer of its own for ${s.variant}`;
    const onError = (error) => { this.drawError = String(error); };
    const over = !!s.result;
    const baseCtx = { flip: this.flip, highlights: {}, you: s.you, state: s, over, onError, narrow: NARROW.matches };
    const probe = drawBoard(s.variant, shown.board, baseCtx);
    const squares = squareNames(probe);
    const moves = this.legalMoves();
    const tokensOf = (text) => (renderer.tokens ? renderer.tokens(text, squares, shown.board) : defaultTokens(text, squares));
    const matches = (token, square) => (Array.isArray(token) ? token.includes(square) : token === square);
    // A forced pass has no button: the page plays it (see forcedPass). A
    // game may keep some moves off the board's clicks (Lunch Chess: a First
    // Aid that would change nothing); they stay in the list of all moves.
    const forced = this.forcedPass();
    const onBoard = (text) => !forced && (!renderer.onBoard || renderer.onBoard(text, shown.board, { variant: s.variant }));
    const parsed = moves.filter(onBoard).map((text) => ({ text, tokens: tokensOf(text), unordered: renderer.unordered ? renderer.unordered(text) : 0 }));
    this.parsed = parsed;
    this.matches = matches;
    const candidates = parsed.filter((m) => startsWithPath(m.tokens, this.path, matches, m.unordered));
    const targets = nextCells(candidates, this.path, squares, matches);
    const depth = this.path.length;
    const last = new Set();
    if (shown.last && shown.last.text) for (const t of tokensOf(shown.last.text)) for (const sq of squares) if (matches(t, sq)) last.add(sq);
    const check = new Set(renderer.kings ? checkedKings(renderer, shown.board, s.seats) : []);
    const ctx = { ...baseCtx, highlights: { selected: new Set(this.path), targets: depth ? targets : new Set(), last, check } };
    const board = drawBoard(s.variant, shown.board, ctx);
    // The review's better move, on the position before a judged move.
    const mark = this.review && this.review.mark;
    if (mark && this.viewing && this.viewing.ply === mark.ply) {
      const cells = [];
      for (const t of tokensOf(mark.text)) for (const sq of squares) if (matches(t, sq) && !cells.includes(sq)) cells.push(sq);
      frameCells(board, cells, 'rgba(0, 140, 60, 0.85)');
    }
    e.board.append(board);
    if (board.dataset && board.dataset.aspect) e.page.style.setProperty('--aspect', board.dataset.aspect);
    // Moves that name no cell (pass, end the turn, play a card...).
    const loose = parsed.filter((m) => m.tokens.length === 0 && !(renderer.inPanel && renderer.inPanel(m.text)));
    for (const m of loose) {
      e.actions.append(h('button', { 'data-move': m.text, class: m.text === 'pass' ? 'move-button pass' : 'move-button', title: moveTitle(renderer, m.text, shown.board), onclick: () => this.play(m.text) }, renderer.label ? renderer.label(m.text, shown.board, { variant: s.variant }) : m.text));
    }
    const history = this.viewing ? s.moves.slice(0, this.viewing.ply) : s.moves;
    const panelCtx = { ...ctx, moves, history, play: (text) => this.play(text) };
    // What the game asks of you now (hands, energy), then its other details.
    // `now` may give two parts: above the move buttons and below them.
    this.panelError = null;
    for (const [hook, where, after] of [['now', e.gameNow, e.gameAfter], ['panel', e.panel, e.panel]]) {
      if (!renderer[hook]) continue;
      try {
        const extra = renderer[hook](shown.board, panelCtx);
        if (Array.isArray(extra)) {
          if (extra[0]) where.append(extra[0]);
          if (extra[1]) after.append(extra[1]);
        } else if (extra) {
          where.append(extra);
        }
      } catch (error) {
        // Shown, not hidden: a panel that fails is a bug to see (the browser tests check).
        this.panelError = String(error);
        where.append(h('p', { class: 'error', 'data-panel-error': '' }, `This panel failed to draw: ${error}`));
      }
    }
    this.renderChooser();
    if (forced) this.playForcedPass();
    // Every legal move as a list: nothing is ever unplayable.
    clear(e.allMoves);
    e.allMoves.hidden = !moves.length;
    if (moves.length) {
      e.allMoves.append(h('summary', {}, `All legal moves (${moves.length})`));
      const list = h('div', { class: 'move-list' });
      for (const text of moves) list.append(h('button', { 'data-any-move': text, title: moveTitle(renderer, text, shown.board), onclick: () => this.play(text) }, text));
      e.allMoves.append(list);
    }
  }

  renderChooser() {
    this.drawChooser();
    this.fitDecisions();
  }

  /// On a phone, a board taller than wide (LMA's two boards, one above
  /// the other) takes all the height it may, for squares a finger wide,
  /// but leaves room below it for what asks a decision now (a choice, an
  /// offer, the result's buttons), so that they are in sight with it. (A
  /// square board is as wide as the phone, with room to spare below.) The
  /// style sheet takes the room as `--decision-h`.
  fitDecisions() {
    const e = this.el;
    const svg = e.board.querySelector('svg');
    const tall = svg && Number(svg.dataset.aspect) < 1;
    let room = 0;
    if (NARROW.matches && tall) {
      const buttons = [...e.now.querySelectorAll('button')].filter((b) => b.offsetParent !== null);
      if (buttons.length) {
        const top = e.now.getBoundingClientRect().top;
        // The panel's padding and border below its last button, and the gap above it.
        room = Math.ceil(Math.max(...buttons.map((b) => b.getBoundingClientRect().bottom)) - top + 16);
      }
    }
    e.page.style.setProperty('--decision-h', `${room}px`);
  }

  drawChooser() {
    const e = this.el;
    const c = this.choosing;
    clear(e.chooser);
    e.chooser.hidden = !c;
    if (!c) return;
    const renderer = this.renderer();
    // Moves that end on the cells clicked while others go on from there:
    // the game may say how (Lunch Chess: a card played on the piece instead).
    const title = renderer.choiceTitle ? renderer.choiceTitle(c.optional) : null;
    e.chooser.append(h('span', { class: 'chooser-title' }, title || (c.optional ? 'Or stop here:' : 'Which move?')));
    for (const text of c.texts) {
      e.chooser.append(h('button', { 'data-choice': text, class: 'primary', title: moveTitle(renderer, text, this.state.board), onclick: () => { this.path = []; this.choosing = null; this.play(text); } }, renderer.label ? renderer.label(text, this.state.board, { variant: this.state.variant }) : text));
    }
    e.chooser.append(h('button', { class: 'link', 'data-choice-cancel': '', onclick: () => this.deselect() }, 'cancel'));
  }

  /// A press on `cell` at `point` (viewport pixels, from the pointer). A
  /// press that leads to no move may be meant for a small cell near it: the
  /// game's renderer may name the nearest one that leads somewhere (Lichen:
  /// the nearest free slot of the stone pressed).
  click(cell, point) {
    if (this.viewing) { this.step('end'); return; }
    const parsed = this.parsed || [];
    let followed = followClick(parsed, this.matches, this.path, cell);
    const renderer = this.renderer();
    if (!followed.candidates.length && point && renderer.nearestCell) {
      const usable = (name) => followClick(parsed, this.matches, this.path, name).candidates.length > 0;
      const near = renderer.nearestCell(cell, point, this.el.board, usable);
      if (near) followed = followClick(parsed, this.matches, this.path, near);
    }
    const { path, candidates, complete, choice } = followed;
    this.choosing = null;
    if (!candidates.length) {
      this.path = [];
      this.renderBoard();
      return;
    }
    if (complete) {
      this.path = [];
      this.play(complete.text);
      return;
    }
    this.path = path;
    // Several moves share these cells (promotions, which unit, which card),
    // or some end here while others go on: ask.
    this.choosing = choice;
    this.renderBoard();
  }

  deselect() {
    this.path = [];
    this.choosing = null;
    this.renderBoard();
  }

  async play(text) {
    if (this.review && this.review.tryable()) {
      this.path = [];
      this.choosing = null;
      this.review.tried(text);
      return;
    }
    if (this.busy) return;
    this.busy = true;
    this.el.error.hidden = true;
    this.path = [];
    this.choosing = null;
    try {
      const state = await api.play(this.id, this.actingSeat(), text, this.state.ply);
      this.busy = false;
      await this.onState(state);
    } catch (error) {
      this.busy = false;
      this.showError(error);
      try { await this.onState(await api.game(this.id, this.actingSeat())); } catch (_) { /* offline */ }
    }
  }

  showError(error) {
    this.el.error.textContent = message(error);
    this.el.error.hidden = false;
  }

  async act(call) {
    this.el.error.hidden = true;
    try {
      await this.onState(await call());
    } catch (error) {
      this.showError(error);
    }
  }

  async rematch() {
    try {
      const created = await api.rematch(this.id, this.actingSeat());
      const seat = created.secrets[created.you];
      myGames.save({ id: created.id, variant: this.state.variant, name: this.state.name, mode: created.mode, you: created.you, seat, secrets: created.secrets, created: Date.now() });
      location.href = `/g/${created.id}?seat=${encodeURIComponent(seat)}`;
    } catch (error) {
      this.showError(error);
    }
  }

  async view(ply) {
    const s = this.state;
    if (ply >= s.ply) {
      this.viewing = null;
    } else {
      const target = Math.max(0, ply);
      try {
        if (!this.positions.has(target)) this.positions.set(target, await api.position(this.id, target, this.actingSeat()));
        this.viewing = this.positions.get(target);
      } catch (error) {
        this.showError(error);
        return;
      }
    }
    this.path = [];
    this.choosing = null;
    this.renderMoves();
    this.renderBoard();
    if (this.review.review) this.review.render();
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
    sound.unlock();
    const keys = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end', ArrowUp: 'start', ArrowDown: 'end' };
    if (keys[event.key]) {
      event.preventDefault();
      this.step(keys[event.key]);
    } else if (event.key === 'f') {
      this.toggleFlip();
    } else if (event.key === 'Escape') {
      this.deselect();
    }
  }
}

/// The pause before the page plays a forced pass (see forcedPass).
const FORCED_PASS_MS = 900;

function moveTitle(renderer, text, board) {
  const explained = renderer.explainMove ? renderer.explainMove(text, board) : '';
  return explained ? `${text} — ${explained}` : text;
}

/// The kings to mark in `board` (a view): those of the side in check, the
/// side to move; once the game is over, a king left in check is mated (the
/// loser's), marked as lichess does, by the same red glow.
function checkedKings(renderer, board, seats) {
  if (!board || !board.check) return [];
  let side = board.to_act;
  if (!side && board.result && board.result.winner) side = [seats.first.name, seats.second.name].find((name) => name !== board.result.winner);
  return side ? renderer.kings(board, side) : [];
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

/// The cell names a drawn board offers (elements with data-square).
export function squareNames(element) {
  return [...new Set([...element.querySelectorAll('[data-square]')].map((el) => el.getAttribute('data-square')))];
}

/// The cells a move text names, in order: the longest cell name at each
/// position of the text (no rules, only names).
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

/// Whether the clicked `path` is a beginning of the move's cells. The
/// first `unordered` cells (a set, like the Blanks of a Kelasu merge) may
/// be clicked in any order.
export function startsWithPath(tokens, path, matches, unordered = 0) {
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

/// The cells a click may go to next along the moves still possible
/// (`candidates`, each a beginning of the clicked `path`): any not yet
/// clicked of an unordered set, else each move's next cell.
export function nextCells(candidates, path, squares, matches) {
  const targets = new Set();
  const depth = path.length;
  for (const m of candidates) {
    if (m.tokens.length <= depth) continue;
    const next = depth < m.unordered ? m.tokens.slice(0, m.unordered).filter((t) => !path.some((p) => matches(t, p))) : [m.tokens[depth]];
    for (const t of next) for (const sq of squares) if (matches(t, sq)) targets.add(sq);
  }
  return targets;
}

/// Where a click on `cell` leads among the legal moves (`parsed`): the
/// path so far extended by the cell, or begun anew at it when no move goes
/// that way; the moves it may still become; and the move it completes when
/// it can be only that one, or else the `choice` to ask for among the moves
/// that end here (several share these cells, or some end while others go on).
export function followClick(parsed, matches, pathSoFar, cell) {
  let path = [...pathSoFar, cell];
  let candidates = parsed.filter((m) => startsWithPath(m.tokens, path, matches, m.unordered));
  if (!candidates.length) {
    path = [cell];
    candidates = parsed.filter((m) => startsWithPath(m.tokens, path, matches, m.unordered));
  }
  const ending = candidates.filter((m) => m.tokens.length === path.length);
  const complete = ending.length === candidates.length && ending.length === 1 ? ending[0] : null;
  const choice = ending.length ? { texts: ending.map((m) => m.text), optional: ending.length !== candidates.length } : null;
  return { path, candidates, complete, choice };
}

const capitalised = (word) => (word ? word[0].toUpperCase() + word.slice(1) : '');
