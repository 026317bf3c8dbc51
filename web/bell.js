// The header's bell (docs/api.md, "Notifications"): for a logged-in
// account, how many notifications it has not read, live over its socket,
// and the newest of them in a list that opens on a click (reading them).

import { api, tournamentGames } from './api.js';
import { h, clear } from './dom.js';

const RECONNECT_MS = 3000;
const MAX_RECONNECT_MS = 120000;

/** Puts the bell before the header's account link, once logged in. */
export function showBell(me) {
  if (!me || !me.username) return;
  const link = document.querySelector('[data-account-link]');
  if (!link || document.querySelector('[data-bell]')) return;
  const count = h('span', { class: 'bell-count', 'data-bell-count': '0', hidden: true });
  const list = h('div', { class: 'bell-list', 'data-bell-list': '', hidden: true, role: 'dialog', 'aria-label': 'Notifications' });
  const button = h('button', { type: 'button', class: 'bell-button', 'aria-label': 'Notifications', title: 'Notifications' },
    bellIcon(), count);
  const bell = h('div', { class: 'bell', 'data-bell': '' }, button, list);
  link.before(bell);
  let latest = { unread: 0, notifications: [] };

  const show = (state) => {
    latest = state;
    announceGame(state.notifications || []);
    count.textContent = state.unread > 99 ? '99+' : String(state.unread);
    count.setAttribute('data-bell-count', String(state.unread));
    count.hidden = state.unread === 0;
    button.setAttribute('aria-label', `Notifications: ${state.unread} unread`);
    if (!list.hidden) render();
  };
  const render = () => {
    clear(list);
    if (!latest.notifications.length) {
      list.append(h('p', { class: 'muted' }, 'Nothing yet. Correspondence games tell you here when it is your move.'));
      return;
    }
    list.append(h('ul', {}, latest.notifications.map((n) => h('li', { class: n.read ? 'read' : 'unread', 'data-notification': n.kind },
      h('a', { href: n.link || '#' }, n.text),
      n.kind === 'challenge' ? challengeAnswers(n) : null,
      h('time', { class: 'muted', datetime: new Date(n.createdAt).toISOString() }, ago(n.createdAt))))));
  };
  button.addEventListener('click', async () => {
    list.hidden = !list.hidden;
    if (list.hidden) return;
    try {
      show(await api.notifications());
    } catch (_) {
      render();
    }
    if (latest.unread > 0) {
      try {
        await api.readNotifications();
      } catch (_) {
        // Read again next time.
      }
    }
  });
  document.addEventListener('click', (event) => {
    if (!bell.contains(event.target)) list.hidden = true;
  });
  listen(show);
}

/**
 * Accept and Decline for a challenge's notice (its link carries the
 * challenge's id): accepting opens the game.
 */
function challengeAnswers(notice) {
  const id = new URL(notice.link || '/', location.origin).searchParams.get('challenge');
  if (!id) return null;
  // Answered already (here, on another device, through the API): say how.
  const state = notice.challenge;
  if (state && state.status !== 'created') {
    const words = { accepted: 'Accepted', declined: 'Declined', canceled: 'Withdrawn', offline: 'Expired' }[state.status] || state.status;
    return h('span', { class: 'challenge-answers', 'data-challenge-answered': state.status },
      h('span', { class: 'muted' }, words),
      state.gameId ? h('a', { href: `/g/${state.gameId}`, 'data-challenge-game': state.gameId }, 'Open the game') : null);
  }
  const said = h('span', { class: 'muted', 'data-challenge-said': '' });
  const accept = h('button', { type: 'button', class: 'primary', 'data-challenge-accept': id }, 'Accept');
  const decline = h('button', { type: 'button', 'data-challenge-decline': id }, 'Decline');
  const answer = async (how) => {
    accept.disabled = true;
    decline.disabled = true;
    try {
      if (how === 'accept') {
        const accepted = await api.acceptChallenge(id);
        location.href = `/g/${accepted.id}`;
        return;
      }
      await api.declineChallenge(id);
      said.textContent = 'Declined';
    } catch (error) {
      said.textContent = error && error.message ? error.message : String(error);
    }
  };
  accept.addEventListener('click', (event) => { event.stopPropagation(); answer('accept'); });
  decline.addEventListener('click', (event) => { event.stopPropagation(); answer('decline'); });
  return h('span', { class: 'challenge-answers' }, accept, decline, said);
}

/// How long after a tournament's pairing its notice is announced: the
/// game is lost if it is not started within 30 s.
const ANNOUNCE_FOR_MS = 60000;

/**
 * A tournament game that has just started, announced at the top of any
 * page but its own (the tournament's page opens it by itself), with the
 * button that opens it: unread, recent, and not opened in this tab yet.
 */
function announceGame(notifications) {
  const fresh = notifications.find((n) => n.kind === 'tournamentGame' && !n.read && n.game
    && Date.now() - n.createdAt < ANNOUNCE_FOR_MS && !tournamentGames.opened(n.game) && location.pathname !== n.link);
  const shown = document.querySelector('[data-game-started]');
  if (!fresh) return;
  if (shown && shown.getAttribute('data-game-started') === fresh.game) return;
  if (shown) shown.remove();
  const play = h('a', { class: 'button primary', href: fresh.link, 'data-game-started-open': fresh.game }, 'Play');
  play.addEventListener('click', async (event) => {
    event.preventDefault();
    try {
      await api.readNotifications([fresh.id]);
    } catch (_) {
      // Read next time the bell opens.
    }
    location.assign(fresh.link);
  });
  const close = h('button', { type: 'button', class: 'link', 'aria-label': 'Close', 'data-game-started-close': '' }, '×');
  const banner = h('div', { class: 'game-started', role: 'alert', 'data-game-started': fresh.game },
    h('span', {}, fresh.text), play, close);
  close.addEventListener('click', () => banner.remove());
  document.body.append(banner);
}

function listen(show, wait = RECONNECT_MS) {
  const socket = new WebSocket(api.notificationsSocketUrl());
  let heard = false;
  socket.addEventListener('message', (event) => {
    heard = true;
    try {
      const message = JSON.parse(event.data);
      if (message.type === 'notifications') show(message);
    } catch (_) {
      // Not ours: ignore.
    }
  });
  // Closed (a restart, a network change): come back, waiting longer each
  // time a socket closes before it said anything (logged out elsewhere).
  socket.addEventListener('close', () => {
    const next = heard ? RECONNECT_MS : Math.min(wait * 2, MAX_RECONNECT_MS);
    setTimeout(() => listen(show, next), heard ? RECONNECT_MS : wait);
  });
}

function ago(ms) {
  const minutes = Math.round((Date.now() - ms) / 60000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return new Date(ms).toLocaleDateString();
}

function bellIcon() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', 'M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z');
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}
