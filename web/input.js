// Pointer input on the board, for mouse, pen and touch alike (pointer
// events): a press on a cell is a click on it; a press on a piece that is
// then dragged lifts the piece, which follows the pointer, and the release
// over another cell is a click there. Pressing the selected piece again
// without dragging deselects it.
//
// The listeners sit on the board's container, which outlives the <svg>
// redrawn at every click, so a drag survives the redraw.

const DRAG_START = 4; // pixels of movement before a press becomes a drag

/// The cell a page element belongs to: a hint's cell or a square's.
export function cellOf(element) {
  if (!element || !element.closest) return null;
  const hint = element.closest('[data-hint-for]');
  if (hint) return hint.getAttribute('data-hint-for');
  const square = element.closest('[data-square]');
  return square ? square.getAttribute('data-square') : null;
}

/// Attaches the board input of `page` ({click(name, point), deselect(),
/// path, unlock()}) to `container`; `point` is where the pointer went down
/// (viewport pixels), for a game whose cells are too small to hit.
export function attachInput(container, page) {
  let press = null; // {cell, x, y, id, wasSelected, ghost, piece}

  container.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const cell = cellOf(event.target);
    if (!cell) return;
    event.preventDefault();
    page.unlock();
    const wasSelected = page.path.length === 1 && page.path[0] === cell;
    page.click(cell, { x: event.clientX, y: event.clientY });
    press = { cell, x: event.clientX, y: event.clientY, id: event.pointerId, wasSelected, ghost: null };
    // Only a selected piece can be lifted.
    if (!page.path.includes(cell) || !pieceElement(container, cell)) press.liftable = false;
    else press.liftable = true;
    try { container.setPointerCapture(event.pointerId); } catch (_) { /* synthetic events */ }
  });

  container.addEventListener('pointermove', (event) => {
    if (!press || event.pointerId !== press.id || !press.liftable) return;
    if (!press.ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START) return;
      press.ghost = lift(container, press.cell);
      if (!press.ghost) { press.liftable = false; return; }
      page.lastDrag = { cell: press.cell, pointer: event.pointerType, trail: [] };
    }
    moveGhost(press.ghost, event.clientX, event.clientY);
    markDropTarget(container, event.clientX, event.clientY);
    // Where the lifted piece was drawn, for the browser tests.
    const r = press.ghost.element.getBoundingClientRect();
    page.lastDrag.trail.push([event.clientX, event.clientY, r.x + r.width / 2, r.y + r.height / 2]);
    event.preventDefault();
  });

  const release = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const done = press;
    press = null;
    try { container.releasePointerCapture(event.pointerId); } catch (_) { /* already released */ }
    if (done.ghost) {
      drop(container, done);
      if (cancelled) return;
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const target = under && container.contains(under) ? cellOf(under) : null;
      if (target && target !== done.cell) page.click(target);
    } else if (done.wasSelected && !cancelled) {
      page.deselect();
    }
  };
  container.addEventListener('pointerup', (event) => release(event, false));
  container.addEventListener('pointercancel', (event) => release(event, true));
}

function pieceElement(container, cell) {
  return container.querySelector(`[data-piece-at="${CSS.escape(cell)}"]`);
}

/// A copy of the piece in its own small <svg>, fixed to the viewport, that
/// follows the pointer; the piece left behind is faded.
function lift(container, cell) {
  const piece = pieceElement(container, cell);
  const square = container.querySelector(`[data-square="${CSS.escape(cell)}"]`);
  const board = container.querySelector('svg');
  if (!piece || !square || !board) return null;
  const box = square.getBBox();
  const rect = square.getBoundingClientRect();
  const ghost = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  ghost.setAttribute('viewBox', `${box.x} ${box.y} ${box.width} ${box.height}`);
  ghost.setAttribute('class', 'drag-ghost');
  ghost.setAttribute('data-drag-ghost', cell);
  ghost.style.width = `${rect.width}px`;
  ghost.style.height = `${rect.height}px`;
  ghost.append(piece.cloneNode(true));
  document.body.append(ghost);
  piece.setAttribute('opacity', '0.3');
  container.classList.add('dragging');
  return { element: ghost, piece, width: rect.width, height: rect.height };
}

function moveGhost(ghost, x, y) {
  ghost.element.style.transform = `translate(${x - ghost.width / 2}px, ${y - ghost.height / 2}px)`;
}

/// The hint under a dragged piece is lit, as it would be under the mouse
/// (:hover does not follow a captured pointer).
function markDropTarget(container, x, y) {
  const under = document.elementFromPoint(x, y);
  const hint = under && container.contains(under) ? under.closest('[data-hint-for]') : null;
  for (const lit of container.querySelectorAll('.hint.drop-target')) if (lit !== hint) lit.classList.remove('drop-target');
  if (hint) hint.classList.add('drop-target');
}

function drop(container, press) {
  for (const lit of container.querySelectorAll('.hint.drop-target')) lit.classList.remove('drop-target');
  press.ghost.element.remove();
  if (press.ghost.piece.isConnected) press.ghost.piece.removeAttribute('opacity');
  container.classList.remove('dragging');
}
