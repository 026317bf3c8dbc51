// Lunch Chess: chess pieces with hit points, fought over with cards. Board
// part of the view (crates/games/src/lunch/view.rs): { squares: [{square,
// piece, colour, hp, max_hp, stunned, stomped}], on_turn, hands: {white:
// [cards] | count, black: ...}, draw_pile, discard, weapons_in_play, holds,
// battle, strike, pending, deck: [{code, name, kind, damage, heal, ...}] }.
// Moves: `e2e4`, `attack:d1d5:kick[:cw]`, `answer:dodge`, `pass`,
// `discard:jab+block`, `aid:e4:firstaid`, `free:e5:jab`, `grab:...`,
// `choose:e4:b`, `promote:e8:q`, `humiliate:...`, `break:e5:freedom`.

import { h, s } from '../dom.js';
import { Picture, grid } from '../board.js';
import { chessPiece, chessName } from '../pieces.js';
import DRAWING from '../drawing.js';

const NAMES = { answer: 'Answer', pass: 'No answer / pass', discard: 'Discard', aid: 'First Aid', free: 'Free attack', grab: 'Grab', choose: 'Choose', promote: 'Promote', humiliate: 'Humiliate', break: 'Break the hold', attack: 'Attack', draw: 'Card drawn' };

/// What each kind of card does, in words; the numbers come from the deck
/// the server sends (a game may play with its own deck file).
const KIND_TEXT = {
  attack: (c) => `Basic attack: ${c.damage} damage. Opens a battle from a piece that could capture the target in chess; also used for free attacks and Grabs.`,
  weapon: (c) => `Weapon: ${c.damage} damage; comes back to your hand after the battle. Disarm stops it, and it is lost.`,
  big_combo: (c) => `${c.damage} damage; each Dodge or Block takes 3 off, and it may take two answers.`,
  poke: (c) => `${c.damage} damage and a free attack; the victim is stunned (cannot move, attack or have cards played for it) until the end of its player's next turn.`,
  stomp: (c) => `${c.damage} damage; the victim's next opening attack is halved.`,
  uppercut2: (c) => `${c.damage} damage and a free attack.`,
  choke: (c) => `${c.damage} damage now and ${c.damage} on each of your later turns; both pieces are held still. Only Freedom answers it.`,
  headlock: () => 'Played with a Grab after a Block: holds the piece, and at the start of your turns you may hit it with Jabs, Uppercuts and Stomps.',
  grab: () => 'After a Block, grab with a basic attack, a weapon or a Headlock (two cards): only Freedom stops that card.',
  dodge: () => 'Answer: avoids the attack (not a Choke). A dodged spinning attack goes on to the next piece round the attacker.',
  block: () => 'Answer: stops the attack (not a Choke); then Grabs may follow.',
  disarm: () => 'Answer to a weapon: stops it, and the weapon is lost.',
  freedom: () => 'Answer to a Choke or to a Grab\'s card; as your action, frees your held piece.',
  first_aid: (c) => `Heals ${c.heal}: as your action on one of your pieces, or as a last chance just before a hit that would kill a piece or leave your only King below 15.`,
  humiliation: () => 'Answers any card (not a King\'s): cancels it, and your battle piece makes a free attack on the other. It can be Humiliated back.',
};

const KIND_NAME = { attack: 'attack', weapon: 'weapon', big_combo: 'attack', poke: 'attack', stomp: 'attack', uppercut2: 'attack', choke: 'attack', headlock: 'hold', grab: 'grab', dodge: 'defence', block: 'defence', disarm: 'defence', freedom: 'defence', first_aid: 'healing', humiliation: 'counter' };

function cardsOf(board) {
  return new Map((board && Array.isArray(board.deck) ? board.deck : []).map((c) => [c.code, c]));
}

