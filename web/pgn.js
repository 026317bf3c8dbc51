// Reading the tags of a records file (docs/records.md) on the page: the
// profile lists a player's games from `/api/games/user/<name>`, the same
// file its download link gives.

/** The records of a file, each as `{ tags, moves }` (`tags` by name). */
export function readRecords(text) {
  const records = [];
  let current = null;
  for (const line of String(text || '').split(/\r?\n/)) {
    const tag = line.match(/^\s*\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/);
    if (tag) {
      // A tag after moves starts the next record.
      if (!current || current.moves) {
        current = { tags: {}, moves: '' };
        records.push(current);
      }
      current.tags[tag[1]] = tag[2].replace(/\\(["\\])/g, '$1');
    } else if (current && line.trim()) {
      current.moves += (current.moves ? ' ' : '') + line.trim();
    }
  }
  return records;
}

/** The game id a record names: its `GameId` tag, or the last part of a
 * `Site` that is the game's address (`https://host/g/<id>`, `.../<id>`). */
export function gameIdOf(tags) {
  if (tags.GameId && /^[A-Za-z0-9]+$/.test(tags.GameId)) return tags.GameId;
  const site = tags.Site || '';
  const match = site.match(/^https?:\/\/[^/]+\/(?:g\/)?([A-Za-z0-9]{6,})\/?$/);
  return match ? match[1] : null;
}

/** Whether a record is of a rated game: lichess's `Event "Rated ..."`
 * or `"Casual ..."`, or a `Rated` tag; null when the record does not say. */
export function isRated(tags) {
  if (tags.Rated) return /^(true|yes|1)$/i.test(tags.Rated);
  const event = tags.Event || '';
  if (/(^|\s)(casual|unrated)(\s|$)/i.test(event)) return false;
  if (/(^|\s)rated(\s|$)/i.test(event)) return true;
  return null;
}

/** The number of moves in a record's movetext (turn labels, comments and
 * the result token left out). */
export function moveCount(moves) {
  const text = String(moves || '').replace(/\{[^}]*\}/g, ' ').replace(/\([^)]*\)/g, ' ');
  return text.split(/\s+/)
    .map((token) => token.replace(/^\d+\.+/, ''))
    .filter((token) => token && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(token) && !/^\$\d+$/.test(token)).length;
}
