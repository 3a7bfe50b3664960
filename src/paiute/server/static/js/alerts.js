// "It is your turn": the tab's title (always), a short tone made with WebAudio (no file) and a
// browser notification while the tab is hidden. Sound and notification are off until the
// player turns them on; each choice is remembered in localStorage (paiute.alerts.sound,
// paiute.alerts.notify).

import { recall, remember } from "./api.js";
import { t } from "./strings.js";

const TITLE_MARK = "▶ ";

let audio = null; // one AudioContext, made on the first tone (browsers want a gesture first)
let baseTitle = "";
let flagged = false;
let notice = null;

export function soundOn() {
  return recall("alerts.sound") === true;
}

export function notifyOn() {
  return recall("alerts.notify") === true && "Notification" in window && Notification.permission === "granted";
}

/** Turn sound on or off (remembered). */
export function setSound(on) {
  remember("alerts.sound", Boolean(on));
  if (on) tone(); // the click is the gesture that lets the page make sounds
}

/** Turn notifications on (asks the browser's permission) or off; whether they are on. */
export async function setNotify(on) {
  if (!on) {
    remember("alerts.notify", false);
    return false;
  }
  if (!("Notification" in window)) return false;
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  remember("alerts.notify", permission === "granted");
  return permission === "granted";
}

/** A short two-note chime, quiet; nothing if the browser has no WebAudio. */
export function tone() {
  try {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return;
    audio = audio ?? new Context();
    const now = audio.currentTime;
    for (const [offset, pitch] of [
      [0, 660],
      [0.16, 880],
    ]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, now + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + offset);
      osc.stop(now + offset + 0.25);
    }
    document.documentElement.dataset.toneCount = String(Number(document.documentElement.dataset.toneCount ?? 0) + 1);
  } catch {
    // No sound: the title still says it.
  }
}

/** The page's own title (without the turn mark). */
export function setTitle(title) {
  baseTitle = title;
  document.title = flagged ? `${TITLE_MARK}${t("alert.title", { title })}` : title;
}

/**
 * The seat's turn began (`mine` true) or ended. On a new turn: the title says so, and the tone
 * and the notification come if chosen (the notification only while the tab is hidden).
 */
export function yourTurn(mine, what) {
  if (mine === flagged) return;
  flagged = mine;
  setTitle(baseTitle);
  if (!mine) {
    notice?.close();
    notice = null;
    return;
  }
  if (soundOn()) tone();
  if (notifyOn() && document.hidden) {
    try {
      notice = new Notification(t("alert.notification.title"), { body: what, tag: "paiute-turn" });
      notice.onclick = () => window.focus();
    } catch {
      notice = null; // some browsers allow notifications only from a service worker
    }
  }
}
