// The Menagerie page: the home page (games, new game, your games) or a
// game page, by the address.

import { homePage } from './home.js';
import { gamePage } from './game.js';

const root = document.getElementById('app');
const match = location.pathname.match(/^\/g\/([A-Za-z0-9]+)\/?$/);
if (match) {
  gamePage(root, match[1], new URLSearchParams(location.search).get('seat'));
} else {
  homePage(root);
}
