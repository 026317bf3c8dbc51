// The account page (docs/api.md, "Accounts"): sign up or log in when
// logged out; when logged in, the account, its games in progress, logging
// out (here or everywhere), downloading its data and closing it.

import { api, ApiError } from './api.js';
import { h, clear } from './dom.js';
import { registerPasskey, passkeyLogin } from './passkeys.js';
import { showBell } from './bell.js';

function message(error) {
  return error instanceof ApiError ? error.message : String(error && error.message ? error.message : error);
}

export async function accountPage(root) {
  document.title = 'Account · Menagerie';
  clear(root);
  const reset = new URLSearchParams(location.search).get('reset');
  if (reset) {
    root.append(resetView(reset));
    return;
  }
  let me = null;
  try {
    me = await api.session();
  } catch (error) {
    root.append(h('p', { class: 'error' }, `Cannot load the account: ${message(error)}`));
    return;
  }
  root.append(me ? await accountView(me) : signInView());
}

/** The two forms of a logged-out browser: sign up and log in. */
function signInView() {
  return h('section', { class: 'account' },
    h('h2', {}, 'Your account'),
    h('p', { class: 'muted' }, 'Accounts are optional: you can play without one. With one you can log in on any device; the games you played in this browser become yours.'),
    h('div', { class: 'account-forms' },
      credentialsForm('signup', 'Sign up', 'Create account', (username, password) => api.register(username, password),
        'Username: 2–20 letters, digits, - or _. Password: at least 8 characters.'),
      credentialsForm('login', 'Log in', 'Log in', (username, password) => api.login(username, password), '', [passkeyButton(), forgotForm()])));
}

/** Asks for a reset link by mail (the server answers the same for anyone). */
function forgotForm() {
  const username = h('input', { name: 'reset-username', autocomplete: 'username', required: true, maxlength: '20', 'aria-label': 'username' });
  const status = h('p', { class: 'muted', 'data-reset-status': '' });
  const form = h('form', { class: 'account-forgot', 'data-form': 'forgot' },
    h('label', {}, 'Username ', username), ' ',
    h('button', { type: 'submit' }, 'Mail me a link'), status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api.askReset(username.value);
      status.textContent = 'If the account has an e-mail address, a link is on its way: it works once, for 30 minutes.';
    } catch (e) {
      status.textContent = message(e);
    }
  });
  return h('details', { class: 'account-forgot-box' }, h('summary', {}, 'Forgot your password?'), form);
}

/** The page a reset link opens: choose a new password. */
function resetView(token) {
  const password = h('input', { name: 'new-password', type: 'password', autocomplete: 'new-password', required: true, 'aria-label': 'new password' });
  const error = h('p', { class: 'error', 'data-account-error': 'reset', hidden: true });
  const form = h('form', { class: 'account-form', 'data-form': 'reset' },
    h('h3', {}, 'Choose a new password'),
    h('label', {}, 'New password', password),
    h('p', { class: 'muted hint' }, 'At least 8 characters. Every device logged in to the account is logged out.'),
    h('button', { type: 'submit', class: 'primary' }, 'Set the password'), error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      await api.finishReset(token, password.value);
      clear(form);
      form.append(h('p', { 'data-reset-done': '' }, 'Your password is set. ', h('a', { href: '/account' }, 'Log in')));
    } catch (e) {
      error.textContent = message(e);
      error.hidden = false;
    }
  });
  return h('section', { class: 'account' }, h('h2', {}, 'Your account'), form);
}

/** Logs in with a passkey: no username, no password. */
function passkeyButton() {
  const error = h('p', { class: 'error', 'data-account-error': 'passkey', hidden: true });
  const button = h('button', { type: 'button', 'data-action': 'passkey-login', onclick: async () => {
    error.hidden = true;
    try {
      await passkeyLogin();
      location.assign('/account');
    } catch (e) {
      error.textContent = message(e);
      error.hidden = false;
    }
  } }, 'Log in with a passkey');
  return [h('p', { class: 'muted hint' }, 'or'), button, error];
}

