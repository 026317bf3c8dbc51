// The lessons (`/learn`, `/learn/<id>`): every game's lessons with how far
// this player has come, and a lesson played step by step on the real board.
// Each move is judged by the server's rules engine (POST
// /api/learn/<id>/<step>), which says why a wrong move is wrong. Progress
// is kept in the account when signed in, else in this browser (and taken
// into the account at the next visit signed in).

import { h, clear, fill } from './dom.js';
import { loadRenderers } from './games/index.js';
import { getJson, postJson } from './api.js';
import { TrainerBoard, errorText } from './trainer.js';

const KEPT = 'menagerie.lessons';
const GAME_NAMES = { lma: 'Lilliputian Monochromatic Alice Chess', fluid: 'Fluid Chess', lichen: 'Lichen Chess', kelasu: 'Kelasu', lunch: 'Lunch Chess' };

function learnCss() {
  if (document.querySelector('link[data-learn-css]')) return;
  const href = import.meta.resolve ? import.meta.resolve('./learn.css') : '/assets/learn.css';
  document.head.append(h('link', { rel: 'stylesheet', href, 'data-learn-css': '' }));
}

export function gameName(variant) {
  return GAME_NAMES[String(variant).split(':')[0].split('-')[0]] || variant;
}

/// This browser's progress: {lesson id: steps done}.
function keptProgress() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT) || '{}');
    return kept && typeof kept === 'object' ? kept : {};
  } catch (_) {
    return {};
  }
}

function keep(lesson, steps) {
  const kept = keptProgress();
  if ((kept[lesson] || 0) >= steps) return;
  kept[lesson] = steps;
  try { localStorage.setItem(KEPT, JSON.stringify(kept)); } catch (_) { /* private mode: kept for this visit only */ }
}

/// The progress to show: the account's (this browser's taken into it
/// first), or this browser's without an account.
async function progress() {
  const kept = keptProgress();
  const session = await getJson('/api/session').catch(() => null);
  const signedIn = !!(session && (session.username || session.account));
  if (!signedIn) return { progress: kept, signedIn };
  try {
    const answer = Object.keys(kept).length
      ? await postJson('/api/learn/progress', { progress: kept })
      : await getJson('/api/learn/progress');
    return { progress: answer.progress, signedIn };
  } catch (_) {
    return { progress: kept, signedIn };
  }
}

export async function learnPage(root, id) {
  learnCss();
  clear(root);
  if (id) await lessonPage(root, id);
  else await lessonsPage(root);
}

async function lessonsPage(root) {
  document.title = 'Learn · Menagerie';
  const page = h('div', { class: 'learn', 'data-learn': '' });
  root.append(page);
  page.append(h('h1', {}, 'Learn the games'),
    h('p', { class: 'lead' }, 'Each lesson is a few positions on the real board, each with one goal. Play the move that meets it: the rules engine checks it and tells you why when it does not. Then try a ', h('a', { href: '/puzzle' }, 'puzzle'), ', or a game against the computer.'));
  let list;
  let mine;
  try {
    [list, mine] = await Promise.all([getJson('/api/learn'), progress()]);
  } catch (error) {
    page.append(h('p', { class: 'error' }, `The lessons cannot be loaded: ${errorText(error)}`));
    return;
  }
  page.append(h('p', { class: 'muted', 'data-progress-kept': mine.signedIn ? 'account' : 'browser' },
    mine.signedIn ? 'Your progress is kept in your account.' : 'Your progress is kept in this browser; sign in to keep it in your account.'));
  const byGame = new Map();
  for (const lesson of list.lessons) {
    const game = lesson.variant.split(':')[0].split('-')[0];
    if (!byGame.has(game)) byGame.set(game, []);
    byGame.get(game).push(lesson);
  }
  for (const [game, lessons] of byGame) {
    const done = lessons.filter((l) => (mine.progress[l.id] || 0) >= l.steps).length;
    page.append(h('section', { class: 'learn-game', id: `learn-${game}`, 'data-learn-game': game },
      h('h2', {}, gameName(game), ' ', h('span', { class: 'muted learn-count' }, `${done} of ${lessons.length} done`)),
      h('ol', { class: 'lesson-list' }, ...lessons.map((lesson) => lessonItem(lesson, mine.progress[lesson.id] || 0))),
      h('p', { class: 'learn-more' }, h('a', { href: `/rules/${game}` }, 'Rules'), ' · ', h('a', { href: `/puzzle/${puzzleVariant(lessons[0].variant)}` }, 'Puzzles'), ' · ', h('a', { href: `/?new=${encodeURIComponent(lessons[0].variant)}` }, 'Play a game'))));
  }
}

function puzzleVariant(variant) {
  return variant.split(':')[0];
}

function lessonItem(lesson, stepsDone) {
  const complete = stepsDone >= lesson.steps;
  const share = Math.min(1, stepsDone / lesson.steps);
  // The page's protections allow no style attribute: the share goes through the CSSOM.
  const meter = h('span', { class: 'lesson-meter', title: `${stepsDone} of ${lesson.steps} steps` });
  meter.style.setProperty('--share', String(share));
  return h('li', { class: complete ? 'lesson done' : 'lesson', 'data-lesson': lesson.id, 'data-steps-done': String(stepsDone) },
    h('a', { href: `/learn/${encodeURIComponent(lesson.id)}` }, lesson.title),
    meter,
    h('span', { class: 'muted lesson-steps' }, complete ? '✓ done' : `${stepsDone}/${lesson.steps} steps`));
}

