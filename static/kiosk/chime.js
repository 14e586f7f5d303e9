// The sound of a warning before a timeout: two short tones, made with the Web Audio API (nothing to
// load). A browser that refuses audio before a touch plays nothing; the warning is on screen too.
/** @type {AudioContext | null} */
let context = null;

export function chime() {
  try {
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume().catch((error) => console.warn(`the warning's sound waits for a touch: ${error}`));
    const now = context.currentTime;
    [0, 0.25].forEach((offset, index) => {
      const tone = /** @type {AudioContext} */ (context).createOscillator();
      const gain = /** @type {AudioContext} */ (context).createGain();
      tone.frequency.value = index ? 660 : 880;
      gain.gain.value = 0.2;
      tone.connect(gain).connect(/** @type {AudioContext} */ (context).destination);
      tone.start(now + offset);
      tone.stop(now + offset + 0.18);
    });
  } catch (error) {
    console.warn(`the warning's sound cannot play: ${error}`);
  }
}
