// The move list: moves grouped by turn, both sides of a round on one row,
// numbered. A turn may be several moves (Kelasu's actions, Lunch Chess's
// decisions including the other side's answers): they stay together in
// their turn's cell. Each move shows its short human form (`label`, from
// the server) with the exact move text in its tooltip.

import { h } from './dom.js';

/// Groups moves into turns: a new turn starts when the side on turn
/// changes (`side`, from the server: in Lunch Chess an answer belongs to
/// the attacker's turn), or, without it, when the player who acts changes.
/// Chance moves (deals, draws) stay in the turn they happen in.
export function groupTurns(moves) {
  const turns = [];
  let current = null;
  for (const mv of moves) {
    const side = mv.side || (mv.actor === 'chance' ? null : mv.actor);
    if (!current || (side && current.side && side !== current.side)) {
      current = { side, moves: [] };
      turns.push(current);
    }
    if (!current.side && side) current.side = side;
    current.moves.push(mv);
  }
  return turns;
}

/// Rows of the list: each round (first's turn, then second's) on one row,
/// numbered from 1; a game starting with the second player leaves the
/// first cell of row 1 empty.
export function rounds(turns) {
  const rows = [];
  for (const turn of turns) {
    const last = rows[rows.length - 1];
    if (turn.side === 'second' && last && !last.second && last.first) {
      last.second = turn;
    } else if (turn.side === 'second') {
      rows.push({ number: rows.length + 1, first: null, second: turn });
    } else if (!turn.side && last && !last.second && !last.first) {
      last.first = turn;
    } else {
      rows.push({ number: rows.length + 1, first: turn, second: null });
    }
  }
  return rows;
}

/// Where each move stands in the list as `moveList` numbers it: its row's
/// number, the side whose turn it belongs to, and whether it begins that
/// turn. `start` numbers the first row (a position that is not the game's
/// start: its turn counter). The analysis board numbers its lines so, in
/// the game page's notation.
export function turnNumbers(moves, start = 1) {
  const placed = new Map();
  for (const row of rounds(groupTurns(moves))) {
    for (const side of ['first', 'second']) {
      const turn = row[side];
      if (!turn) continue;
      turn.moves.forEach((mv, i) => placed.set(mv, { number: row.number + start - 1, side, starts: i === 0 || turn.moves.slice(0, i).every((m) => m.actor === 'chance') }));
    }
  }
  return moves.map((mv) => placed.get(mv) || { number: start, side: null, starts: false });
}

/// How a numbered move is introduced: `12.` for the first side's turn,
/// `12…` for the second's.
export function turnLabel({ number, side }) {
  return side === 'second' ? `${number}…` : `${number}.`;
}

const isPass = (mv) => mv.actor !== 'chance' && mv.text === 'pass';

/// The moves of a turn in runs: each player move alone, consecutive chance
/// moves together, and consecutive passes together (in Lunch Chess every
/// card has its windows, and most are let go by).
function runs(moves) {
  const out = [];
  for (const mv of moves) {
    const last = out[out.length - 1];
    const together = last && ((mv.actor === 'chance' && last[0].actor === 'chance') || (isPass(mv) && isPass(last[0])));
    if (together) last.push(mv);
    else out.push([mv]);
  }
  return out;
}

/// The moves of a round (its first side's turn, then its second's) in the
/// column of `side`: each move in its actor's column, whoever's turn it
/// was made in (a Lunch Chess answer, a Dodge or a First Aid, stands under
/// the side that played it, set apart as an answer); a chance move (a
/// deal, a draw) in the column of the turn it happens in. Each with the
/// side of its turn.
export function columnMoves(row, side) {
  const out = [];
  for (const turnSide of ['first', 'second']) {
    const turn = row[turnSide];
    if (!turn) continue;
    for (const mv of turn.moves) {
      const column = mv.actor === 'first' || mv.actor === 'second' ? mv.actor : (turn.side || turnSide);
      if (column === side) out.push({ mv, turnSide: turn.side || turnSide });
    }
  }
  return out;
}

/// The list as elements. `current` is the ply shown on the board;
/// `onPick(ply)` shows the position after that move; `names` the players'
/// names ({first: 'white', second: 'black'}); `glyphs` the computer
/// review's judged moves (ply → {glyph, name}).
export function moveList(moves, { current, onPick, shortOf, names = {}, glyphs = null }) {
  const list = h('div', { class: 'move-rows', 'data-moves': '' });
  for (const row of rounds(groupTurns(moves))) {
    const el = h('div', { class: 'round', 'data-round': row.number }, h('span', { class: 'num' }, `${row.number}.`));
    for (const side of ['first', 'second']) {
      const placed = columnMoves(row, side);
      const turnOf = new Map(placed.map(({ mv, turnSide }) => [mv, turnSide]));
      const cell = h('span', { class: `cell ${side}` });
      if (!placed.length) cell.append(h('span', { class: 'muted' }, '…'));
      else {
        for (const item of runs(placed.map(({ mv }) => mv))) {
          if (item.length > 1 && isPass(item[0])) {
            // A run of passes is one entry, in plain words: what went by.
            const last = item[item.length - 1];
            const said = [...new Set(item.map((m) => m.label || 'pass'))];
            cell.append(h('span', {
              class: `move pass run${item.some((m) => m.ply === current) ? ' current' : ''}`,
              'data-ply': last.ply,
              'data-text': 'pass',
              'data-passes': item.length,
              title: item.map((m) => `${names[m.actor] || m.actor}: ${m.label || 'pass'}`).join('\n'),
              onclick: () => onPick(last.ply),
            }, said.join(', ')));
            continue;
          }
          if (item.length > 1) {
            // A run of chance moves (a deal) is one entry: its cards are
            // noise in the list, and hidden until the end anyway.
            const last = item[item.length - 1];
            const shown = item.filter((m) => m.text !== null).map((m) => m.label || m.text);
            cell.append(h('span', {
              class: `move chance run${item.some((m) => m.ply === current) ? ' current' : ''}`,
              'data-ply': last.ply,
              'data-text': '',
              title: shown.length ? `chance: ${shown.join(', ')}` : `${item.length} chance moves (a deal, draws), shown when the game ends`,
              onclick: () => onPick(last.ply),
            }, `chance ×${item.length}`));
            continue;
          }
          const mv = item[0];
          const hidden = mv.text === null;
          const text = hidden ? (mv.actor === 'chance' ? '·' : '?') : (mv.label || (shortOf ? shortOf(mv.text) : mv.text));
          const judged = glyphs ? glyphs.get(mv.ply) : null;
          const title = hidden ? 'a chance move (a shuffle or a draw), shown when the game ends' : `${mv.actor === 'chance' ? 'chance: ' : ''}${mv.text}`;
          cell.append(h('span', {
            class: `move ${mv.actor}${mv.ply === current ? ' current' : ''}${mv.actor !== 'chance' && mv.actor !== turnOf.get(mv) ? ' answer' : ''}${isPass(mv) ? ' pass' : ''}`,
            'data-ply': mv.ply,
            'data-text': mv.text === null ? '' : mv.text,
            title: judged ? `${title} (${judged.name})` : title,
            onclick: () => onPick(mv.ply),
          }, text, judged ? h('span', { class: `glyph ${judged.name.toLowerCase()}`, 'data-glyph': judged.glyph }, judged.glyph) : null));
        }
      }
      el.append(cell);
    }
    list.append(el);
  }
  return list;
}
