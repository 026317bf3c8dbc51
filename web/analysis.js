// The analysis board (/analysis): a position from a game at any move
// (?game=<id>&ply=<n>&seat=<secret>), from a position text
// (?variant=<v>&position=<text>) or typed in its form; the engine
// evaluates the node shown, live over the analysis socket (depth, score,
// best line, an evaluation bar, the best move marked on the board); moves
// played on the board grow a variation tree that never touches the game.
//
// No rules live here either: the server answers each node's board and
// legal moves (POST /api/analysis/position), and the board input maps
// clicks and drags to those move texts as on a game page.

import { ApiError } from './api.js';
import { h, clear, fill } from './dom.js';
import { rendererFor, drawBoard, loadRenderers, hasOwnRenderer } from './games/index.js';
import { attachInput } from './input.js';
import { NARROW } from './board.js';
import { icon } from './icons.js';
import { frameCells } from './marks.js';
import { defaultTokens, followClick, nextCells, squareNames, startsWithPath } from './game.js';
import { TreeNode, treeList } from './analysis-tree.js';
import { turnNumbers, turnLabel } from './movelist.js';

/// Requests refused by the server's caps asked again (a second apart), at most in a row.
const MAX_RETRIES = 30;

const SIDE_COLOURS = { white: '#f7f6f1', black: '#2e2e2e', blue: '#2f6ed1', red: '#cf3b30' };

function message(error) {
  return error instanceof ApiError ? error.message : String(error && error.message ? error.message : error);
}

async function post(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || response.statusText);
  return data;
}

async function get(path) {
  const response = await fetch(path);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || response.statusText);
  return data;
}

/// The address of the analysis board on a position text.
export function analysisUrl(variant, position) {
  const query = new URLSearchParams({ variant });
  if (position) query.set('position', position);
  return `/analysis?${query}`;
}

export async function analysisPage(root, params) {
  if (!document.querySelector('link[data-analysis-css]')) {
    // Its fingerprinted address, from the page's import map.
    const href = import.meta.resolve ? import.meta.resolve('./analysis.css') : '/assets/analysis.css';
    document.head.append(h('link', { rel: 'stylesheet', href, 'data-analysis-css': '' }));
  }
  clear(root);
  const page = new AnalysisPage(root, params);
  await page.start();
}

class AnalysisPage {
  constructor(root, params) {
    this.root = root;
    this.params = params;
    this.source = null; // what the socket and the position endpoint take, without moves
    this.offset = 0; // moves before the root, for numbering
    this.prefix = []; // those moves ({text, label, actor, side}), for the turn numbers
    this.tree = null;
    this.current = null;
    this.flip = false;
    this.path = [];
    this.choosing = null;
    this.running = true; // the engine's Go/Stop toggle
    this.sent = 0; // analyse requests sent on this socket (the server numbers them alike)
    this.engine = null; // {node, info, done, error, search}
    this.retries = 0; // requests refused by the caps in a row
    this.el = {};
  }

  async start() {
    window.menagerieAnalysis = this;
    this.build();
    document.title = 'Analysis board · Menagerie';
    const p = this.params;
    try {
      if (p.get('game')) await this.fromGame(p.get('game'), p.get('ply'), p.get('seat'));
      else await this.fromText(p.get('variant') || (await this.firstVariant()), p.get('position'));
    } catch (error) {
      this.fatal(`Cannot open this position: ${message(error)}`);
      return;
    }
    this.connect();
    // A page left (or kept in the back-forward cache) lets its search go at
    // once: the server's caps are few.
    window.addEventListener('pagehide', () => { this.leaving = true; if (this.socket) this.socket.close(); });
    window.addEventListener('pageshow', (event) => { if (event.persisted) { this.leaving = false; this.connect(); } });
    document.addEventListener('keydown', (event) => this.onKey(event));
    NARROW.addEventListener('change', () => this.renderBoard());
    this.goTo(this.current);
  }

  async firstVariant() {
    const data = await get('/api/variants');
    this.variants = data.variants;
    this.renderForm();
    return (data.variants.find((v) => !v.hidden_information) || data.variants[0]).id;
  }

