// Optional sound (off until the player turns it on; remembered in this browser): short tones
// made with WebAudio, no audio files. A move, a capture (pieces changed hands or left the
// board), low time (10 s left on the player's own clock) and the end of the game.
const KEY = "asobiba.sound";
let ctx = null;
const lowWarned = new Set();

function on() {
  return localStorage.getItem(KEY) === "1";
}

function tone(freqs, length = 0.09, type = "sine") {
  if (!on()) return;
  try {
    ctx = ctx || new AudioContext();
    let at = ctx.currentTime;
    for (const f of freqs) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length * 0.9;
    }
    document.body.dataset.lastSound = freqs.join(",");
  } catch {
    // no audio device: the game goes on silently
  }
}

export const SOUNDS = {
  move: () => tone([660]),
  capture: () => tone([520, 780], 0.08, "triangle"),
  low: () => tone([880, 880], 0.12, "square"),
  end: () => tone([523, 659, 784], 0.16),
};

function changed(before, after) {
  // a capture: some piece of the board changed beyond the square that was played
  const a = JSON.stringify(before);
  const b = JSON.stringify(after);
  let diff = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) diff += 1;
  return diff > 2;
}

export const sounds = {
  mount(box) {
    if (!box) return;
    box.checked = on();
    box.addEventListener("change", () => {
      localStorage.setItem(KEY, box.checked ? "1" : "0");
      if (box.checked) SOUNDS.move();
    });
  },
  update(prev, msg) {
    if (!prev || prev.room.id !== msg.room.id) return;
    if (prev.room.status === "active" && msg.room.status === "finished") SOUNDS.end();
    else if (msg.room.ply > prev.room.ply) {
      const b0 = prev.views[0] && prev.views[0].view.board;
      const b1 = msg.views[0] && msg.views[0].view.board;
      if (b0 && b1 && changed(b0, b1)) SOUNDS.capture();
      else SOUNDS.move();
    }
  },
  /** Once per turn, when the player's own clock is down to 10 seconds. */
  lowTime(ply) {
    if (lowWarned.has(ply)) return;
    lowWarned.add(ply);
    SOUNDS.low();
  },
};
