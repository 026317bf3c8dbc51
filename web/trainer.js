// A board to practise on (the lessons and the puzzles): a position text
// and the moves played from it, shown and played on the real board (the
// game page's drawing and input: input.js, followClick), with the legal
// moves from the server's rules (POST /api/analysis/position). It plays
// nothing by itself: each move the player completes goes to `onMove`,
// which decides what happens (a lesson's verdict, a puzzle's next reply).

import { ApiError, postJson } from './api.js';
import { h, clear } from './dom.js';
import { rendererFor, drawBoard, loadRenderers } from './games/index.js';
import { attachInput } from './input.js';
import { NARROW } from './board.js';
import { defaultTokens, followClick, nextCells, squareNames, startsWithPath } from './game.js';
import { frameCells } from './marks.js';

export class TrainerBoard {
  /// `onMove(text)` is told each move the player completes; the board
  /// shows `position` after `moves` until told otherwise.
  constructor({ onMove }) {
    this.onMove = onMove;
    this.path = [];
    this.choosing = null;
    this.locked = false;
    this.data = null;
    this.marks = null; // {cells, colour} drawn over the board (a hint, a wrong move)
    this.board = h('div', { class: 'g-board t-board', 'data-board': '' });
    this.chooser = h('div', { class: 'chooser', hidden: true, 'data-chooser': '' });
    this.actions = h('div', { class: 'actions t-actions' });
    this.panel = h('div', { class: 'panel t-panel' });
    this.element = h('div', { class: 't-play' }, this.board, this.chooser, this.actions, this.panel);
    attachInput(this.board, this);
    NARROW.addEventListener('change', () => this.render());
  }

  /// Shows `position` (a position text, or null for the start) of
  /// `variant` after `moves`, with `bottom` ('first'|'second', or
  /// 'natural' for the rules pages' way up) nearest the player.
  async show(variant, position, moves = [], bottom = null) {
    this.variant = variant;
    await loadRenderers([variant]);
    const source = position && position !== 'start' ? { variant, position } : { variant };
    const data = await postJson('/api/analysis/position', { ...source, moves });
    this.data = data;
    this.path = [];
    this.choosing = null;
    this.marks = null;
    // `natural`: as the rules pages draw it (a lesson's words say "up" and
    // "down" as there); else the side to act (a puzzle's solver) below.
    const atTop = !!rendererFor(variant).firstAtTop;
    const side = bottom === 'natural' ? (atTop ? 'second' : 'first') : bottom || (data.to_act === 'second' ? 'second' : 'first');
    this.bottom = side;
    this.flip = atTop ? side !== 'second' : side === 'second';
    this.lastMove = moves.length ? moves[moves.length - 1] : null;
    this.render();
    return data;
  }

  /// Whose decision the position shown waits for ('first', 'second', 'chance' or null).
  toAct() {
    return this.data ? this.data.to_act : null;
  }

  lock(locked) {
    this.locked = locked;
    this.path = [];
    this.choosing = null;
    this.render();
  }

  /// Frames the cells of the move `text` (a hint in blue, a wrong move in red).
  mark(text, colour) {
    this.marks = text ? { text, colour } : null;
    this.render();
  }

  cellsOf(text, squares) {
    const renderer = rendererFor(this.variant);
    const tokens = renderer.tokens ? renderer.tokens(text, squares, this.data.board) : defaultTokens(text, squares);
    const cells = [];
    for (const t of tokens) {
      const found = squares.find((sq) => (Array.isArray(t) ? t.includes(sq) : t === sq));
      if (found) cells.push(found);
    }
    return cells;
  }

