// The analysis board's variation tree: every node is a position reached
// from the root by the moves on its path. A node's first child is its main
// continuation, the others are side lines. The tree lives in the page only:
// the game a root came from is never touched.
//
// The list shows it as a game record does: the main line, and after a move
// that has alternatives, each side line in parentheses (nested lines
// indented), every move clickable.

import { h } from './dom.js';
import { turnLabel } from './movelist.js';

export class TreeNode {
  /// `move`: {text, label, actor} that led here (null at the root).
  constructor(parent, move) {
    this.parent = parent;
    this.move = move;
    this.children = [];
    this.data = null; // the server's answer for this node, once asked
  }

  /// The move texts from the root to this node.
  path() {
    const moves = [];
    for (let node = this; node.parent; node = node.parent) moves.push(node.move.text);
    return moves.reverse();
  }

  /// Moves from the root to here.
  depth() {
    let n = 0;
    for (let node = this; node.parent; node = node.parent) n += 1;
    return n;
  }

  /// The child reached by `move`: the one there is, or a new side line
  /// (the first child stays the main continuation).
  child(move) {
    const found = this.children.find((c) => c.move.text === move.text);
    if (found) return found;
    const node = new TreeNode(this, move);
    this.children.push(node);
    return node;
  }

  /// The end of this node's main continuation.
  lineEnd() {
    let node = this;
    while (node.children.length) node = node.children[0];
    return node;
  }

  /// Whether this node is on the main line of the whole tree.
  onMainLine() {
    for (let node = this; node.parent; node = node.parent) if (node.parent.children[0] !== node) return false;
    return true;
  }

  /// Makes this node's line the main continuation at the node it branches from.
  promote() {
    let node = this;
    while (node.parent && node.parent.children[0] === node) node = node.parent;
    if (!node.parent) return;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    siblings.unshift(node);
  }

  /// Removes this node and everything after it.
  remove() {
    if (!this.parent) return;
    const siblings = this.parent.children;
    siblings.splice(siblings.indexOf(this), 1);
  }
}

/// The tree as a list. `offset` is the number of moves before the root
/// (a game's position after some moves), for the plies; `numberOf(node)`
/// places a node's move in the game page's notation (`turnNumbers`:
/// `{number, side, starts}`); `shortOf` gives a move's short form.
export function treeList(root, { current, offset = 0, onPick, shortOf, numberOf }) {
  const list = h('div', { class: 'tree', 'data-tree': '' });
  const options = { current, offset, onPick, shortOf, numberOf };
  if (root.children.length) list.append(lineFrom(root.children[0], options, 0));
  else list.append(h('p', { class: 'muted tree-empty' }, 'Play a move on the board to start a line.'));
  return list;
}

/// The line that begins with the move to `first` and goes on by main
/// continuations; after each move, the side lines that leave from the
/// position before it, in parentheses.
function lineFrom(first, options, nested) {
  const el = h('div', { class: nested ? 'tree-line variation' : 'tree-line main', 'data-line': nested ? 'variation' : 'main', 'data-nested': nested });
  let node = first;
  let resumed = true;
  while (node) {
    el.append(moveItem(node, options, resumed));
    resumed = false;
    const siblings = node.parent.children;
    if (siblings[0] === node) {
      for (const side of siblings.slice(1)) {
        el.append(lineFrom(side, options, nested + 1));
        resumed = true;
      }
    }
    node = node.children[0];
  }
  return el;
}

/// A move of the tree, numbered as the game page numbers turns: `12.`
/// before the first side's turn, `12…` before the second side's where a
/// line begins or resumes after a side line (else the second side's turn
/// follows the first's on the same number).
function moveItem(node, { current, offset, onPick, shortOf, numberOf }, resumed) {
  const ply = offset + node.depth();
  const text = node.move.label || (shortOf ? shortOf(node.move.text) : node.move.text);
  const place = numberOf ? numberOf(node) : { number: ply, side: 'first', starts: true };
  let number = null;
  if (place.starts && (place.side !== 'second' || resumed)) number = turnLabel(place);
  else if (resumed) number = `${place.number}…`;
  return h('span', {
    class: `move tree-move ${node.move.actor || ''}${node === current ? ' current' : ''}`,
    'data-tree-move': node.move.text,
    'data-tree-ply': ply,
    title: `${node.move.text}${node.move.label && node.move.label !== node.move.text ? ` (${node.move.label})` : ''}: move ${ply}`,
    onclick: () => onPick(node),
  }, number ? h('span', { class: 'tree-num' }, number) : null, text);
}
