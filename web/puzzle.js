// The puzzles (`/puzzle`, `/puzzle/<variant>`, `/puzzle/<id>`): a position
// where one move wins, played on the real board. The solver's moves are
// checked against the solution (a Kelasu turn's actions in any order; any
// move that wins at once is right), the other side's replies are played
// for them, and a signed-in player's first round on a puzzle is rated
// (POST /api/puzzle/batch/<variant>), as lichess rates puzzles.

import { h, clear, fill } from './dom.js';
import { getJson, postJson } from './api.js';
import { TrainerBoard, errorText } from './trainer.js';
import { gameName } from './learn.js';
import { analysisUrl } from './analysis.js';

/// The games with puzzles (Lunch Chess has none: a puzzle would have to
/// hold for every hand the solver cannot see).
const PUZZLE_VARIANTS = ['lma', 'fluid', 'lichen', 'kelasu'];
const REPLY_DELAY = 500; // ms before the other side's reply is played

function learnCss() {
  if (document.querySelector('link[data-learn-css]')) return;
  const href = import.meta.resolve ? import.meta.resolve('./learn.css') : '/assets/learn.css';
  document.head.append(h('link', { rel: 'stylesheet', href, 'data-learn-css': '' }));
}

export async function puzzlePage(root, which) {
  learnCss();
  clear(root);
  const variant = which && PUZZLE_VARIANTS.includes(which) ? which : null;
  const id = which && !variant ? which : null;
  const page = new PuzzlePage(root, variant);
  await page.start(id);
}

class PuzzlePage {
  constructor(root, variant) {
    this.root = root;
    this.variant = variant; // the variant chosen, or null for any
    this.trainer = new TrainerBoard({ onMove: (text) => this.tried(text) });
    this.el = {};
  }

  async start(id) {
    window.menageriePuzzle = this;
    const e = this.el;
    document.title = `Puzzles${this.variant ? ` · ${gameName(this.variant)}` : ''} · Menagerie`;
    e.picker = h('nav', { class: 'puzzle-games', 'aria-label': 'games' },
      h('a', { href: '/puzzle', class: this.variant ? '' : 'current' }, 'Any game'),
      ...PUZZLE_VARIANTS.map((v) => h('a', { href: `/puzzle/${v}`, class: v === this.variant ? 'current' : '', 'data-puzzle-game': v }, gameName(v))));
    e.title = h('h1', {}, 'Puzzles');
    e.goal = h('p', { class: 'goal', 'data-goal': '' });
    e.feedback = h('div', { class: 'feedback', role: 'status', 'aria-live': 'polite', 'data-feedback': '' });
    e.buttons = h('div', { class: 'lesson-buttons' });
    e.info = h('div', { class: 'puzzle-info muted', 'data-puzzle-info': '' });
    e.rating = h('p', { class: 'puzzle-rating', 'data-puzzle-rating': '' });
    e.side = h('section', { class: 'lesson-side' }, e.title, e.goal, e.feedback, e.buttons, e.info, e.rating);
    this.root.append(h('div', { class: 'puzzle-page', 'data-puzzle-page': '' }, e.picker,
      h('div', { class: 'lesson-layout' }, h('div', { class: 'lesson-board' }, this.trainer.element), e.side)));
    this.session = await getJson('/api/session').catch(() => null);
    await this.load(id);
  }

  async load(id) {
    let answer;
    try {
      answer = id ? await getJson(`/api/puzzle/${encodeURIComponent(id)}`)
        : await getJson(`/api/puzzle/next${this.variant ? `?variant=${encodeURIComponent(this.variant)}` : ''}`);
    } catch (error) {
      this.feedback('error', errorText(error));
      return;
    }
    const puzzle = answer.puzzle;
    this.puzzle = puzzle;
    this.played = [];
    this.remaining = [...puzzle.solution];
    this.failed = false;
    this.reported = false;
    this.root.querySelector('[data-puzzle-page]').setAttribute('data-puzzle-id', puzzle.id);
    try {
      const data = await this.trainer.show(puzzle.variant, puzzle.position, []);
      this.solver = data.to_act;
      const players = data.players || ['first', 'second'];
      this.solverName = players[this.solver === 'second' ? 1 : 0];
      // Who acts before each move of the solution: a run of the solver's
      // moves (a Kelasu turn) may be played in any order.
      this.actors = [data.to_act];
      for (let i = 1; i < puzzle.solution.length; i++) {
        const after = await postJson('/api/analysis/position', { variant: puzzle.variant, position: puzzle.position, moves: puzzle.solution.slice(0, i) });
        this.actors.push(after.to_act);
      }
    } catch (error) {
      this.feedback('error', `This puzzle cannot be shown: ${errorText(error)}`);
      return;
    }
    const side = this.solverName;
    fill(this.el.title, 'Puzzle ', h('code', {}, puzzle.id));
    fill(this.el.goal, h('strong', {}, `${gameName(puzzle.variant)}: `), `find the best move for ${side}.`);
    this.feedback('', `Your turn: you play ${side}.`);
    fill(this.el.info,
      h('p', {}, `Rating ${puzzle.rating} · played ${puzzle.plays} times`),
      h('p', {}, 'Themes: ', puzzle.themes.join(', ') || 'none'));
    fill(this.el.rating, this.session ? '' : h('span', { class: 'muted' }, 'Sign in to have your puzzles rated.'));
    this.buttons(false);
    this.trainer.lock(false);
  }