function credentialsForm(name, title, action, send, hint, extra = null) {
  const username = h('input', { name: 'username', autocomplete: 'username', required: true, maxlength: '20', 'aria-label': 'username' });
  const password = h('input', { name: 'password', type: 'password', autocomplete: name === 'signup' ? 'new-password' : 'current-password', required: true, 'aria-label': 'password' });
  const error = h('p', { class: 'error', 'data-account-error': name, hidden: true });
  const form = h('form', { class: `account-form account-${name}`, 'data-form': name },
    h('h3', {}, title),
    h('label', {}, 'Username', username),
    h('label', {}, 'Password', password),
    hint ? h('p', { class: 'muted hint' }, hint) : null,
    h('button', { type: 'submit', class: 'primary' }, action),
    error,
    extra);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      await send(username.value, password.value);
      location.assign('/account');
    } catch (e) {
      error.textContent = message(e);
      error.hidden = false;
    }
  });
  return form;
}

/** A logged-in account: who, its games in progress, and what it can do. */
async function accountView(me) {
  const section = h('section', { class: 'account' },
    h('h2', { 'data-username': me.username }, me.username),
    h('p', { class: 'muted' }, `Member since ${new Date(me.createdAt).toLocaleDateString()}`, ' · ',
      h('a', { href: `/@/${encodeURIComponent(me.username)}`, 'data-profile-link': '' }, 'Your profile: ratings and games')));
  const games = h('ul', { class: 'your-games', 'data-account-games': '' });
  section.append(h('h3', {}, 'Games in progress'), games);
  try {
    const playing = await api.playing();
    if (!playing.nowPlaying.length) games.append(h('li', { class: 'muted' }, 'None: start one from the home page.'));
    for (const game of playing.nowPlaying) {
      games.append(h('li', {},
        h('a', { href: `/g/${game.gameId}` }, game.variant), ' ',
        h('span', { class: 'muted' }, `as ${game.color}`), ' ',
        game.isMyTurn ? h('span', { class: 'status your-turn' }, 'your move') : null));
    }
  } catch (error) {
    games.append(h('li', { class: 'error' }, message(error)));
  }
  const logout = (everywhere) => async () => {
    await api.logout(everywhere);
    location.assign('/');
  };
  section.append(h('div', { class: 'account-actions' },
    h('button', { 'data-action': 'logout', onclick: logout(false) }, 'Log out'),
    h('button', { 'data-action': 'logout-everywhere', onclick: logout(true) }, 'Log out everywhere'),
    h('a', { class: 'button', href: '/api/account/export', download: '' }, 'Download my data')));
  const added = h('span', { class: 'muted', 'data-passkey-status': '' });
  section.append(h('h3', {}, 'Passkeys'),
    h('p', { class: 'muted' }, 'A passkey logs you in on this device (or your phone) without a password.'),
    h('p', {}, h('button', { 'data-action': 'add-passkey', onclick: async () => {
      added.textContent = '';
      try {
        const answer = await registerPasskey();
        added.textContent = `Passkey added (${answer.passkeys} in all).`;
        added.setAttribute('data-passkeys', answer.passkeys);
      } catch (e) {
        added.textContent = message(e);
      }
    } }, 'Add a passkey'), ' ', added));
  section.append(await emailForm());
  section.append(await tokensView());
  section.append(closeForm());
  return section;
}

/** The account's e-mail address: where notifications and reset links go. */
async function emailForm() {
  let current = { email: null, mail: false };
  try {
    current = await api.email();
  } catch (_) {
    // Shown empty.
  }
  const email = h('input', { name: 'email', type: 'email', autocomplete: 'email', value: current.email || '', 'aria-label': 'e-mail address', placeholder: 'you@example.org' });
  const password = h('input', { name: 'email-password', type: 'password', autocomplete: 'current-password', required: true, 'aria-label': 'password' });
  const status = h('p', { class: 'muted', 'data-email-status': '' });
  const form = h('form', { class: 'account-email', 'data-form': 'email' },
    h('label', {}, 'E-mail ', email), ' ',
    h('label', {}, 'Password ', password), ' ',
    h('button', { type: 'submit' }, 'Save'), status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const answer = await api.setEmail(email.value.trim() || null, password.value);
      password.value = '';
      status.textContent = answer.email ? `Saved: ${answer.email}` : 'Removed.';
    } catch (e) {
      status.textContent = message(e);
    }
  });
  const note = current.mail
    ? 'Your move in a correspondence game, and password reset links, are mailed here. Nobody else sees it.'
    : 'This server sends no mail (its operator has not set one up): notifications stay on the site.';
  return h('div', {}, h('h3', {}, 'E-mail'), h('p', { class: 'muted' }, note), form);
}

