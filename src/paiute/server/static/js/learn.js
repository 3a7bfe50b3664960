// "Learn to play" (the lobby, the rules page) and its end ("Play a real game", the coach at a
// lesson table): each opens a private table at once and goes to it.

import { api, errorText, recall, remember, setSeatToken } from "./api.js";
import { t } from "./strings.js";

async function openTable(path, body) {
  const answer = await api(path, { method: "POST", body });
  const id = answer.table.id;
  setSeatToken(id, answer.token);
  if (answer.invite) remember(`invite.${id}`, answer.invite);
  location.assign(`/t/${encodeURIComponent(id)}`);
}

/**
 * A lesson table (POST /api/lessons) under `name`, else the name this browser remembers,
 * else "Player" in the page's language. `button` waits meanwhile; a refusal is shown in
 * `errorBox`.
 */
export async function startLesson(button, errorBox, name = "") {
  errorBox.hidden = true;
  button.disabled = true;
  try {
    const player = name || recall("name") || t("lesson.player");
    await openTable("/api/lessons", { player_name: player });
  } catch (error) {
    errorBox.textContent = errorText(error);
    errorBox.hidden = false;
    button.disabled = false;
  }
}

/** A real game against bots, started at once (POST /api/play), as `name`. */
export async function playRealGame(name, button, errorBox) {
  errorBox.hidden = true;
  button.disabled = true;
  try {
    await openTable("/api/play", { name: t("lobby.create.table_name.default", { name }), player_name: name });
  } catch (error) {
    errorBox.textContent = errorText(error);
    errorBox.hidden = false;
    button.disabled = false;
  }
}