async function lessonPage(root, id) {
  const page = h('div', { class: 'lesson-page', 'data-lesson-page': id });
  root.append(page);
  let answer;
  try {
    answer = await getJson(`/api/learn/${encodeURIComponent(id)}`);
  } catch (error) {
    page.append(h('h1', {}, 'Learn'), h('p', { class: 'error', 'data-error': '' }, errorText(error)), h('p', {}, h('a', { href: '/learn' }, 'All lessons')));
    return;
  }
  const lesson = answer.lesson;
  document.title = `${lesson.title} · Learn · Menagerie`;
  await loadRenderers([lesson.variant]);
  const mine = await progress();
  const start = Math.min(mine.progress[lesson.id] || 0, lesson.steps.length - 1);
  new LessonRunner(page, lesson, answer.next, mine.progress[lesson.id] >= lesson.steps.length ? 0 : start).start();
}

class LessonRunner {
  constructor(page, lesson, next, step) {
    this.page = page;
    this.lesson = lesson;
    this.next = next;
    this.step = step;
    this.trainer = new TrainerBoard({ onMove: (text) => this.tried(text) });
    this.el = {};
  }

  start() {
    window.menagerieLesson = this;
    const e = this.el;
    const lesson = this.lesson;
    e.steps = h('ol', { class: 'step-dots', 'aria-label': 'steps' });
    e.goal = h('p', { class: 'goal', 'data-goal': '' });
    e.feedback = h('div', { class: 'feedback', role: 'status', 'aria-live': 'polite', 'data-feedback': '' });
    e.buttons = h('div', { class: 'lesson-buttons' });
    e.side = h('section', { class: 'lesson-side' },
      h('p', { class: 'crumbs' }, h('a', { href: '/learn' }, 'Learn'), ' › ', gameName(lesson.variant)),
      h('h1', {}, lesson.title), e.steps, e.goal, e.feedback, e.buttons,
      h('p', { class: 'muted' }, h('a', { href: `/rules/${lesson.variant.split(':')[0].split('-')[0]}`, target: '_blank' }, 'The rules')));
    this.page.append(h('div', { class: 'lesson-layout' }, h('div', { class: 'lesson-board' }, this.trainer.element), e.side));
    this.showStep();
  }

  async showStep() {
    const e = this.el;
    const step = this.lesson.steps[this.step];
    fill(e.steps, ...this.lesson.steps.map((_, i) => h('li', { class: i < this.step ? 'dot done' : i === this.step ? 'dot current' : 'dot', 'aria-current': i === this.step ? 'step' : null }, String(i + 1))));
    fill(e.goal, h('strong', {}, `Step ${this.step + 1} of ${this.lesson.steps.length}. `), step.goal);
    e.goal.setAttribute('data-step', String(this.step + 1));
    this.feedback(null);
    fill(e.buttons, h('button', { class: 'link', 'data-show-me': '', onclick: () => this.showMe() }, 'Show me'));
    try {
      await this.trainer.show(this.lesson.variant, step.position, [], 'natural');
      this.trainer.lock(false);
    } catch (error) {
      this.feedback('error', `This step cannot be shown: ${errorText(error)}`);
    }
  }

  feedback(kind, text) {
    const e = this.el.feedback;
    e.className = kind ? `feedback ${kind}` : 'feedback';
    e.setAttribute('data-verdict', kind || '');
    fill(e, text || '');
  }

  showMe() {
    const step = this.lesson.steps[this.step];
    if (!step.example) return;
    this.trainer.mark(step.example, 'rgba(0, 90, 200, 0.85)');
    this.feedback('hint', 'This move does it: play it on the board.');
  }

  async tried(text) {
    const step = this.lesson.steps[this.step];
    this.trainer.lock(true);
    let verdict;
    try {
      verdict = await postJson(`/api/learn/${encodeURIComponent(this.lesson.id)}/${this.step + 1}`, { move: text });
    } catch (error) {
      this.feedback('error', errorText(error));
      this.trainer.lock(false);
      return;
    }
    if (verdict.verdict === 'done') {
      keep(this.lesson.id, this.step + 1);
      await this.trainer.show(this.lesson.variant, step.position, [text], this.trainer.bottom).catch(() => {});
      this.trainer.lock(true);
      this.feedback('right', `✓ ${verdict.say}`);
      const last = this.step + 1 >= this.lesson.steps.length;
      if (last) this.finished();
      else fill(this.el.buttons, h('button', { class: 'primary', 'data-next-step': '', onclick: () => { this.step += 1; this.showStep(); } }, 'Next step'));
    } else {
      // The wrong move shown a moment, then the step's position again.
      this.feedback('wrong', `✗ ${verdict.why}`);
      this.trainer.mark(text, 'rgba(200, 30, 30, 0.85)');
      this.trainer.lock(false);
      fill(this.el.buttons, h('button', { class: 'link', 'data-show-me': '', onclick: () => this.showMe() }, 'Show me'));
    }
  }

  finished() {
    const variant = this.lesson.variant;
    fill(this.el.steps, ...this.lesson.steps.map((_, i) => h('li', { class: 'dot done' }, String(i + 1))));
    const links = [];
    if (this.next) links.push(h('a', { class: 'button primary', href: `/learn/${encodeURIComponent(this.next)}`, 'data-next-lesson': this.next }, 'Next lesson'));
    links.push(h('a', { class: this.next ? 'button' : 'button primary', href: `/?new=${encodeURIComponent(variant)}`, 'data-play-game': variant }, 'Play a game'));
    links.push(h('a', { class: 'button', href: `/puzzle/${encodeURIComponent(puzzleVariant(variant))}` }, 'Puzzles'));
    links.push(h('a', { class: 'button', href: '/learn' }, 'All lessons'));
    fill(this.el.buttons, h('p', { class: 'lesson-done', 'data-lesson-done': '' }, 'Lesson complete!'), h('div', { class: 'button-row' }, ...links));
  }
}
