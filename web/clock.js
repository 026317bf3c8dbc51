// The clocks as the page shows them: the server keeps them (docs/api.md,
// "Clocks") and says how much time each side had when the running clock
// started; the page counts down from there in its own time, corrected by
// the difference between its clock and the server's.

import { api } from './api.js';

let offset = 0; // server time minus this browser's time, in ms

/// Measures the difference to the server's clock (half the round trip is
/// taken as the delay of the answer).
export async function syncTime() {
  try {
    const sent = Date.now();
    const { now } = await api.time();
    const received = Date.now();
    offset = now - (sent + received) / 2;
  } catch (_) { /* keep the last estimate */ }
}

export const serverNow = () => Date.now() + offset;

/// Milliseconds left for `side` now, by the page's estimate.
export function timeLeft(clock, side) {
  if (!clock) return null;
  const stored = side === 'first' ? clock.first_ms : clock.second_ms;
  if (clock.running !== side || clock.since === null) return stored;
  return Math.max(0, stored - (serverNow() - clock.since));
}

/// `5:03`, `0:09.4` under ten seconds, `1:02:03` over an hour, `2d 4h`
/// in correspondence.
export function formatTime(ms, clock) {
  if (ms === null || ms === undefined) return '';
  if (clock && clock.days) {
    const hours = Math.floor(ms / 3600000);
    if (hours >= 24) return `${Math.floor(hours / 24)}d ${hours % 24}h`;
    const minutes = Math.floor(ms / 60000);
    return hours >= 1 ? `${hours}h ${minutes % 60}m` : `${minutes}m ${Math.floor(ms / 1000) % 60}s`;
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  if (h) return `${h}:${pad(m)}:${pad(s)}`;
  if (ms < 10000) return `${m}:${pad(s)}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${pad(s)}`;
}

/// A time control in words: `5+3`, `1 s + 0`, `3 days a move`, `unlimited`.
export function describeControl(clock) {
  if (!clock) return 'unlimited time';
  if (clock.days) return `${clock.days} day${clock.days === 1 ? '' : 's'} a move`;
  const minutes = clock.initial_ms / 60000;
  const initial = Number.isInteger(minutes) ? `${minutes}` : `${clock.initial_ms / 1000} s`;
  return `${initial}+${clock.increment_ms / 1000}`;
}
