// Game records (docs/records.md) on the page: the "Download record" link of
// a game page, and the home page's form that starts a game from a pasted or
// uploaded record (POST /api/games/import, docs/api.md), or opens it on the
// analysis board (imported as a game of both sides on this device, which
// the board only reads).

import { api, myGames, ApiError } from './api.js';
import { h } from './dom.js';

/// The link that downloads game `id`'s record: complete once the game is
/// over, its public part while a game with hidden cards goes on.
export function downloadLink(id) {
  return h('a', { href: `/api/games/${id}/record`, download: `menagerie-${id}.pgn`, class: 'button', 'data-download-record': '' }, 'Download record');
}

async function importRecord(request) {
  const response = await fetch('/api/games/import', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || response.statusText);
  return data;
}

/// The home page's "Import record" section: paste a record or pick a file,
/// choose how the game goes on, and open it.
export function importForm() {
  const text = h('textarea', { name: 'record', rows: 6, cols: 60, placeholder: '[Variant "lma"]\n\n1. 2b1c3 1e7d5 *', 'data-import-text': '' });
  const file = h('input', { type: 'file', accept: '.pgn,.txt,text/plain', 'data-import-file': '' });
  const opponent = h('select', { name: 'opponent', 'data-import-opponent': '' },
    h('option', { value: 'local' }, 'both sides on this device (replay, analyse)'),
    h('option', { value: 'computer' }, 'the computer'),
    h('option', { value: 'friend' }, 'a friend (send a link)'),
    h('option', { value: 'analyse' }, 'nobody: study it on the analysis board'));
  // Where the analysis board opens: a move number (plies from the start), or the end.
  const ply = h('input', { type: 'number', min: '0', step: '1', class: 'short-number', placeholder: 'end', 'aria-label': 'analyse at move', 'data-import-ply': '' });
  const plyLabel = h('label', { hidden: true }, 'at move ', ply);
  opponent.addEventListener('change', () => { plyLabel.hidden = opponent.value !== 'analyse'; });
  const colour = h('select', { name: 'colour' },
    h('option', { value: 'first' }, 'first player'),
    h('option', { value: 'second' }, 'second player'),
    h('option', { value: 'random' }, 'random'));
  const error = h('p', { class: 'error', hidden: true, 'data-import-error': '' });
  file.addEventListener('change', async () => {
    const chosen = file.files && file.files[0];
    if (chosen) text.value = await chosen.text();
  });
  const form = h('form', { class: 'import-record', 'data-import': '' },
    h('p', {}, 'Paste a game record (', h('a', { href: '/docs/records', target: '_blank' }, 'format'), ') or load a file: ', file),
    text,
    h('div', { class: 'new-game' },
      h('label', {}, 'Go on against ', opponent), ' ', plyLabel, ' ',
      h('label', {}, 'Your side ', colour), ' ',
      h('button', { type: 'submit', class: 'primary', 'data-import-submit': '' }, 'Import')),
    error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      const analyse = opponent.value === 'analyse';
      const created = await importRecord({ record: text.value, opponent: analyse ? 'local' : opponent.value, colour: colour.value });
      let seat = created.secrets[created.you] || Object.values(created.secrets)[0];
      myGames.save({ id: created.id, variant: '', name: 'Imported game', mode: created.mode, you: created.you, seat, secrets: created.secrets, created: Date.now() });
      if (analyse) {
        // Both seats are ours: look as the one to act (its cards, where hidden).
        const state = await api.game(created.id, seat);
        if (state.to_act && created.secrets[state.to_act]) seat = created.secrets[state.to_act];
        const at = ply.value.trim() === '' ? '' : `&ply=${encodeURIComponent(ply.value.trim())}`;
        location.href = `/analysis?game=${created.id}&seat=${encodeURIComponent(seat)}${at}`;
        return;
      }
      location.href = `/g/${created.id}?seat=${encodeURIComponent(seat)}`;
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  });
  return h('details', { class: 'import' }, h('summary', {}, h('h2', { class: 'inline' }, 'Import record')), form);
}
