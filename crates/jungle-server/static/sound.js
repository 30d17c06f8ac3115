// Move sounds, made with Web Audio (short generated tones, no sound files), and the mute switch the player's
// browser remembers.

const KEY = "jungle-muted";
let context = null;

export const sounds = { played: 0 }; // how many sounds were played (read by the end-to-end tests)

export function muted() {
  try { return localStorage.getItem(KEY) === "true"; } catch { return false; }
}

export function setMuted(on) {
  try { localStorage.setItem(KEY, String(on)); } catch { /* storage blocked: muted for this page only */ }
}

// A soft click for a move, a lower double knock for a capture.
export function playMoveSound(capture) {
  if (muted()) return;
  sounds.played += 1;
  try {
    context = context || new AudioContext();
    const notes = capture ? [[220, 0], [165, 0.07]] : [[440, 0]];
    for (const [frequency, delay] of notes) {
      const start = context.currentTime + delay;
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = "triangle";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.25, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.12);
      tone.connect(gain).connect(context.destination);
      tone.start(start);
      tone.stop(start + 0.13);
    }
  } catch { /* no audio on this device */ }
}
