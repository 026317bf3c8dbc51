// Lunch Chess: chess pieces with hit points, fought over with cards. View
// (crates/games/src/lunch/mod.rs): { squares: [{square, piece, color, hp,
// stunned, stomped}], side, to_act, result, hands: {white: [cards] | count,
// black: ...}, draw_pile, discard, weapons_in_play, holds, battle, pending, text }.
// Moves: `e2e4`, `attack:d1d5:kick[:cw]`, `answer:dodge`, `pass`,
// `discard:jab+block`, `aid:e4:firstaid`, `free:e5:jab`, `grab:...`,
// `choose:e4:b`, `promote:e8:q`, `humiliate:...`, `break:e5:freedom`.

import { h } from '../dom.js';
import { svg, grid } from '../board.js';

const NAMES = { answer: 'Answer', pass: 'No answer / pass', discard: 'Discard', aid: 'First Aid', free: 'Free attack', grab: 'Grab', choose: 'Choose', promote: 'Promote', humiliate: 'Humiliate', break: 'Break the hold', attack: 'Attack' };

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
        return { letter, side: p.color === 'white' ? 'first' : 'second', badge: ctx.small ? null : p.hp, disc: p.piece.toUpperCase() === 'I', faded: p.stunned };
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

  panel(board, ctx = {}) {
    if (!board || !board.hands) return null;
    const me = ctx.you === 'second' ? 'black' : ctx.you === 'first' ? 'white' : null;
    const box = h('div', { class: 'info-box', 'data-lunch-panel': '' });
    for (const colour of ['white', 'black']) {
      const hand = board.hands[colour];
      const cards = Array.isArray(hand)
        ? h('span', { class: 'hand' }, hand.map((c) => h('span', { class: 'card', 'data-card': c }, c)))
        : h('span', {}, `${hand} cards (hidden)`);
      box.append(h('div', {}, h('b', {}, `${colour}${colour === me ? ' (you)' : ''}: `), cards));
    }
    box.append(h('div', {}, `Draw pile: ${board.draw_pile ?? '?'} — discard: ${(board.discard || []).slice(-8).join(', ') || 'empty'}`));
    if (board.weapons_in_play && board.weapons_in_play.length) box.append(h('div', {}, `Weapons in play: ${board.weapons_in_play.join(', ')}`));
    if (board.holds && board.holds.length) box.append(h('div', {}, `Holds: ${board.holds.map((x) => `${x.kind} ${x.holder}→${x.held}`).join('; ')}`));
    if (board.battle) {
      const b = board.battle;
      box.append(h('div', { class: 'battle', 'data-battle': '' }, h('b', {}, 'Battle: '), `${b.attacker} attacks ${b.t} from ${b.a} with ${b.card}`));
    }
    if (board.pending) box.append(h('div', { 'data-pending': '' }, h('b', {}, 'Now: '), board.pending));
    if (board.log && board.log.length) box.append(h('div', { class: 'log' }, h('b', {}, 'Battle log: '), board.log.slice(-6).join(' · ')));
    return box;
  },
};