/// A card's explanation: name, kind, damage, what it does.
export function explain(card) {
  if (!card) return '';
  const numbers = card.damage ? `, ${card.damage} damage` : card.heal ? `, heals ${card.heal}` : '';
  const flags = [card.spinning ? 'Spinning: when dodged it goes on round the attacker (you declare the direction).' : '', card.breaks_choke ? 'Also breaks a Choke on your piece.' : '', card.headlock_free ? 'Usable in a Headlock\'s free attacks.' : ''].filter(Boolean).join(' ');
  const text = KIND_TEXT[card.kind] ? KIND_TEXT[card.kind](card) : card.kind;
  return `${card.name} (${KIND_NAME[card.kind] || card.kind}${numbers}): ${text}${flags ? ` ${flags}` : ''}`;
}

const cardName = (cards, code) => (cards.get(code) ? cards.get(code).name : code);

/// The explanation of the card pointed at, in a box of its own below the
/// cards, of one height (so that nothing moves when a card is explained),
/// which covers nothing (a floating box covered the buttons below). A click anywhere but on a card puts the hint back (a
/// finger has no pointer to take away): after the click, so that a button
/// pressed is the one that was under the finger.
const CARD_HINT = 'Point at a card, or tap it, to read what it does.';

function cardInfo() {
  const info = h('p', { class: 'card-info', 'data-card-info': '', role: 'status' }, CARD_HINT);
  closeCardInfoOnPress();
  return info;
}

function explainIn(info, card) {
  info.textContent = explain(card);
  info.setAttribute('data-card-shown', card ? card.kind : '');
}

function unexplain(info) {
  info.textContent = CARD_HINT;
  info.removeAttribute('data-card-shown');
}

let closing = false;
function closeCardInfoOnPress() {
  if (closing) return;
  closing = true;
  document.addEventListener('click', (event) => {
    if (event.target && event.target.closest && event.target.closest('[data-card]')) return;
    for (const info of document.querySelectorAll('[data-card-info]')) unexplain(info);
  }, true);
}

/// A card chip: its name, its number, the explanation on hover (title and
/// the box `info`) and on tap or focus.
function chip(cards, code, info, attrs = {}, tag = 'span') {
  const card = cards.get(code);
  const number = card && (card.damage || card.heal) ? h('small', { class: 'card-number' }, String(card.damage || `+${card.heal}`)) : null;
  const el = h(tag, { class: `card kind-${card ? card.kind : 'unknown'}`, 'data-card': code, title: explain(card), tabindex: tag === 'span' ? 0 : null, ...attrs }, h('span', { class: 'card-name' }, card ? card.name : code), number);
  if (!info) return el;
  const show = () => explainIn(info, card);
  el.addEventListener('pointerenter', show);
  el.addEventListener('focus', show);
  el.addEventListener('click', show);
  // A finger's tap leaves the explanation (until a press elsewhere); a mouse leaving puts the hint back.
  el.addEventListener('pointerleave', (event) => { if (event.pointerType === 'mouse') unexplain(info); });
  el.addEventListener('blur', () => unexplain(info));
  return el;
}

/// The hit points' colour by the share of health left (drawing.js).
function hpColour(hp, max) {
  const f = max ? hp / max : 1;
  return DRAWING.lunch.health.find((band) => f >= band.from).colour;
}

function describeCards(cards, list) {
  return list.map((code) => cardName(cards, code)).join(' + ');
}

/// The piece types by hit points (docs/lunch.md, "Pieces, hit points"):
/// after an action a piece's HP round down to the highest of these.
function ladder(variant) {
  const types = [[1, 'Pawn'], [3, 'Knight or Bishop'], [5, 'Rook'], [9, 'Queen'], [15, 'King']];
  if (/princess/.test(variant || '')) types.splice(3, 0, [7, 'Princess']);
  return types;
}

