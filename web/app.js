// The Menagerie page: the home page (games, new game, your games), a
// game page, the analysis board, the account page, a player's profile or
// the leaderboards or the tournaments, the lessons or the puzzles, by the
// address.

import { homePage } from './home.js';
import { gamePage } from './game.js';
import { analysisPage } from './analysis.js';
import { accountPage, showAccountLink } from './account.js';
import { profilePage } from './profile.js';
import { leaderboardPage } from './leaderboard.js';
import { tournamentsPage, tournamentPage } from './tournaments.js';
import { learnPage } from './learn.js';
import { puzzlePage } from './puzzle.js';

const root = document.getElementById('app');
const match = location.pathname.match(/^\/g\/([A-Za-z0-9]+)\/?$/);
if (match) {
  gamePage(root, match[1], new URLSearchParams(location.search).get('seat'));
} else if (/^\/analysis\/?$/.test(location.pathname)) {
  analysisPage(root, new URLSearchParams(location.search));
} else if (/^\/account\/?$/.test(location.pathname)) {
  accountPage(root);
} else if (/^\/@\/[^/]+\/?$/.test(location.pathname)) {
  profilePage(root, decodeURIComponent(location.pathname.split('/')[2]));
} else if (/^\/leaderboard(\/[^/]*)?\/?$/.test(location.pathname)) {
  leaderboardPage(root, decodeURIComponent(location.pathname.split('/')[2] || ''));
} else if (/^\/tournaments\/?$/.test(location.pathname)) {
  tournamentsPage(root);
} else if (/^\/tournament\/[A-Za-z0-9]+\/?$/.test(location.pathname)) {
  tournamentPage(root, location.pathname.split('/')[2]);
} else if (/^\/learn(\/[^/]+)?\/?$/.test(location.pathname)) {
  learnPage(root, decodeURIComponent(location.pathname.split('/')[2] || ''));
} else if (/^\/puzzle(\/[^/]+)?\/?$/.test(location.pathname)) {
  puzzlePage(root, decodeURIComponent(location.pathname.split('/')[2] || ''));
} else {
  homePage(root);
}
showAccountLink();
siteMenu();

/// The header's links: in a line on a wide screen; on a phone behind the
/// Menu button, opened and closed by it (and closed by a press elsewhere
/// or Escape).
function siteMenu() {
  const header = document.querySelector('header.top');
  const button = header && header.querySelector('[data-menu-button]');
  if (!button) return;
  const open = (opened) => {
    header.classList.toggle('menu-open', opened);
    button.setAttribute('aria-expanded', String(opened));
  };
  button.addEventListener('click', () => open(!header.classList.contains('menu-open')));
  document.addEventListener('click', (event) => { if (!header.contains(event.target)) open(false); });
  document.addEventListener('keydown', (event) => { if (event.key === 'Escape') open(false); });
}