/** lichess's scopes a personal API token may have (docs/api.md, "Bots and API tokens"). */
const SCOPES = [
  ['bot:play', 'Play as a bot'],
  ['board:play', 'Play with a board client'],
  ['challenge:read', 'Read challenges'],
  ['challenge:write', 'Send and answer challenges'],
  ['tournament:write', 'Join and leave tournaments'],
  ['follow:write', 'Block and unblock players'],
  ['puzzle:write', 'Play puzzles rated'],
];

/** The account's API tokens: listed, revoked, and a form making one (shown once). */
async function tokensView() {
  const list = h('ul', { class: 'api-tokens', 'data-api-tokens': '' });
  const error = h('p', { class: 'error', 'data-account-error': 'tokens', hidden: true });
  const fail = (e) => {
    error.textContent = message(e);
    error.hidden = false;
  };
  const show = (token) => list.append(h('li', { 'data-token-id': token.id },
    h('strong', {}, token.description), ' ',
    h('span', { class: 'muted' }, token.scopes.length ? token.scopes.join(', ') : 'no scope'), ' ',
    h('button', { type: 'button', 'data-action': 'revoke-token', onclick: async (event) => {
      try {
        await api.revokeToken(token.id);
        event.target.closest('li').remove();
      } catch (e) {
        fail(e);
      }
    } }, 'Revoke')));
  try {
    (await api.tokens()).tokens.forEach(show);
  } catch (e) {
    fail(e);
  }
  const description = h('input', { name: 'token-description', required: true, maxlength: '100', 'aria-label': 'token description', placeholder: 'my bot' });
  const boxes = SCOPES.map(([scope, label]) => h('label', { class: 'scope' },
    h('input', { type: 'checkbox', name: 'scope', value: scope }), ` ${label} (${scope})`));
  const made = h('p', { class: 'new-token', 'data-new-token': '', hidden: true });
  const form = h('form', { class: 'api-token-form', 'data-form': 'token' },
    h('label', {}, 'Description ', description),
    h('fieldset', {}, h('legend', {}, 'Scopes'), ...boxes),
    h('button', { type: 'submit' }, 'Create token'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    const scopes = [...form.querySelectorAll('input[name=scope]:checked')].map((box) => box.value);
    try {
      const token = await api.createToken(description.value, scopes);
      made.replaceChildren('Your new token (shown only now: copy it): ', h('code', {}, token.token));
      made.hidden = false;
      show(token);
      form.reset();
    } catch (e) {
      fail(e);
    }
  });
  return h('div', { class: 'account-tokens' },
    h('h3', {}, 'API tokens'),
    h('p', { class: 'muted' }, 'A token lets a program (a bot, a board client) play as you through lichess\'s Bot and Board API. ',
      h('a', { href: '/docs/bots' }, 'How to run a bot')),
    list, form, made, error);
}

function closeForm() {
  const password = h('input', { name: 'close-password', type: 'password', autocomplete: 'current-password', required: true, 'aria-label': 'password' });
  const error = h('p', { class: 'error', hidden: true });
  const form = h('form', { class: 'account-close' },
    h('label', {}, 'Password ', password), ' ',
    h('button', { type: 'submit' }, 'Close my account'), error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!confirm('Close your account? Your games stay, under a neutral name; you can no longer log in.')) return;
    try {
      await api.closeAccount(password.value);
      location.assign('/');
    } catch (e) {
      error.textContent = message(e);
      error.hidden = false;
    }
  });
  return h('details', { class: 'account-danger' }, h('summary', {}, 'Close the account'), form);
}

/** The header's account link: the username once logged in. */
export async function showAccountLink() {
  const link = document.querySelector('[data-account-link]');
  if (!link) return;
  try {
    const me = await api.me();
    if (me.username) {
      link.textContent = me.username;
      link.setAttribute('data-username', me.username);
      showBell(me);
    }
  } catch (_) {
    // The link stays "Log in".
  }
}