/// What a First Aid action (`aid:e4:firstaid*2`) does to its piece, when
/// played as the turn's action: the type it becomes, or null if none (it
/// rounds back down to what it is).
function aidEffect(text, board, variant) {
  const [, square, played] = text.split(':');
  const [code, times] = (played || '').split('*');
  const card = cardsOf(board).get(code);
  const piece = (board.squares || []).find((p) => p.square === square);
  if (!card || !piece || !card.heal) return null;
  const healed = piece.hp + card.heal * (Number(times) || 1);
  const becomes = ladder(variant).filter(([hp]) => hp <= healed).pop();
  return becomes && becomes[0] > piece.hp ? { hp: becomes[0], name: becomes[1], from: chessName(piece.piece) } : null;
}

const sentence = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

export default {
  draw(board, ctx = {}) {
    const pieces = new Map((board.squares || []).map((p) => [p.square, p]));
    const size = 10;
    const picture = new Picture(8 * size, 8 * size, ctx);
    grid(picture, {
      files: 8, ranks: 8, size, flip: !!ctx.flip,
      pieceAt: (name, x, y) => {
        const p = pieces.get(name);
        if (!p) return null;
        const g = s('g', { class: 'lunch-piece' });
        const art = chessPiece(p.piece, p.colour, x + size * 0.04, y + size * 0.08, size * 0.9);
        if (p.stunned) art.setAttribute('opacity', String(DRAWING.lunch.stunnedOpacity));
        g.append(art);
        if (!ctx.small) {
          // Hit points: a pill in the top right corner, coloured by health.
          const text = String(p.hp);
          const w = size * (text.length > 1 ? 0.42 : 0.3);
          g.append(s('rect', { class: 'hp-badge', x: x + size - w - size * 0.03, y: y + size * 0.03, width: w, height: size * 0.27, rx: size * 0.13, fill: hpColour(p.hp, p.max_hp), stroke: '#fff', 'stroke-width': size * 0.025 }));
          g.append(s('text', { x: x + size - w / 2 - size * 0.03, y: y + size * 0.235, 'font-size': size * 0.2, 'font-weight': 700, 'text-anchor': 'middle', fill: '#fff', 'font-family': 'system-ui, sans-serif', text }));
          g.append(s('title', { text: `${p.colour} ${chessName(p.piece)}: ${p.hp} of ${p.max_hp} hit points${p.stunned ? ', stunned' : ''}${p.stomped ? ', stomped' : ''}` }));
          if (p.stunned) g.append(s('path', { d: starPath(x + size * 0.2, y + size * 0.18, size * 0.12), fill: DRAWING.lunch.star.fill, stroke: DRAWING.lunch.star.stroke, 'stroke-width': size * 0.015 }));
          if (p.stomped) g.append(s('path', { d: `M${x + size * 0.08} ${y + size * 0.9}h${size * 0.22}`, stroke: DRAWING.lunch.stomp, 'stroke-width': size * 0.06, 'stroke-linecap': 'round' }));
        }
        return g;
      },
    });
    for (const hold of board.holds || []) picture.arrow(hold.holder, hold.held, DRAWING.board.hold);
    if (board.battle) picture.arrow(board.battle.a, board.battle.t);
    return picture.finish();
  },

  /// The squares a decision names: `e2e4`, `attack:d1d5:kick` -> [d1, d5],
  /// `aid:e4:firstaid`, `free:e5:jab` -> [e5]; card-only decisions -> [].
  tokens(text) {
    const plain = /^([a-h][1-8])([a-h][1-8])$/.exec(text);
    if (plain) return [plain[1], plain[2]];
    const parts = text.split(':');
    if (parts[0] === 'attack' && /^[a-h][1-8][a-h][1-8]$/.test(parts[1] || '')) return [parts[1].slice(0, 2), parts[1].slice(2, 4)];
    if (['aid', 'free', 'break', 'choose', 'promote'].includes(parts[0]) && /^[a-h][1-8]$/.test(parts[1] || '')) return [parts[1]];
    return [];
  },

  isCapture(text) {
    return text.startsWith('attack:') || text.startsWith('free:');
  },

  label(text, board, ctx = {}) {
    const cards = cardsOf(board);
    if (/^[a-h][1-8][a-h][1-8]$/.test(text)) return `Move ${text.slice(0, 2)}→${text.slice(2)}`;
    const parts = text.split(':');
    const name = NAMES[parts[0]];
    if (!name) return text;
    switch (parts[0]) {
      case 'pass': return board && board.pass ? sentence(board.pass) : 'Pass';
      case 'attack': return `Attack ${parts[1].slice(0, 2)}→${parts[1].slice(2)} with ${cardName(cards, parts[2])}${parts[3] ? ` (spinning ${parts[3] === 'cw' ? 'clockwise' : 'counter-clockwise'})` : ''}`;
      case 'answer': return `Answer with ${cardName(cards, parts[1])}`;
      case 'discard': return `Discard ${describeCards(cards, parts[1].split('+'))}`;
      case 'aid': {
        const [code, times] = parts[2].split('*');
        const played = `${code !== 'firstaid' ? cardName(cards, code) : 'First Aid'}${times ? ` ×${times}` : ''} on ${parts[1]}`;
        if (board && board.strike) return `${played}: save it from the hit`;
        const effect = board ? aidEffect(text, board, ctx && ctx.variant) : null;
        return effect ? `${played}: the ${effect.from} heals to ${effect.hp} and becomes a ${effect.name}` : `${played} (changes nothing)`;
      }
      case 'free': return `Free attack on ${parts[1]} with ${cardName(cards, parts[2])}`;
      case 'grab': return `Grab: ${describeCards(cards, parts[1].split('+'))}`;
      case 'humiliate': return `Humiliate${parts[2] ? ` (by ${parts[2]})` : ''}`;
      case 'break': return `Break the hold on ${parts[1]} with ${cardName(cards, parts[2])}`;
      case 'choose': return `${parts[1]} becomes a ${parts[2] === 'b' ? 'Bishop' : 'Knight'}`;
      case 'promote': return `Promote ${parts[1]} to ${chessName(parts[2])}`;
      default: return `${name}: ${parts.slice(1).join(' ')}`;
    }
  },

  /// A short form for the move list: `d1×d5 Kick`, `Dodge`, `e4=B`.
  short(text, board) {
    const cards = cardsOf(board);
    if (/^[a-h][1-8][a-h][1-8]$/.test(text)) return `${text.slice(0, 2)}–${text.slice(2)}`;
    const parts = text.split(':');
    switch (parts[0]) {
      case 'attack': return `${parts[1].slice(0, 2)}×${parts[1].slice(2)} ${cardName(cards, parts[2])}`;
      case 'answer': return cardName(cards, parts[1]);
      case 'discard': return `discard ${parts[1].split('+').map((code) => cardName(cards, code)).join(', ')}`;
      case 'aid': return `aid ${parts[1]}`;
      case 'free': return `free ×${parts[1]} ${cardName(cards, parts[2])}`;
      case 'grab': return describeCards(cards, parts[1].split('+'));
      case 'humiliate': return 'Humiliation';
      case 'break': return `break ${parts[1]}`;
      case 'choose': case 'promote': return `${parts[1]}=${(parts[2] || '').toUpperCase()}`;
      default: return text;
    }
  },

  /// The card a decision plays, for its tooltip.
  explainMove(text, board) {
    const cards = cardsOf(board);
    const parts = text.split(':');
    const code = { attack: parts[2], answer: parts[1], free: parts[2], break: parts[2], humiliate: parts[1] }[parts[0]];
    return code ? explain(cards.get(code)) : '';
  },

  /// A First Aid action that would change nothing (a piece rounds back
  /// down to its type: a King at 15, a Queen healed by 2) is legal, but not
  /// offered on the board: a click on the piece would ask about it.
  onBoard(text, board, ctx = {}) {
    if (!text.startsWith('aid:') || !board || board.strike) return true;
    return !!aidEffect(text, board, ctx.variant);
  },

  /// The choice offered when a piece is clicked that could also go on
  /// moving: a card played on it instead.
  choiceTitle(optional) {
    return optional ? 'Or, instead of moving it:' : 'Which one?';
  },

  /// Discards are chosen by picking cards in the hand (there are many ways).
  inPanel(text) {
    return text.startsWith('discard:');
  },

  /// What you must see and use now: what the game waits for (above the
  /// buttons) and your hand (below them; discards are picked there), each
  /// card explained on hover or tap.
  now(board, ctx = {}) {
    if (!board || !board.hands) return null;
    const cards = cardsOf(board);
    const me = ctx.you === 'second' ? 'black' : ctx.you === 'first' ? 'white' : null;
    const situation = h('div', { class: 'lunch-situation' });
    const box = h('div', { class: 'lunch-now', 'data-lunch-panel': '' });
    const info = cardInfo();
    if (board.pending && !ctx.over) situation.append(h('div', { class: 'pending', 'data-pending': '' }, board.pending));
    if (board.strike && !ctx.over) {
      const st = board.strike;
      situation.append(h('div', { class: 'battle', 'data-battle': '' }, `${cardName(cards, st.card)} strikes ${st.to} for ${st.damage}${st.free ? ' (a free attack)' : ''}`));
    }
    const discards = (ctx.moves || []).filter((text) => this.inPanel(text));
    const hand = me ? board.hands[me] : null;
    if (Array.isArray(hand)) {
      if (discards.length) {
        box.append(discardChooser(cards, me, hand, discards, ctx.play, info));
      } else {
        box.append(h('div', { class: 'hand-row' }, h('b', {}, 'Your hand '), h('span', { class: 'hand', 'data-hand': me }, hand.length ? hand.map((c) => chip(cards, c, info)) : h('span', { class: 'muted' }, 'no cards'))));
      }
      box.append(info);
    }
    return [situation, box];
  },

  panel(board, ctx = {}) {
    if (!board || !board.hands) return null;
    const cards = cardsOf(board);
    const me = ctx.you === 'second' ? 'black' : ctx.you === 'first' ? 'white' : null;
    const info = cardInfo();
    const box = h('div', { class: 'info-box lunch-info' });
    for (const colour of ['white', 'black']) {
      if (colour === me) continue;
      const hand = board.hands[colour];
      const shown = Array.isArray(hand)
        ? h('span', { class: 'hand', 'data-hand': colour }, hand.length ? hand.map((c) => chip(cards, c, info)) : h('span', { class: 'muted' }, 'no cards'))
        : h('span', { 'data-hand': colour }, `${hand} card${hand === 1 ? '' : 's'} (hidden)`);
      box.append(h('div', { class: 'hand-row' }, h('b', {}, `${colour}: `), shown));
    }
    const discard = Array.isArray(board.discard) ? board.discard : [];
    box.append(h('div', { 'data-piles': '' }, `Draw pile: ${board.draw_pile ?? '?'} cards · discard pile: ${discard.length}`, discard.length ? ' (latest: ' : '', discard.slice(-6).map((c) => chip(cards, c, info)), discard.length ? ')' : ''));
    const inPlay = board.weapons_in_play && board.weapons_in_play !== '-' ? board.weapons_in_play : null;
    if (inPlay) box.append(h('div', {}, `Weapons in play: ${inPlay}`));
    if (Array.isArray(board.holds) && board.holds.length) box.append(h('div', {}, `Holds: ${board.holds.map((x) => `${x.kind} ${x.holder}→${x.held}`).join('; ')}`));
    if (board.battle) {
      const b = board.battle;
      box.append(h('div', { 'data-battle-line': '' }, h('b', {}, 'Battle: '), `${b.attacker} attacks ${b.t} from ${b.a} with `, chip(cards, b.card, info)));
    }
    // Explained where there are cards to point at.
    if (box.querySelector('[data-card]')) box.append(info);
    box.append(battleLog(ctx.history || [], (text) => this.label(text, board, { variant: ctx.state && ctx.state.variant })));
    if (cards.size) box.append(cardReference(cards));
    return box;
  },

  help: [
    'Move: drag a piece (or click it, then a square). Attack: drag your piece onto an enemy piece (corner marks show which you may attack), then choose the card.',
    'Answers, passes and other card plays are the buttons beside the board; discard by picking cards in your hand. Point at (or tap) a card to see what it does.',
    'Numbers on the pieces are their hit points; a star marks a stunned piece, arrows show the battle and the holds.',
  ],
};

