// The JSON API (docs/api.md) and the games this browser takes part in.

export class ApiError extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  // Every change is JSON, even one with nothing to say (the server refuses
  // other bodies: a form on another site could post those).
  if (body === undefined && method !== 'GET') body = {};
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || response.statusText);
  }
  return data;
}

/// A GET of `path`'s JSON, and a POST of `body` to it (for pages that call
/// routes the `api` object does not name).
export const getJson = (path) => call('GET', path);
export const postJson = (path, body) => call('POST', path, body);

let mePromise = null;

const q = (seat) => (seat ? `?seat=${encodeURIComponent(seat)}` : '');

export const api = {
  variants: () => call('GET', '/api/variants'),
  create: (request) => call('POST', '/api/games', request),
  game: (id, seat) => call('GET', `/api/games/${id}${q(seat)}`),
  moves: (id, seat) => call('GET', `/api/games/${id}/moves${q(seat)}`),
  position: (id, ply, seat) => call('GET', `/api/games/${id}/position/${ply}${q(seat)}`),
  play: (id, seat, move, ply) => call('POST', `/api/games/${id}/move`, { seat, move, ply }),
  resign: (id, seat) => call('POST', `/api/games/${id}/resign`, { seat }),
  draw: (id, seat, action) => call('POST', `/api/games/${id}/draw`, { seat, action }),
  takeback: (id, seat, action) => call('POST', `/api/games/${id}/takeback`, { seat, action }),
  time: () => call('GET', '/api/time'),
  rematch: (id, seat) => call('POST', `/api/games/${id}/rematch`, { seat }),
  claimable: (id, seat) => call('GET', `/api/games/${id}/claim${q(seat)}`),
  claim: (id, seat, result) => call('POST', `/api/games/${id}/claim`, { seat, result }),
  socketUrl: (id, seat) => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/games/${id}/ws${q(seat)}`,
  // The lobby: this browser's name (its identity is a cookie) and the seeks.
  // Asked once per page (the lobby and the header's account link both ask):
  // a new browser gets one identity cookie, not two.
  me: () => (mePromise ||= call('GET', '/api/me')),
  rename: (name) => call('POST', '/api/me', { name }),
  createSeek: (request) => call('POST', '/api/seeks', request),
  cancelSeek: (id) => call('DELETE', `/api/seeks/${encodeURIComponent(id)}`),
  acceptSeek: (id) => call('POST', `/api/seeks/${encodeURIComponent(id)}/accept`),
  // Accounts: the session is a cookie.
  register: (username, password) => call('POST', '/api/register', { username, password }),
  login: (username, password) => call('POST', '/api/login', { username, password }),
  logout: (everywhere) => call('POST', '/api/logout', { everywhere: Boolean(everywhere) }),
  account: () => call('GET', '/api/account'),
  // The logged-in account or null, never an error when logged out.
  session: () => call('GET', '/api/session'),
  playing: () => call('GET', '/api/account/playing'),
  closeAccount: (password) => call('POST', '/api/account/close', { password }),
  tokens: () => call('GET', '/api/tokens'),
  createToken: (description, scopes) => call('POST', '/api/tokens', { description, scopes }),
  revokeToken: (id) => call('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
  passkeyRegisterStart: () => call('POST', '/api/account/passkeys/start'),
  passkeyRegisterFinish: (ceremony, credential) => call('POST', '/api/account/passkeys/finish', { ceremony, credential }),
  passkeyLoginStart: () => call('POST', '/api/login/passkey/start'),
  passkeyLoginFinish: (ceremony, credential) => call('POST', '/api/login/passkey/finish', { ceremony, credential }),
  players: (id) => call('GET', `/api/games/${id}/players`),
  // Players (lichess's shapes): a profile, its rating history, its games
  // as one records file, and the leaderboards.
  user: (name) => call('GET', `/api/user/${encodeURIComponent(name)}`),
  ratingHistory: (name) => call('GET', `/api/user/${encodeURIComponent(name)}/rating-history`),
  block: (name) => call('POST', `/api/rel/block/${encodeURIComponent(name)}`, {}),
  unblock: (name) => call('POST', `/api/rel/unblock/${encodeURIComponent(name)}`, {}),
  userGamesUrl: (name, filters = {}) => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== '' && value !== null && value !== undefined));
    const text = query.toString();
    return `/api/games/user/${encodeURIComponent(name)}${text ? `?${text}` : ''}`;
  },
  userGames: async (name, filters) => {
    const response = await fetch(api.userGamesUrl(name, filters));
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      throw new ApiError(response.status, (data && data.error) || response.statusText);
    }
    return response.text();
  },
  top: (count, variant) => call('GET', `/api/player/top/${count}/${encodeURIComponent(variant)}`),
  notifications: () => call('GET', '/api/notifications'),
  challenge: (username, terms) => call('POST', `/api/challenge/${encodeURIComponent(username)}`, terms),
  challengeShown: (id) => call('GET', `/api/challenge/${encodeURIComponent(id)}/show`),
  acceptChallenge: (id) => call('POST', `/api/challenge/${encodeURIComponent(id)}/accept`, {}),
  declineChallenge: (id) => call('POST', `/api/challenge/${encodeURIComponent(id)}/decline`, {}),
  cancelChallenge: (id) => call('POST', `/api/challenge/${encodeURIComponent(id)}/cancel`, {}),
  readNotifications: (ids) => call('POST', '/api/notifications/read', ids ? { ids } : {}),
  notificationsSocketUrl: () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/notifications/ws`,
  email: () => call('GET', '/api/account/email'),
  setEmail: (email, password) => call('POST', '/api/account/email', { email, password }),
  askReset: (username) => call('POST', '/api/password-reset', { username }),
  finishReset: (token, password) => call('POST', '/api/password-reset/finish', { token, password }),
  lobbySocketUrl: () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/lobby/ws`,
};

// Tournament games opened in this tab (sessionStorage): the tournament's
// page opens a new game by itself, once, and a player who comes back to
// the page during that game stays there.
const OPENED = 'menagerie.tournamentGames';

export const tournamentGames = {
  opened(id) {
    try {
      return JSON.parse(sessionStorage.getItem(OPENED) || '[]').includes(id);
    } catch (_) {
      return false;
    }
  },
  remember(id) {
    try {
      const list = JSON.parse(sessionStorage.getItem(OPENED) || '[]').filter((g) => g !== id);
      list.push(id);
      sessionStorage.setItem(OPENED, JSON.stringify(list.slice(-50)));
    } catch (_) {
      // Private mode: the page may open the game again.
    }
  },
};

// Games this browser plays, kept in localStorage: {id, variant, name, mode, you, secrets, created}.
const KEY = 'menagerie.games';

export const myGames = {
  all() {
    try {
      const list = JSON.parse(localStorage.getItem(KEY) || '[]');
      return Array.isArray(list) ? list : [];
    } catch (_) {
      return [];
    }
  },
  get(id) {
    return this.all().find((g) => g.id === id) || null;
  },
  save(entry) {
    const list = this.all().filter((g) => g.id !== entry.id);
    list.unshift(entry);
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, 100)));
  },
  forget(id) {
    localStorage.setItem(KEY, JSON.stringify(this.all().filter((g) => g.id !== id)));
  },
};
