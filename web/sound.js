// Sounds, synthesised with WebAudio (no sound files): a wooden tap for a
// move, a heavier knock for a capture or an attack, two rising notes for
// check and a short chord at the end of the game. The off switch is kept
// in localStorage.

const KEY = 'menagerie.sound';
let context = null;

export const sound = {
  enabled() {
    try {
      return localStorage.getItem(KEY) !== 'off';
    } catch (_) {
      return true;
    }
  },

  setEnabled(on) {
    try {
      localStorage.setItem(KEY, on ? 'on' : 'off');
    } catch (_) { /* private mode: not remembered */ }
  },

  /// Browsers start audio only after a gesture: called on the first click or key.
  unlock() {
    if (!this.enabled()) return;
    try {
      if (!context) context = new (window.AudioContext || window.webkitAudioContext)();
      if (context.state === 'suspended') context.resume();
    } catch (_) {
      context = null;
    }
  },

  /// Plays `kind`: 'move', 'capture', 'check' or 'end'. The last kind
  /// played is kept for the browser tests (`sound.last`).
  play(kind) {
    this.last = kind;
    if (!this.enabled() || !context || context.state !== 'running') return;
    const now = context.currentTime;
    if (kind === 'move') knock(now, 0.06, 900, 0.35);
    else if (kind === 'capture') { knock(now, 0.09, 520, 0.55); knock(now + 0.05, 0.07, 300, 0.35); }
    else if (kind === 'check') { tone(now, 660, 0.12, 0.18); tone(now + 0.12, 880, 0.16, 0.18); }
    else if (kind === 'end') { tone(now, 523, 0.5, 0.12); tone(now, 659, 0.5, 0.1); tone(now + 0.08, 784, 0.55, 0.1); }
  },
};

/// A short filtered noise burst: a piece put down on wood.
function knock(at, length, frequency, volume) {
  const samples = Math.floor(context.sampleRate * length);
  const buffer = context.createBuffer(1, samples, context.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / samples, 4);
  const source = context.createBufferSource();
  source.buffer = buffer;
  const filter = context.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = frequency;
  filter.Q.value = 1.2;
  const gain = context.createGain();
  gain.gain.value = volume * 2.5;
  source.connect(filter).connect(gain).connect(context.destination);
  source.start(at);
}

function tone(at, frequency, length, volume) {
  const osc = context.createOscillator();
  osc.type = 'triangle';
  osc.frequency.value = frequency;
  const gain = context.createGain();
  gain.gain.setValueAtTime(0, at);
  gain.gain.linearRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(gain).connect(context.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}