function starPath(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    points.push(`${(cx + rr * Math.cos(a)).toFixed(2)} ${(cy + rr * Math.sin(a)).toFixed(2)}`);
  }
  return `M${points.join('L')}Z`;
}

/// Pick cards of the hand, then discard them: the button names the legal
/// discard that is exactly the picked cards.
function discardChooser(cards, colour, hand, discards, play, info) {
  const picked = new Set();
  const key = (list) => [...list].sort().join('+');
  const byCards = new Map(discards.map((text) => [key(text.slice('discard:'.length).split('+')), text]));
  const button = h('button', { class: 'primary', 'data-discard': '', disabled: true }, 'Discard');
  const update = () => {
    const text = byCards.get(key([...picked].map((i) => hand[i])));
    button.disabled = !text;
    button.dataset.move = text || '';
    button.textContent = picked.size ? (text ? `Discard ${picked.size} card${picked.size === 1 ? '' : 's'}` : 'Cannot discard these') : 'Pick cards to discard';
  };
  button.addEventListener('click', () => { if (button.dataset.move) play(button.dataset.move); });
  const chips = hand.map((code, i) => {
    const el = chip(cards, code, info, { 'data-discard-card': code, 'aria-pressed': 'false', type: 'button' }, 'button');
    el.classList.add('playable');
    el.addEventListener('click', () => {
      if (picked.has(i)) picked.delete(i); else picked.add(i);
      el.setAttribute('aria-pressed', String(picked.has(i)));
      el.classList.toggle('picked', picked.has(i));
      update();
    });
    return el;
  });
  update();
  return h('div', { class: 'discard', 'data-discard-chooser': '' }, h('b', {}, 'Your hand '), h('span', { class: 'hand', 'data-hand': colour }, chips), button);
}