  async fromText(variant, position) {
    this.source = position ? { variant, position } : { variant };
    this.tree = new TreeNode(null, null);
    this.current = this.tree;
    this.tree.data = await post('/api/analysis/position', this.source);
    this.el.form.variant.value = variant;
    this.el.form.position.value = position || '';
    fill(this.el.from, 'Position text ', h('code', {}, position || 'start'));
    await this.prepare(this.tree.data.variant);
  }

  /// A game of this server: its moves are the main line (all of them, or in
  /// a game with hidden cards that goes on only the seat's decision now).
  async fromGame(id, plyText, seat) {
    const state = await get(`/api/games/${encodeURIComponent(id)}${seat ? `?seat=${encodeURIComponent(seat)}` : ''}`);
    const hiddenLive = state.hidden_information && !state.result;
    const wanted = plyText === null || plyText === '' ? state.ply : Number(plyText);
    if (!Number.isInteger(wanted) || wanted < 0 || wanted > state.ply) throw new Error(`the game has ${state.ply} moves, not ${plyText}`);
    this.source = { game: id, ...(seat ? { seat } : {}) };
    this.tree = new TreeNode(null, null);
    this.current = this.tree;
    if (hiddenLive) {
      // Only what this seat may know, now: the server refuses the rest.
      this.source.ply = state.ply;
      this.offset = state.ply;
      this.prefix = state.moves;
      if (wanted !== state.ply) this.note(`This game goes on with hidden cards: only its current position can be analysed, not move ${wanted}.`);
    } else {
      this.source.ply = 0;
      let node = this.tree;
      for (const mv of state.moves) {
        node = node.child({ text: mv.text, label: mv.label, actor: mv.actor, side: mv.side });
        if (mv.ply === wanted) this.current = node;
      }
    }
    this.tree.data = null;
    this.current.data = await post('/api/analysis/position', { ...this.source, moves: this.current.path() });
    const link = h('a', { href: `/g/${encodeURIComponent(id)}${seat ? `?seat=${encodeURIComponent(seat)}` : ''}`, 'data-source-game': id }, state.name);
    fill(this.el.from, 'From the game ', link, ` (${state.ply} moves${state.result ? `, ${state.result.summary}` : ''})`);
    this.el.form.variant.value = state.variant;
    await this.prepare(state.variant, state.you);
  }

  /// Loads the variant's renderer; the board is turned to `side` (a game's
  /// seat), else to the side whose view is shown.
  async prepare(variant, side) {
    this.variant = variant;
    await loadRenderers([variant]);
    const renderer = this.renderer();
    const you = side || (this.current.data && this.current.data.you);
    const atTop = !!renderer.firstAtTop;
    this.flip = atTop ? you !== 'second' : you === 'second';
    fill(this.el.title, 'Analysis board ', h('code', { 'data-variant': variant }, variant));
    this.el.rules.href = `/rules/${encodeURIComponent(variant.split(':')[0])}`;
    this.el.rules.hidden = false;
  }

  renderer() {
    return rendererFor(this.variant);
  }

  fatal(text) {
    this.el.error.textContent = text;
    this.el.error.hidden = false;
    this.el.board.append(h('p', { class: 'muted hidden-board', 'data-no-board': '' }, 'No position to show.'));
  }

  note(text) {
    this.el.note.textContent = text;
    this.el.note.hidden = false;
  }

