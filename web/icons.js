// Small button icons drawn as SVG (no icon font, no emoji: the same on
// every machine). Each is a 24×24 path in the text colour.

import { s } from './dom.js';

const PATHS = {
  first: 'M6 5h2v14H6zM19 5v14l-9-7z',
  back: 'M16 5v14l-9-7z',
  forward: 'M8 5v14l9-7z',
  last: 'M16 5h2v14h-2zM5 5v14l9-7z',
  flip: 'M7 3l-4 4h3v9h2V7h3zM17 21l4-4h-3V8h-2v9h-3z',
  soundOn: 'M4 9h4l5-4v14l-5-4H4zM16 8.5c1.3 1 2 2.2 2 3.5s-.7 2.5-2 3.5l-1.2-1.4c.8-.6 1.2-1.3 1.2-2.1s-.4-1.5-1.2-2.1zM18.2 5.5C20.6 7.2 22 9.5 22 12s-1.4 4.8-3.8 6.5l-1.2-1.5c1.9-1.4 3-3.1 3-5s-1.1-3.6-3-5z',
  soundOff: 'M4 9h4l5-4v14l-5-4H4zM16 9.4l1.4-1.4 2.1 2.1 2.1-2.1L23 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z',
};

export function icon(name) {
  return s('svg', { viewBox: '0 0 24 24', class: 'icon-svg', 'aria-hidden': 'true' }, s('path', { d: PATHS[name], fill: 'currentColor' }));
}