/// The decisions so far, newest last, as a story: who did what, in words
/// (the deal and draws are chance moves, hidden until the game ends). Passes
/// in a row are one line, saying what went by; a discard names its cards as
/// the move list does (the server's label).
function battleLog(history, label) {
  const lines = [];
  for (const m of history.filter((mv) => mv.actor !== 'chance' && mv.text)) {
    const colour = m.actor === 'first' ? 'White' : 'Black';
    const last = lines[lines.length - 1];
    if (m.text === 'pass') {
      const said = `${colour}: ${m.label || 'pass'}`;
      if (last && last.passes) {
        if (!last.passes.includes(said)) last.passes.push(said);
      } else {
        lines.push({ passes: [said] });
      }
      continue;
    }
    const words = m.text.startsWith('discard:') && m.label ? sentence(m.label) : label(m.text);
    lines.push({ colour, words });
  }
  const list = h('ol', { class: 'log', 'data-battle-log': '', start: Math.max(1, lines.length - 7) });
  for (const line of lines.slice(-8)) {
    list.append(line.passes
      ? h('li', { class: 'muted', 'data-log-passes': '' }, line.passes.join('; '))
      : h('li', {}, h('b', {}, `${line.colour}: `), line.words));
  }
  return h('div', {}, h('b', {}, 'Battle log'), lines.length ? list : h('p', { class: 'muted' }, 'nothing yet'));
}

/// Every card of this game's deck, explained (a details box).
function cardReference(cards) {
  const list = h('dl', { class: 'card-reference' });
  for (const card of cards.values()) list.append(h('dt', {}, card.name), h('dd', {}, explain(card).replace(/^[^:]*: /, '')));
  return h('details', { class: 'cards-help' }, h('summary', {}, 'The cards of this deck'), list);
}