  build() {
    const e = this.el;
    e.title = h('h1', { class: 'game-title' }, 'Analysis board');
    e.rules = h('a', { class: 'rules-link', target: '_blank', hidden: true }, 'Rules');
    e.from = h('p', { class: 'a-from muted', 'data-source': '' });
    e.head = h('header', { class: 'a-head' }, h('div', { class: 'g-head' }, e.title, h('div', { class: 'g-links' }, e.rules)), e.from);
    e.fill = h('div', { class: 'eval-fill' });
    e.bar = h('div', { class: 'a-bar eval-bar', 'data-eval-bar': '', title: 'Evaluation' }, e.fill, h('div', { class: 'eval-mid' }));
    e.board = h('div', { class: 'g-board a-board', 'data-board': '' });
    e.toggle = h('button', { class: 'primary engine-toggle', 'data-engine-toggle': '', onclick: () => this.toggleEngine() }, 'Stop');
    e.score = h('span', { class: 'engine-score', 'data-engine-score': '' }, '…');
    e.depth = h('span', { class: 'engine-depth muted', 'data-engine-depth': '' });
    e.engineStatus = h('span', { class: 'engine-status muted', 'data-engine-status': '', role: 'status' });
    e.pv = h('div', { class: 'engine-pv', 'data-engine-pv': '' });
    e.words = h('span', { class: 'engine-words', 'data-engine-words': '' });
    e.engine = h('section', { class: 'a-engine', 'data-engine': '' },
      h('div', { class: 'engine-head' }, e.toggle, e.score, e.words), e.depth, e.engineStatus, e.pv);
    e.positionLabel = h('span', { class: 'position-label', 'data-position-label': '' });
    e.nav = h('div', { class: 'nav' },
      h('button', { title: 'Start (Home)', 'aria-label': 'start', 'data-nav': 'start', onclick: () => this.step('start') }, icon('first')),
      h('button', { title: 'Back (←)', 'aria-label': 'back', 'data-nav': 'back', onclick: () => this.step('back') }, icon('back')),
      e.positionLabel,
      h('button', { title: 'Forward (→)', 'aria-label': 'forward', 'data-nav': 'forward', onclick: () => this.step('forward') }, icon('forward')),
      h('button', { title: 'End of the line (End)', 'aria-label': 'end', 'data-nav': 'end', onclick: () => this.step('end') }, icon('last')));
    e.treeBox = h('div', { class: 'move-scroll tree-scroll' });
    e.treeTools = h('div', { class: 'tree-tools' },
      h('button', { class: 'link', 'data-tree-promote': '', title: 'Make this line the main line', onclick: () => this.promote() }, 'make main line'),
      h('button', { class: 'link', 'data-tree-delete': '', title: 'Delete this move and what follows', onclick: () => this.deleteHere() }, 'delete from here'),
      h('button', { class: 'link', 'data-flip': '', title: 'Flip the board (f)', onclick: () => this.toggleFlip() }, 'flip board'));
    e.tree = h('div', { class: 'g-moves a-tree' }, e.nav, e.treeBox, e.treeTools);
    e.status = h('div', { class: 'status-line', 'data-status': '' });
    e.chooser = h('div', { class: 'chooser', hidden: true, 'data-chooser': '' });
    e.actions = h('div', { class: 'actions' });
    e.gameNow = h('div', { class: 'game-now' });
    e.gameAfter = h('div', { class: 'game-now' });
    e.note = h('p', { class: 'a-note', hidden: true, 'data-note': '' });
    e.error = h('p', { class: 'error', hidden: true, 'data-error': '' });
    e.now = h('section', { class: 'a-now' }, e.status, e.gameNow, e.chooser, e.actions, e.gameAfter, e.note, e.error);
    e.panel = h('div', { class: 'panel' });
    e.positionText = h('div', { class: 'a-position', hidden: true });
    e.form = this.openForm();
    e.below = h('section', { class: 'a-below' }, e.panel, e.positionText, e.form.element);
    e.page = h('div', { class: 'analysis' }, e.head, e.bar, e.board, e.engine, e.tree, e.now, e.below);
    this.root.append(e.page);
    attachInput(e.board, this);
  }