  buttons(over) {
    const e = this.el;
    const list = [];
    if (over) list.push(h('button', { class: 'primary', 'data-next-puzzle': '', onclick: () => this.next() }, 'Next puzzle'));
    if (!over) list.push(h('button', { class: 'link', 'data-view-solution': '', onclick: () => this.viewSolution() }, 'View the solution'));
    if (over && this.failed) list.push(h('button', { class: 'link', 'data-retry': '', onclick: () => this.retry() }, 'Try again'));
    if (this.puzzle) list.push(h('a', { href: analysisUrl(this.puzzle.variant, this.puzzle.position), 'data-analyse': '' }, 'Analyse'));
    fill(e.buttons, ...list);
  }

  feedback(kind, text) {
    const e = this.el.feedback;
    e.className = kind ? `feedback ${kind}` : 'feedback';
    e.setAttribute('data-verdict', kind || '');
    fill(e, text || '');
  }

  /// The solver's moves that may come now: the rest of the solver's run.
  expected() {
    const at = this.played.length;
    const run = [];
    for (let i = at; i < this.puzzle.solution.length && this.actors[i] === this.solver; i++) run.push(this.remaining[i - at]);
    return run;
  }

  async tried(text) {
    const expected = this.expected();
    this.trainer.lock(true);
    const moves = [...this.played, text];
    let data;
    try {
      data = await this.trainer.show(this.puzzle.variant, this.puzzle.position, moves, this.trainer.bottom);
    } catch (error) {
      this.feedback('error', errorText(error));
      await this.trainer.show(this.puzzle.variant, this.puzzle.position, this.played, this.trainer.bottom).catch(() => {});
      this.trainer.lock(false);
      return;
    }
    const result = data.board && data.board.result;
    const solverWins = !!(result && result.winner && result.winner === this.solverName);
    if (expected.includes(text) || solverWins) {
      this.played.push(text);
      const i = this.remaining.indexOf(text);
      if (i >= 0) this.remaining.splice(i, 1);
      else this.remaining = [];
      if (!this.remaining.length || solverWins) return this.solved();
      this.feedback('right', '✓ Best move! Keep going…');
      if (this.actors[this.played.length] !== this.solver) await this.reply();
      else this.trainer.lock(false);
      return;
    }
    // Not the move: the round is lost (once), the position given back.
    this.trainer.mark(text, 'rgba(200, 30, 30, 0.85)');
    this.feedback('wrong', '✗ That is not the move. Try something else, or view the solution.');
    if (!this.failed) {
      this.failed = true;
      this.report(false);
    }
    setTimeout(async () => {
      await this.trainer.show(this.puzzle.variant, this.puzzle.position, this.played, this.trainer.bottom).catch(() => {});
      this.trainer.lock(false);
    }, 700);
  }

  /// Plays the other side's replies up to the solver's next move.
  async reply() {
    while (this.remaining.length && this.actors[this.played.length] !== this.solver) {
      await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY));
      const move = this.remaining.shift();
      this.played.push(move);
      await this.trainer.show(this.puzzle.variant, this.puzzle.position, this.played, this.trainer.bottom);
    }
    if (!this.remaining.length) return this.solved();
    this.trainer.lock(false);
  }

  solved() {
    this.trainer.lock(true);
    this.feedback('right', this.failed ? '✓ Solved, after a wrong try.' : '✓ Solved! That wins.');
    this.root.querySelector('[data-puzzle-page]').setAttribute('data-solved', 'true');
    if (!this.failed) this.report(true);
    this.buttons(true);
  }

  async viewSolution() {
    this.trainer.lock(true);
    if (!this.failed) {
      this.failed = true;
      this.report(false);
    }
    this.feedback('hint', 'The solution:');
    while (this.remaining.length) {
      const move = this.remaining.shift();
      this.played.push(move);
      await this.trainer.show(this.puzzle.variant, this.puzzle.position, this.played, this.trainer.bottom);
      await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY));
    }
    this.trainer.lock(true);
    this.feedback('hint', `The solution: ${this.puzzle.solution.join(', ')}`);
    this.buttons(true);
  }

  retry() {
    this.played = [];
    this.remaining = [...this.puzzle.solution];
    this.trainer.show(this.puzzle.variant, this.puzzle.position, [], this.trainer.bottom).then(() => this.trainer.lock(false));
    this.feedback('', 'Again: find the best move (this round is not rated).');
    this.buttons(false);
  }

  next() {
    this.root.querySelector('[data-puzzle-page]').removeAttribute('data-solved');
    history.replaceState(null, '', this.variant ? `/puzzle/${this.variant}` : '/puzzle');
    this.load(null);
  }

  /// The round, rated if it is this account's first on the puzzle.
  async report(win) {
    if (this.reported || !this.session) return;
    this.reported = true;
    try {
      const answer = await postJson(`/api/puzzle/batch/${encodeURIComponent(this.puzzle.variant)}`, { solutions: [{ id: this.puzzle.id, win, rated: true }] });
      const round = answer.rounds[0];
      const diff = round && round.rated ? ` (${round.ratingDiff >= 0 ? '+' : ''}${round.ratingDiff})` : ' (played before: not rated)';
      fill(this.el.rating, `Your ${gameName(this.puzzle.variant)} puzzle rating: `, h('strong', { 'data-my-puzzle-rating': String(answer.glicko.rating) }, String(answer.glicko.rating)), diff);
    } catch (error) {
      fill(this.el.rating, h('span', { class: 'error' }, `The round was not recorded: ${errorText(error)}`));
    }
  }
}