  render() {
    const data = this.data;
    clear(this.board);
    clear(this.actions);
    clear(this.panel);
    this.renderChooser();
    if (!data) return;
    const renderer = rendererFor(this.variant);
    const over = !data.to_act;
    const baseCtx = { flip: this.flip, highlights: {}, you: data.to_act === 'second' ? 'second' : 'first', over, narrow: NARROW.matches };
    const squares = squareNames(drawBoard(this.variant, data.board, baseCtx));
    const moves = this.locked || !data.branches ? [] : data.legal_moves.map((m) => m.text);
    const tokensOf = (text) => (renderer.tokens ? renderer.tokens(text, squares, data.board) : defaultTokens(text, squares));
    const matches = (token, square) => (Array.isArray(token) ? token.includes(square) : token === square);
    this.parsed = moves.map((text) => ({ text, tokens: tokensOf(text), unordered: renderer.unordered ? renderer.unordered(text) : 0 }));
    this.matches = matches;
    const depth = this.path.length;
    const targets = nextCells(this.parsed.filter((m) => startsWithPath(m.tokens, this.path, matches, m.unordered)), this.path, squares, matches);
    const last = new Set(this.lastMove ? this.cellsOf(this.lastMove, squares) : []);
    const check = new Set(data.check && renderer.kings ? renderer.kings(data.board, data.board.to_act) : []);
    const ctx = { ...baseCtx, highlights: { selected: new Set(this.path), targets: depth ? targets : new Set(), last, check } };
    const svg = drawBoard(this.variant, data.board, ctx);
    if (this.marks) frameCells(svg, this.cellsOf(this.marks.text, squares), this.marks.colour);
    this.board.append(svg);
    this.board.setAttribute('data-to-act', data.to_act || '');
    this.board.setAttribute('data-locked', String(this.locked));
    // The page's layout sizes the board by its shape (two LMA boards side
    // by side, or one above the other on a phone).
    if (svg.dataset && svg.dataset.aspect) (this.element.closest('.lesson-layout') || this.element).style.setProperty('--aspect', svg.dataset.aspect);
    const loose = this.parsed.filter((m) => m.tokens.length === 0 && !(renderer.inPanel && renderer.inPanel(m.text)));
    for (const m of loose) {
      this.actions.append(h('button', { 'data-move': m.text, class: m.text === 'pass' ? 'move-button pass' : 'move-button', title: m.text, onclick: () => this.complete(m.text) }, renderer.label ? renderer.label(m.text, data.board) : m.text));
    }
    if (renderer.panel) {
      try {
        const extra = renderer.panel(data.board, { ...ctx, moves, history: [], play: (text) => this.complete(text) });
        if (Array.isArray(extra)) extra.filter(Boolean).forEach((el) => this.panel.append(el));
        else if (extra) this.panel.append(extra);
      } catch (error) {
        this.panel.append(h('p', { class: 'error' }, `This panel failed to draw: ${error}`));
      }
    }
  }

  renderChooser() {
    const c = this.choosing;
    clear(this.chooser);
    this.chooser.hidden = !c;
    if (!c) return;
    const renderer = rendererFor(this.variant);
    const board = this.data && this.data.board;
    this.chooser.append(h('span', { class: 'chooser-title' }, c.optional ? 'Or stop here:' : 'Which move?'));
    for (const text of c.texts) {
      this.chooser.append(h('button', { 'data-choice': text, class: 'primary', title: text, onclick: () => this.complete(text) }, renderer.label ? renderer.label(text, board) : text));
    }
    this.chooser.append(h('button', { class: 'link', 'data-choice-cancel': '', onclick: () => this.deselect() }, 'cancel'));
  }

  // ---- board input (input.js's protocol)

  unlock() {}

  click(cell) {
    if (this.locked) return;
    const { path, candidates, complete, choice } = followClick(this.parsed || [], this.matches, this.path, cell);
    this.choosing = null;
    if (!candidates.length) {
      this.path = [];
    } else if (complete) {
      this.complete(complete.text);
      return;
    } else {
      this.path = path;
      this.choosing = choice;
    }
    this.render();
  }

  deselect() {
    this.path = [];
    this.choosing = null;
    this.render();
  }

  complete(text) {
    if (this.locked) return;
    this.path = [];
    this.choosing = null;
    this.marks = null;
    this.onMove(text);
  }
}

export function errorText(error) {
  return error instanceof ApiError ? error.message : String(error && error.message ? error.message : error);
}