  /// "Open a position": a variant string and a position text.
  openForm() {
    const variant = h('input', { name: 'variant', list: 'analysis-variants', required: true, placeholder: 'lma', size: 16, 'data-open-variant': '' });
    const list = h('datalist', { id: 'analysis-variants' });
    const position = h('input', { name: 'position', placeholder: 'startpos, or a position text', class: 'a-position-input', 'data-open-position': '' });
    const form = h('form', { class: 'a-open', 'data-open': '' },
      h('label', {}, 'Variant ', variant), ' ', h('label', { class: 'grow' }, 'Position ', position), ' ',
      h('button', { type: 'submit', class: 'primary', 'data-open-submit': '' }, 'Open'), list);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = position.value.trim();
      location.href = analysisUrl(variant.value.trim(), text && text !== 'startpos' ? text : '');
    });
    const element = h('details', { class: 'a-open-box', open: !this.params.get('game') && !this.params.get('variant') }, h('summary', {}, 'Open a position'), form);
    return { element, variant, position, list };
  }

  async renderForm() {
    if (!this.variants) {
      try { this.variants = (await get('/api/variants')).variants; } catch (_) { return; }
    }
    fill(this.el.form.list, ...this.variants.map((v) => h('option', { value: v.id }, v.name)));
  }

  // ---- the engine, over the analysis socket

  connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/analysis/ws`;
    const socket = new WebSocket(url);
    this.sent = 0;
    socket.onopen = () => { if (this.running) this.analyse(); };
    socket.onmessage = (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch (_) { return; }
      this.onEngine(data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!this.leaving) setTimeout(() => { if (!this.socket && !this.leaving) this.connect(); }, 1500);
    };
    this.socket = socket;
    this.renderForm();
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /// Asks the engine about the node shown (stopping whatever ran).
  analyse() {
    const node = this.current;
    if (!node) return;
    if (!this.running) {
      this.send({ type: 'stop' });
      return;
    }
    if (this.send({ type: 'analyse', ...this.source, moves: node.path() })) {
      this.sent += 1;
      this.engine = { node, search: this.sent, info: null, done: false, error: null };
    } else {
      this.engine = { node, search: null, info: null, done: false, error: 'connecting to the engine…' };
    }
    this.renderEngine();
    this.renderBoard();
  }

  onEngine(data) {
    const engine = this.engine;
    if (!engine) return;
    if (data.search !== undefined && data.search !== engine.search) return; // an earlier node's
    if (data.type === 'info') {
      engine.info = data.info;
      this.retries = 0;
    } else if (data.type === 'done') {
      engine.done = true;
      if (data.info) engine.info = data.info;
      if (data.best && engine.info) engine.info.best = data.best;
    } else if (data.type === 'error') {
      engine.error = data.error;
      engine.done = true;
      // Over a cap (often only the search of a page just left, still
      // stopping): ask again shortly, if still wanted.
      if (/try again shortly|analyses at once/.test(data.error || '') && this.retries < MAX_RETRIES) {
        this.retries += 1;
        engine.error = `${data.error} (retrying…)`;
        setTimeout(() => { if (this.engine === engine && this.running) this.analyse(); }, 1000);
      }
    } else {
      return;
    }
    this.renderEngine();
    if (data.type !== 'info' || this.bestShown !== (engine.info && engine.info.best)) this.renderBoard();
  }

  toggleEngine() {
    this.running = !this.running;
    if (this.running) {
      this.analyse();
    } else {
      this.send({ type: 'stop' });
      if (this.engine && !this.engine.done) this.engine.stopped = true;
      this.renderEngine();
    }
  }

  /// The score from the first player's side (for the bar and the sign).
  firstView(score, toAct) {
    const sign = toAct === 'second' ? -1 : 1;
    if (!score) return null;
    if (score.cp !== undefined) return { cp: score.cp * sign };
    if (score.win !== undefined) return sign > 0 ? { mate: score.win } : { mate: -score.win };
    if (score.loss !== undefined) return sign > 0 ? { mate: -score.loss } : { mate: score.loss };
    return null;
  }

  renderEngine() {
    const e = this.el;
    const engine = this.engine;
    const data = this.current && this.current.data;
    fill(e.toggle, this.running ? 'Stop' : 'Go');
    e.toggle.className = this.running ? 'engine-toggle' : 'primary engine-toggle';
    e.toggle.setAttribute('aria-pressed', String(this.running));
    const players = (data && data.players) || ['first', 'second'];
    const info = engine && engine.node === this.current ? engine.info : null;
    const toAct = data ? data.to_act : null;
    const view = info ? this.firstView(info.score, toAct || (engine.node.data && engine.node.data.to_act)) : null;
    let share = 0.5;
    if (view && view.cp !== undefined) {
      e.score.textContent = `${view.cp > 0 ? '+' : ''}${(view.cp / 100).toFixed(2)}`;
      share = 1 / (1 + Math.pow(10, -view.cp / 400));
    } else if (view) {
      e.score.textContent = `#${view.mate}`;
      share = view.mate > 0 ? 1 : 0;
    } else {
      e.score.textContent = data && data.board && data.board.result ? resultScore(data.board.result, players) : '…';
      if (data && data.board && data.board.result) share = data.board.result.winner === players[0] ? 1 : data.board.result.winner === players[1] ? 0 : 0.5;
    }
    e.words.textContent = info ? scoreWords(info.score, toAct === 'second' ? players[1] : players[0]) : '';
    e.score.setAttribute('data-score', info ? JSON.stringify(info.score) : '');
    e.depth.textContent = info ? `depth ${info.depth}${info.seldepth > info.depth ? `/${info.seldepth}` : ''} · ${count(info.nodes)} nodes · ${count(info.nps)} n/s` : '';
    e.depth.setAttribute('data-depth', info ? info.depth : '');
    e.bar.style.setProperty('--share', share.toFixed(4));
    e.bar.setAttribute('data-share', share.toFixed(3));
    e.bar.style.setProperty('--first', SIDE_COLOURS[players[0]] || '#f7f6f1');
    e.bar.style.setProperty('--second', SIDE_COLOURS[players[1]] || '#2e2e2e');
    e.bar.classList.toggle('first-top', this.bottomSide() !== 'first');
    let status = '';
    if (!engine || engine.node !== this.current) status = this.running ? 'starting…' : 'engine stopped';
    else if (engine.error) status = engine.error;
    else if (engine.stopped) status = 'stopped';
    else if (engine.done) status = 'done';
    else status = this.running ? (info ? 'searching…' : 'starting…') : 'stopped';
    e.engineStatus.textContent = status;
    e.engineStatus.setAttribute('data-state', engine && engine.error ? 'error' : engine && (engine.done || engine.stopped) ? 'done' : 'running');
    const renderer = this.renderer();
    clear(e.pv);
    if (info && info.pv && info.pv.length) {
      // The line as the move list writes it: turn numbers and short labels
      // (the server's, worked out along the line; the page's short form
      // where the server could not: a guess at hidden cards).
      const board = data && data.board;
      const line = info.pv.map((text, i) => ({ text, label: null, side: null, actor: null, ...((info.line || [])[i] || {}) }));
      const before = this.movesTo(engine.node);
      const numbers = turnNumbers([...before, ...line], this.firstTurn()).slice(before.length);
      e.pv.append(h('span', { class: 'muted' }, 'Best line '),
        ...line.map((move, i) => {
          const place = numbers[i];
          const number = i === 0 ? (place.starts ? turnLabel(place) : `${place.number}…`) : (place.starts && place.side !== 'second' ? turnLabel(place) : null);
          return h('span', {
            class: i === 0 ? 'pv-move best' : 'pv-move',
            title: `${move.text}: play the line to here`,
            'data-pv-move': move.text,
            onclick: () => this.playLine(engine.node, line.slice(0, i + 1)),
          }, number ? h('span', { class: 'tree-num' }, number) : null, move.label || (renderer.short ? renderer.short(move.text, i === 0 ? board : null) : move.text));
        }));
      e.pv.setAttribute('data-best', info.best || info.pv[0]);
    } else {
      e.pv.removeAttribute('data-best');
    }
  }

  // ---- the tree and the board

  async goTo(node) {
    this.current = node;
    this.path = [];
    this.choosing = null;
    this.el.error.hidden = true;
    this.renderTree();
    this.analyse();
    if (!node.data) {
      try {
        const data = await post('/api/analysis/position', { ...this.source, moves: node.path() });
        node.data = data;
        // Moves added from an engine line learn their labels and side here.
        for (const child of node.children) {
          const known = data.legal_moves.find((m) => m.text === child.move.text);
          if (!child.move.label && known) child.move.label = known.label;
          if (!child.move.actor) child.move.actor = data.to_act;
          if (!child.move.side) child.move.side = data.on_turn;
        }
      } catch (error) {
        node.failed = true;
        if (this.current !== node) return;
        this.showError(error);
      }
    }
    if (this.current !== node) return;
    this.renderAll();
  }

  renderAll() {
    this.renderTree();
    this.renderEngine();
    this.renderBoard();
    this.renderPosition();
  }

  renderTree() {
    const e = this.el;
    const renderer = this.renderer();
    const board = this.current && this.current.data ? this.current.data.board : null;
    clear(e.treeBox).append(treeList(this.tree, { current: this.current, offset: this.offset, onPick: (node) => this.goTo(node), shortOf: renderer.short ? (text) => renderer.short(text, board) : null, numberOf: (node) => this.numberOf(node) }));
    const depth = this.current.depth();
    const end = this.current.lineEnd().depth();
    e.positionLabel.textContent = depth ? `move ${this.offset + depth}${end > depth ? ` of ${this.offset + end}` : ''}${this.current.onMainLine() ? '' : ' · side line'}` : 'start';
    e.treeTools.querySelector('[data-tree-promote]').hidden = this.current.onMainLine();
    e.treeTools.querySelector('[data-tree-delete]').hidden = !this.current.parent;
    const cur = e.treeBox.querySelector('.current');
    if (cur) {
      const box = e.treeBox;
      const top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  renderPosition() {
    const e = this.el;
    const data = this.current.data;
    clear(e.positionText);
    e.positionText.hidden = !(data && data.position);
    if (!data || !data.position) return;
    const input = h('input', { readonly: true, value: data.position, class: 'a-position-input', 'data-node-position': '', onclick: (ev) => ev.target.select() });
    e.positionText.append(h('label', {}, 'Position text ', input), ' ', h('a', { href: analysisUrl(data.variant, data.position), 'data-node-link': '' }, 'link to this position'));
  }

  /// Which side sits at the bottom of the board as drawn.
  bottomSide() {
    const atTop = !!this.renderer().firstAtTop;
    return (atTop ? !this.flip : this.flip) ? 'second' : 'first';
  }

  legalMoves() {
    const data = this.current.data;
    if (!data || !data.branches) return [];
    return data.legal_moves.map((m) => m.text);
  }

  /// The engine's best move for the node shown, if known.
  best() {
    const engine = this.engine;
    if (!engine || engine.node !== this.current || !engine.info) return null;
    return engine.info.best || (engine.info.pv && engine.info.pv[0]) || null;
  }

  renderBoard() {
    const e = this.el;
    const data = this.current && this.current.data;
    const renderer = this.renderer();
    clear(e.board);
    clear(e.actions);
    clear(e.gameNow);
    clear(e.gameAfter);
    clear(e.panel);
    this.renderChooser();
    if (!data) {
      e.board.append(h('p', { class: 'muted hidden-board' }, this.current && this.current.failed ? 'This position cannot be shown.' : 'Loading the position…'));
      return;
    }
    e.status.textContent = statusText(data);
    this.drawError = hasOwnRenderer(this.variant) ? null : `no renderer of its own for ${this.variant}`;
    const onError = (error) => { this.drawError = String(error); };
    const over = !data.to_act;
    const baseCtx = { flip: this.flip, highlights: {}, you: data.you, over, onError, narrow: NARROW.matches };
    const squares = squareNames(drawBoard(this.variant, data.board, baseCtx));
    const moves = this.legalMoves();
    const tokensOf = (text) => (renderer.tokens ? renderer.tokens(text, squares, data.board) : defaultTokens(text, squares));
    const matches = (token, square) => (Array.isArray(token) ? token.includes(square) : token === square);
    const cellsOf = (text) => {
      const cells = [];
      for (const t of tokensOf(text)) {
        const found = squares.find((sq) => matches(t, sq));
        if (found) cells.push(found);
      }
      return cells;
    };
    const parsed = moves.map((text) => ({ text, tokens: tokensOf(text), unordered: renderer.unordered ? renderer.unordered(text) : 0 }));
    this.parsed = parsed;
    this.matches = matches;
    const depth = this.path.length;
    const targets = nextCells(parsed.filter((m) => startsWithPath(m.tokens, this.path, matches, m.unordered)), this.path, squares, matches);
    const last = new Set(this.current.move && this.current.move.text ? cellsOf(this.current.move.text) : []);
    const check = new Set(data.check && renderer.kings ? renderer.kings(data.board, data.board.to_act) : []);
    const ctx = { ...baseCtx, highlights: { selected: new Set(this.path), targets: depth ? targets : new Set(), last, check } };
    const svg = drawBoard(this.variant, data.board, ctx);
    const best = this.best();
    this.bestShown = best;
    e.board.setAttribute('data-best-move', best || '');
    if (best) markBest(svg, cellsOf(best));
    e.board.append(svg);
    if (svg.dataset && svg.dataset.aspect) e.page.style.setProperty('--aspect', svg.dataset.aspect);
    if (data.chance_move) {
      e.actions.append(h('button', { class: 'primary', 'data-chance-random': '', title: 'A move of chance drawn with the game\'s odds', onclick: () => this.play(data.chance_move) }, 'Draw at random'));
    }
    const loose = parsed.filter((m) => m.tokens.length === 0 && !(renderer.inPanel && renderer.inPanel(m.text)));
    for (const m of loose) {
      e.actions.append(h('button', { 'data-move': m.text, class: m.text === 'pass' ? 'move-button pass' : 'move-button', title: m.text, onclick: () => this.play(m.text) }, renderer.label ? renderer.label(m.text, data.board) : m.text));
    }
    const history = [];
    for (let node = this.current; node.parent; node = node.parent) history.unshift({ text: node.move.text, actor: node.move.actor });
    const panelCtx = { ...ctx, moves, history, play: (text) => this.play(text) };
    this.panelError = null;
    for (const [hook, where, after] of [['now', e.gameNow, e.gameAfter], ['panel', e.panel, e.panel]]) {
      if (!renderer[hook]) continue;
      try {
        const extra = renderer[hook](data.board, panelCtx);
        if (Array.isArray(extra)) {
          if (extra[0]) where.append(extra[0]);
          if (extra[1]) after.append(extra[1]);
        } else if (extra) {
          where.append(extra);
        }
      } catch (error) {
        this.panelError = String(error);
        where.append(h('p', { class: 'error', 'data-panel-error': '' }, `This panel failed to draw: ${error}`));
      }
    }
    if (!data.branches && data.to_act) this.note('This game goes on with hidden cards: the engine weighs your decision now, from what you may see; no lines can be played from it here.');
  }

  renderChooser() {
    const e = this.el;
    const c = this.choosing;
    clear(e.chooser);
    e.chooser.hidden = !c;
    if (!c) return;
    const renderer = this.renderer();
    const board = this.current.data && this.current.data.board;
    e.chooser.append(h('span', { class: 'chooser-title' }, c.optional ? 'Or stop here:' : 'Which move?'));
    for (const text of c.texts) {
      e.chooser.append(h('button', { 'data-choice': text, class: 'primary', title: text, onclick: () => { this.path = []; this.choosing = null; this.play(text); } }, renderer.label ? renderer.label(text, board) : text));
    }
    e.chooser.append(h('button', { class: 'link', 'data-choice-cancel': '', onclick: () => this.deselect() }, 'cancel'));
  }

  // ---- board input (the same protocol as the game page's: input.js)

  unlock() {}

  click(cell) {
    const { path, candidates, complete, choice } = followClick(this.parsed || [], this.matches, this.path, cell);
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
    this.choosing = choice;
    this.renderBoard();
  }

  deselect() {
    this.path = [];
    this.choosing = null;
    this.renderBoard();
  }

  /// Plays `text` from the node shown: into the tree, never into a game.
  play(text) {
    const data = this.current.data;
    if (!data || !data.branches) return;
    const move = data.legal_moves.find((m) => m.text === text);
    if (!move) return;
    this.goTo(this.current.child({ text: move.text, label: move.label, actor: data.to_act, side: data.on_turn }));
  }

  /// Plays the engine's line `moves` ({text, label, side, actor}, as the
  /// server gave them) from `node` into the tree.
  playLine(node, moves) {
    if (!node.data || !node.data.branches) return;
    let at = node;
    for (const move of moves) {
      const known = at.data && at.data.legal_moves.find((m) => m.text === move.text);
      at = at.child({ text: move.text, label: move.label || (known ? known.label : null), actor: move.actor || (at.data ? at.data.to_act : null), side: move.side || null });
    }
    this.goTo(at);
  }

  /// The moves from the game's start (or the position given) to `node`.
  movesTo(node) {
    const moves = [];
    for (let at = node; at && at.parent; at = at.parent) moves.push(at.move);
    return [...this.prefix, ...moves.reverse()];
  }

  /// The number of the first row of the list: 1 from a game's start, the
  /// turn counter of a position given as text.
  firstTurn() {
    const board = this.tree && this.tree.data ? this.tree.data.board : null;
    const turn = !this.prefix.length && board && board.counters ? board.counters.turn : null;
    return Number.isInteger(turn) && turn > 0 ? turn : 1;
  }

  /// Where `node`'s move stands in the game page's notation.
  numberOf(node) {
    const numbers = turnNumbers(this.movesTo(node), this.firstTurn());
    return numbers[numbers.length - 1];
  }

  promote() {
    this.current.promote();
    this.renderTree();
  }

  deleteHere() {
    const parent = this.current.parent;
    if (!parent) return;
    this.current.remove();
    this.goTo(parent);
  }

  toggleFlip() {
    this.flip = !this.flip;
    this.renderEngine();
    this.renderBoard();
  }

  step(where) {
    const node = this.current;
    if (!node) return;
    const target = { start: this.tree, back: node.parent, forward: node.children[0], end: node.lineEnd() }[where];
    if (target && target !== node) this.goTo(target);
  }

  showError(error) {
    this.el.error.textContent = message(error);
    this.el.error.hidden = false;
  }

  onKey(event) {
    if (event.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName)) return;
    const keys = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end', ArrowUp: 'start', ArrowDown: 'end' };
    if (keys[event.key]) {
      event.preventDefault();
      this.step(keys[event.key]);
    } else if (event.key === 'f') {
      this.toggleFlip();
    } else if (event.key === 'Escape') {
      this.deselect();
    } else if (event.key === ' ' && !(event.target && event.target.tagName === 'BUTTON')) {
      event.preventDefault();
      this.toggleEngine();
    }
  }
}

