// Lunch Chess: chess pieces with hit points, fought over with cards. Board
// part of the view (crates/games/src/lunch/view.rs): { squares: [{square,
// piece, colour, hp, stunned, stomped}], on_turn, hands: {white: [cards] |
// count, black: ...}, draw_pile, discard, weapons_in_play, holds, battle,
// strike, pending }.
// Moves: `e2e4`, `attack:d1d5:kick[:cw]`, `answer:dodge`, `pass`,
// `discard:jab+block`, `aid:e4:firstaid`, `free:e5:jab`, `grab:...`,
// `choose:e4:b`, `promote:e8:q`, `humiliate:...`, `break:e5:freedom`.

import { h } from '../dom.js';
import { svg, grid } from '../board.js';

const NAMES = { answer: 'Answer', pass: 'No answer / pass', discard: 'Discard', aid: 'First Aid', free: 'Free attack', grab: 'Grab', choose: 'Choose', promote: 'Promote', humiliate: 'Humiliate', break: 'Break the hold', attack: 'Attack', draw: 'Card drawn' };

export default {
  draw(board, ctx = {}) {
    const pieces = new Map((board.squares || []).map((p) => [p.square, p]));
    const size = 10;
    const pic = svg(8 * size, 8 * size);
    pic.append(grid({
      files: 8, ranks: 8, size, flip: !!ctx.flip, ctx, label: !ctx.small,
      pieceAt: (name) => {
        const p = pieces.get(name);
        if (!p) return null;
        const letter = p.piece.toUpperCase() === 'I' ? 'I' : p.piece;
        return { letter, side: p.colour === 'white' ? 'first' : 'second', badge: ctx.small ? null : p.hp, disc: p.piece.toUpperCase() === 'I', faded: p.stunned };
      },
    }));
    return pic;
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

  label(text) {
    if (/^[a-h][1-8][a-h][1-8]$/.test(text)) return `move ${text.slice(0, 2)}→${text.slice(2)}`;
    const parts = text.split(':');
    const name = NAMES[parts[0]];
    if (!name) return text;
    if (parts[0] === 'pass') return name;
    if (parts[0] === 'attack') return `Attack ${parts[1].slice(0, 2)}→${parts[1].slice(2)} with ${parts[2]}${parts[3] ? ` (${parts[3]})` : ''}`;
    return `${name}: ${parts.slice(1).join(' ')}`;
  },

  /// Discards are chosen by picking cards in the hand (there are many ways).
  inPanel(text) {
    return text.startsWith('discard:');
  },

  panel(board, ctx = {}) {
    if (!board || !board.hands) return null;
    const me = ctx.you === 'second' ? 'black' : ctx.you === 'first' ? 'white' : null;
    const box = h('div', { class: 'info-box', 'data-lunch-panel': '' });
    // Your hand first, then the other (a count only, unless the game is over).
    const colours = me === 'black' ? ['black', 'white'] : ['white', 'black'];
    const discards = (ctx.moves || []).filter((text) => this.inPanel(text));
    for (const colour of colours) {
      const hand = board.hands[colour];
      if (colour === me && discards.length && Array.isArray(hand)) {
        // Your hand is where discards are picked.
        box.append(discardChooser(colour, hand, discards, ctx.play));
        continue;
      }
      const cards = Array.isArray(hand)
        ? h('span', { class: 'hand', 'data-hand': colour }, hand.length ? hand.map((c) => h('span', { class: 'card', 'data-card': c }, c)) : h('span', { class: 'muted' }, 'no cards'))
        : h('span', { 'data-hand': colour }, `${hand} card${hand === 1 ? '' : 's'} (hidden)`);
      box.append(h('div', { class: 'hand-row' }, h('b', {}, `${colour}${colour === me ? ' (you)' : ''}: `), cards));
    }
    const discard = Array.isArray(board.discard) ? board.discard : [];
    box.append(h('div', { 'data-piles': '' }, `Draw pile: ${board.draw_pile ?? '?'} cards — discard pile: ${discard.length} (${discard.length ? discard.slice(-6).join(', ') : 'empty'})`));
    const inPlay = Array.isArray(board.weapons_in_play) ? board.weapons_in_play.join(', ') : board.weapons_in_play;
    if (inPlay && inPlay !== '-') box.append(h('div', {}, `Weapons in play: ${inPlay}`));
    if (Array.isArray(board.holds) && board.holds.length) box.append(h('div', {}, `Holds: ${board.holds.map((x) => `${x.kind} ${x.holder}→${x.held}`).join('; ')}`));
    if (board.battle) {
      const b = board.battle;
      const strike = board.strike ? ` — ${board.strike.card} strikes ${board.strike.to} for ${board.strike.damage}${board.strike.free ? ' (free attack)' : ''}` : '';
      box.append(h('div', { class: 'battle', 'data-battle': '' }, h('b', {}, 'Battle: '), `${b.attacker} attacks ${b.t} from ${b.a} with ${b.card}${strike}`));
    }
    if (board.pending) box.append(h('div', { 'data-pending': '' }, h('b', {}, 'Now: '), board.pending));
    if (ctx.moves && ctx.moves.length) {
      box.append(h('div', { class: 'muted' }, 'Your decision: attack or move by clicking the piece, then its target; the buttons under the board play cards (or "no answer").'));
    }
    box.append(battleLog(ctx.history || [], this.label));
    return box;
  },
};

/// Pick cards of the hand, then discard them: the button names the legal
/// discard that is exactly the picked cards.
function discardChooser(colour, hand, discards, play) {
  const picked = new Set();
  const key = (cards) => [...cards].sort().join('+');
  const byCards = new Map(discards.map((text) => [key(text.slice('discard:'.length).split('+')), text]));
  const button = h('button', { class: 'primary', 'data-discard': '', disabled: true }, 'Discard');
  const update = () => {
    const text = byCards.get(key([...picked].map((i) => hand[i])));
    button.disabled = !text;
    button.dataset.move = text || '';
    button.textContent = picked.size ? (text ? `Discard ${picked.size} card${picked.size === 1 ? '' : 's'}` : 'Cannot discard these') : 'Pick cards to discard';
  };
  button.addEventListener('click', () => { if (button.dataset.move) play(button.dataset.move); });
  const cards = hand.map((card, i) => {
    const chip = h('button', { class: 'card playable', 'data-discard-card': card, 'aria-pressed': 'false' }, card);
    chip.addEventListener('click', () => {
      if (picked.has(i)) picked.delete(i); else picked.add(i);
      chip.setAttribute('aria-pressed', String(picked.has(i)));
      chip.classList.toggle('picked', picked.has(i));
      update();
    });
    return chip;
  });
  update();
  return h('div', { class: 'discard', 'data-discard-chooser': '' }, h('b', {}, `${colour} (you): `), h('span', { class: 'hand', 'data-hand': colour }, cards), button);
}

/// The decisions so far, newest last: who did what (the deal and draws are
/// chance moves, hidden until the game ends).
function battleLog(history, label) {
  const shown = history.filter((m) => m.actor !== 'chance' && m.text);
  const list = h('ol', { class: 'log', 'data-battle-log': '', start: Math.max(1, shown.length - 9) });
  for (const m of shown.slice(-10)) {
    const colour = m.actor === 'first' ? 'white' : 'black';
    list.append(h('li', {}, h('b', {}, `${colour}: `), label(m.text)));
  }
  return h('div', {}, h('b', {}, 'Battle log'), shown.length ? list : h('p', { class: 'muted' }, 'nothing yet'));
}
