// The computer's review of a finished game on its page (docs/api.md, "Game
// review"): asked for with a button (POST /api/games/<id>/analysis), its
// progress followed, then an evaluation chart under the board (a click
// goes to that move), each player's inaccuracies, mistakes, blunders and
// accuracy, the judged moves marked in the move list (?!, ?, ??), and
// "Learn from your mistakes", which steps through one side's judged moves
// showing the move the computer preferred.

import { h, s, clear } from './dom.js';

const POLL_MS = 1500;
const GLYPHS = { Inaccuracy: '?!', Mistake: '?', Blunder: '??' };
const COLOURS = { Inaccuracy: '#56b4e9', Mistake: '#e69f00', Blunder: '#d55e00' };

/// The first player's winning chances (-1..1) of an evaluation, lichess's
/// curve on centi-units; a forced win or loss is ±1.
export function winChances(evaluation) {
  if (!evaluation) return 0;
  if (evaluation.mate !== undefined) return evaluation.mate > 0 ? 1 : -1;
  const cp = Math.max(-1000, Math.min(1000, evaluation.cp || 0));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

export class GameReview {
  /// `page` is the game page: its state, `view(ply)` and `renderBoard()`.
  constructor(page) {
    this.page = page;
    this.id = page.id;
    this.review = null; // the review, once done
    this.progress = null; // {status, progress} while queued or running
    this.refusal = null; // why there is none (a Lunch Chess game)
    this.asked = false; // a GET was made
    this.absent = false; // none asked for yet
    this.learning = null; // {side, index} while stepping through mistakes
    this.mark = null; // {ply, text}: the better move shown on the board
    this.element = h('section', { class: 'g-review', hidden: true, 'data-review': '' });
  }

  /// Called whenever the game page draws: loads the review once the game is over.
  update() {
    const state = this.page.state;
    if (!state || !state.result) {
      this.element.hidden = true;
      return;
    }
    this.element.hidden = false;
    if (state.hidden_information) {
      // Asking would be refused (422), and the browser would log it.
      this.refusal = 'Games with hidden cards are not reviewed: a decision must be judged by what its player could see, which one search of the whole deal cannot do fairly.';
      this.render();
      return;
    }
    if (!this.asked) {
      this.asked = true;
      this.fetch('GET');
    }
    this.render();
  }

  async fetch(method) {
    let response;
    let data = null;
    try {
      response = await fetch(`/api/games/${encodeURIComponent(this.id)}/analysis`, { method, headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {}, body: method === 'POST' ? '{}' : undefined });
      data = await response.json().catch(() => null);
    } catch (error) {
      this.error = `The review cannot be reached: ${error.message || error}`;
      this.render();
      return;
    }
    this.error = null;
    if (response.status === 200 && data && data.plies) {
      this.review = data;
      this.progress = null;
      this.absent = false;
      this.page.renderMoves();
    } else if (response.status === 202) {
      this.progress = data;
      this.absent = false;
      setTimeout(() => this.fetch('GET'), POLL_MS);
    } else if (response.status === 204) {
      this.absent = true; // nobody asked for it yet
    } else if (response.status === 401) {
      // Asking costs the server minutes of a core: accounts only.
      this.absent = true;
      this.progress = null;
      this.error = null;
      this.needsAccount = true;
    } else if (response.status === 422) {
      this.refusal = (data && data.error) || 'This game cannot be reviewed.';
    } else if (response.status === 409) {
      this.element.hidden = true;
      return;
    } else {
      this.error = (data && data.error) || response.statusText;
    }
    this.render();
  }

  /// Asks for the review: an account's request (a visitor is told to sign
  /// in, without a request the server would refuse).
  async request() {
    const session = await fetch('/api/session').then((r) => r.json()).catch(() => null);
    if (!session) {
      this.needsAccount = true;
      this.render();
      return;
    }
    this.absent = false;
    this.progress = { status: 'queued', progress: 0 };
    this.render();
    this.fetch('POST');
  }

  /// The judged moves: ply → {glyph, name}, for the move list.
  glyphs() {
    const marks = new Map();
    if (!this.review) return marks;
    for (const ply of this.review.plies) {
      if (ply.judgment) marks.set(ply.ply, { glyph: GLYPHS[ply.judgment.name] || '?', name: ply.judgment.name });
    }
    return marks;
  }

  render() {
    const e = this.element;
    clear(e);
    e.append(h('h2', {}, 'Computer review'));
    if (this.refusal) {
      e.append(h('p', { class: 'muted', 'data-review-refused': '' }, this.refusal));
      return;
    }
    if (this.error) e.append(h('p', { class: 'error', 'data-review-error': '' }, this.error));
    if (this.review) {
      this.renderDone(e);
      return;
    }
    if (this.progress) {
      // `progress` is null while another node of the site runs it.
      const share = Math.max(0, Math.min(1, Number(this.progress.progress) || 0));
      const meter = h('div', { class: 'review-meter' });
      meter.style.setProperty('--share', String(share));
      e.append(h('p', { 'data-review-progress': this.progress.status }, this.progress.status === 'queued' ? 'Waiting for the computer…' : `The computer is reviewing the game: ${Math.round(share * 100)}%`), meter);
      return;
    }
    if (this.absent) {
      e.append(h('p', { class: 'muted' }, 'The computer can go through this game move by move: an evaluation of every position, the moves that lost the most, and an accuracy for each player.'),
        this.needsAccount
          ? h('p', { 'data-review-needs-account': '' }, h('a', { href: '/account' }, 'Log in or sign up'), ' to ask for a computer review.')
          : h('button', { class: 'primary', 'data-request-review': '', onclick: () => this.request() }, 'Request a computer review'));
    }
  }

  renderDone(e) {
    const state = this.page.state;
    const names = { first: state.seats.first.name, second: state.seats.second.name };
    e.append(this.chart());
    const row = (side) => {
      const p = this.review.players[side];
      return h('tr', { 'data-review-player': side },
        h('th', { scope: 'row' }, names[side] || side),
        h('td', { class: 'inaccuracy' }, String(p.inaccuracy)),
        h('td', { class: 'mistake' }, String(p.mistake)),
        h('td', { class: 'blunder' }, String(p.blunder)),
        h('td', {}, String(p.acpl)),
        h('td', { 'data-accuracy': p.accuracy === null ? '' : String(p.accuracy) }, p.accuracy === null || p.accuracy === undefined ? '–' : `${Math.round(p.accuracy)}%`));
    };
    e.append(h('table', { class: 'review-table' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { title: 'Inaccuracies (?!)' }, '?!'), h('th', { title: 'Mistakes (?)' }, '?'), h('th', { title: 'Blunders (??)' }, '??'), h('th', { title: 'Average loss, in the game\'s hundredths of a pawn' }, 'ACPL'), h('th', {}, 'Accuracy'))),
      h('tbody', {}, row('first'), row('second'))));
    e.append(this.learnBox(names));
  }

  /// The evaluation along the game (the first player's winning chances):
  /// judged moves as dots, the move shown as a line; a click goes to a move.
  chart() {
    const plies = this.review.plies;
    const n = Math.max(1, plies.length);
    const width = 600;
    const height = 120;
    const x = (i) => (i / n) * width;
    const y = (w) => height / 2 - (w * height) / 2;
    const points = [[0, y(0)], ...plies.map((p, i) => [x(i + 1), y(winChances(p.eval))])];
    const line = points.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(1)} ${py.toFixed(1)}`).join('');
    const area = `${line}L${width} ${height}L0 ${height}Z`;
    const shown = this.page.viewing ? this.page.viewing.ply : this.page.state.ply;
    const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, class: 'review-chart', 'data-review-chart': '', preserveAspectRatio: 'none', role: 'img', 'aria-label': 'Evaluation along the game; click to go to a move' },
      s('rect', { x: 0, y: 0, width, height, fill: '#3a3a3a' }),
      s('path', { d: area, fill: '#f2f0ea' }),
      s('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, stroke: '#999', 'stroke-width': 1, 'vector-effect': 'non-scaling-stroke' }),
      s('path', { d: line, fill: 'none', stroke: '#2a6fb0', 'stroke-width': 1.5, 'vector-effect': 'non-scaling-stroke' }),
      s('line', { x1: x(shown), y1: 0, x2: x(shown), y2: height, stroke: '#c33', 'stroke-width': 1.5, 'vector-effect': 'non-scaling-stroke', 'data-chart-current': String(shown) }),
      ...plies.filter((p) => p.judgment).map((p) => s('circle', { cx: x(p.ply), cy: y(winChances(p.eval)), r: 4, fill: COLOURS[p.judgment.name] || '#d55e00', 'data-chart-judged': String(p.ply) })));
    svg.addEventListener('click', (event) => {
      const box = svg.getBoundingClientRect();
      const ply = Math.max(0, Math.min(plies.length, Math.round(((event.clientX - box.left) / box.width) * n)));
      this.page.view(ply);
    });
    return h('div', { class: 'review-chart-box' }, svg);
  }

  learnBox(names) {
    const state = this.page.state;
    const sides = state.you ? [state.you] : ['first', 'second'];
    const box = h('div', { class: 'review-learn', 'data-review-learn': '' });
    const l = this.learning;
    if (!l) {
      for (const side of sides) {
        const count = this.judgedOf(side).length;
        const label = state.you ? 'Learn from your mistakes' : `Learn from ${names[side]}'s mistakes`;
        box.append(h('button', { class: 'primary', disabled: !count, 'data-learn-mistakes': side, onclick: () => this.startLearning(side) }, count ? label : `${state.you ? 'You' : names[side]}: no mistakes to learn from`));
      }
      return box;
    }
    const judged = this.judgedOf(l.side);
    const ply = judged[l.index];
    const move = state.moves[ply.ply - 1];
    const said = move ? (move.label || move.text) : '?';
    box.append(h('p', { 'data-learning-ply': String(ply.ply) },
      h('strong', {}, `${l.index + 1} of ${judged.length}: `),
      `${names[l.side]} played ${said}, ${article(ply.judgment.name)} ${ply.judgment.name.toLowerCase()} (${GLYPHS[ply.judgment.name]}). `,
      this.mark ? h('span', { 'data-better-move': ply.best || '' }, `The computer preferred ${ply.best}.`) : this.trying ? 'Find a better move on the board.' : 'What was better?'));
    const verdicts = {
      right: ['right', '✓ Yes: that is the computer\'s move.'],
      same: ['wrong', '✗ That is the move played in the game. Try another.'],
      other: ['wrong', '✗ Not the computer\'s choice. Try again, or show the better move.'],
    };
    const verdict = l.verdict && verdicts[l.verdict];
    if (verdict) box.append(h('p', { class: `feedback ${verdict[0]}`, 'data-learn-verdict': l.verdict }, verdict[1]));
    box.append(h('div', { class: 'button-row' },
      this.mark ? null : h('button', { 'data-show-better': '', disabled: !ply.best, onclick: () => { this.mark = { ply: ply.ply - 1, text: ply.best }; this.page.renderBoard(); this.render(); } }, 'Show the better move'),
      l.index + 1 < judged.length ? h('button', { class: 'primary', 'data-next-mistake': '', onclick: () => this.goLearning(l.index + 1) }, 'Next') : null,
      h('button', { class: 'link', 'data-stop-learning': '', onclick: () => { this.learning = null; this.mark = null; this.page.view(state.ply); this.render(); } }, 'Done')));
    return box;
  }

  judgedOf(side) {
    return this.review ? this.review.plies.filter((p) => p.judgment && this.page.state.moves[p.ply - 1] && this.page.state.moves[p.ply - 1].actor === side) : [];
  }

  startLearning(side) {
    this.learning = { side, index: 0 };
    this.goLearning(0);
  }

  /// Shows the position before the judged move `index`, where the player
  /// may try moves on the board (the legal moves from the server's rules).
  async goLearning(index) {
    this.learning.index = index;
    this.learning.verdict = null;
    this.mark = null;
    this.trying = null;
    const ply = this.judgedOf(this.learning.side)[index];
    const before = this.page.state.moves.slice(0, ply.ply - 1).map((m) => m.text);
    try {
      const response = await fetch('/api/analysis/position', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: this.id, ply: 0, moves: before }) });
      const data = await response.json();
      if (response.ok && data.branches) this.trying = { ply: ply.ply - 1, moves: data.legal_moves.map((m) => m.text) };
    } catch (_) {
      this.trying = null; // the buttons still show the better move
    }
    await this.page.view(ply.ply - 1);
    this.render();
  }

  /// The moves the board offers while learning at the position shown, or null.
  tryable() {
    const t = this.trying;
    const viewing = this.page.viewing;
    return this.learning && t && viewing && viewing.ply === t.ply && !this.mark ? t.moves : null;
  }

  /// A move tried at the position before a judged move: the computer's
  /// choice is right; anything else is answered, and may be tried again.
  tried(text) {
    const ply = this.judgedOf(this.learning.side)[this.learning.index];
    const played = this.page.state.moves[ply.ply - 1];
    if (text === ply.best) {
      this.learning.verdict = 'right';
      this.mark = { ply: ply.ply - 1, text };
    } else {
      this.learning.verdict = played && text === played.text ? 'same' : 'other';
    }
    this.page.renderBoard();
    this.render();
  }
}

function article(word) {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