/// Marks the best move on a drawn board: its cells framed, and an arrow
/// from its first cell to its last (over the pieces, under the hints).
function markBest(svg, cells) {
  frameCells(svg, cells, 'rgba(0, 90, 200, 0.85)', { fill: 'rgba(0, 110, 230, 0.22)', cellAttr: 'data-best-cell', arrowAttr: 'data-best-arrow', markClass: 'mark-best', arrowClass: 'arrow best-arrow', arrowWidth: 0.14 });
}

function statusText(data) {
  const board = data.board || {};
  if (board.result) return `Game over: ${board.result.winner ? `${board.result.winner} wins` : 'a draw'} (${board.result.reason}).`;
  if (data.to_act === 'chance') return 'Chance acts next: draw at random, or pick its move below.';
  const name = board.to_act || data.to_act;
  return `${name ? name[0].toUpperCase() + name.slice(1) : 'Nobody'} to move.${data.check ? ' Check!' : ''}`;
}

function resultScore(result, players) {
  if (result.winner === players[0]) return '1–0';
  if (result.winner === players[1]) return '0–1';
  return '½–½';
}

/// The score in words, from the side to act (`win`/`loss` count moves of
/// the game model: a Kelasu action, a Lunch Chess decision).
function scoreWords(score, side) {
  if (!score) return '';
  if (score.win !== undefined) return `${side} wins in ${score.win}`;
  if (score.loss !== undefined) return `${side} loses in ${score.loss}`;
  const cp = score.cp / 100;
  return `${cp >= 0 ? '+' : ''}${cp.toFixed(2)} for ${side}`;
}

function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}
