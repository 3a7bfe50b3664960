// The lobby's account bar: sign up, log in, log out (this device or every device) and the link
// to "My tables". An account is optional: without one, play is the same. On signing up or
// logging in, the seats this browser holds are presented once (their tokens), so that the
// account gathers them; from then on every seat taken while logged in is the account's.

import { api, errorText, seatKey } from "./api.js";
import { t } from "./strings.js";

const $ = (id) => document.getElementById(id);
const SEAT_PREFIX = seatKey("");
const TABLE_ID = /^[A-Za-z0-9_-]{1,32}$/;
const CLAIM_LIMIT = 50; // the server's paiute.server.account_api.CLAIM_LIMIT

let mode = "login"; // what the dialog does: "login" or "signup"
let opener = null; // the button that opened the dialog: focus goes back to it
let onChange = () => {};

/** The account logged in on this browser, or null (none, or the server cannot say). */
export async function currentAccount() {
  try {
    return (await api("/api/me")).account ?? null;
  } catch {
    return null;
  }
}

/** Every seat token this browser keeps: [{table_id, token}], at most CLAIM_LIMIT. */
export function storedSeats() {
  const seats = [];
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index);
      if (!key || !key.startsWith(SEAT_PREFIX)) continue;
      const tableId = key.slice(SEAT_PREFIX.length);
      const token = localStorage.getItem(key);
      if (TABLE_ID.test(tableId) && token && token.length <= 64) seats.push({ table_id: tableId, token });
    }
  } catch {
    // No storage (private browsing): the seat cookies still come with the claim.
  }
  return seats.slice(-CLAIM_LIMIT);
}

function say(text) {
  $("account-status").textContent = text;
}

function render(account) {
  $("account-out").hidden = Boolean(account);
  $("account-in").hidden = !account;
  $("account-name").textContent = account ? t("account.signed_in", { name: account.name }) : "";
  onChange(account);
}

function openDialog(which, button) {
  mode = which;
  opener = button;
  const signup = which === "signup";
  $("account-heading").textContent = t(signup ? "account.dialog.signup" : "account.dialog.login");
  $("account-submit").textContent = t(signup ? "account.submit.signup" : "account.submit.login");
  const password = $("account-password");
  password.autocomplete = signup ? "new-password" : "current-password";
  password.value = "";
  $("account-password-help").textContent = signup ? t("account.password.help", { min: password.minLength }) : "";
  $("account-error").hidden = true;
  $("account-dialog").showModal();
  $("account-name-input").focus();
}

function closeDialog() {
  $("account-password").value = "";
  $("account-dialog").close();
}

function showError(text) {
  const box = $("account-error");
  box.textContent = text;
  box.hidden = false;
}

async function submit(event) {
  event.preventDefault();
  const name = $("account-name-input").value.trim();
  const password = $("account-password").value;
  if (!name) {
    showError(t("account.name_needed"));
    $("account-name-input").focus();
    return;
  }
  const min = $("account-password").minLength;
  if (mode === "signup" && password.length < min) {
    showError(t("account.password.short", { min }));
    $("account-password").focus();
    return;
  }
  const button = $("account-submit");
  button.disabled = true;
  try {
    const path = mode === "signup" ? "/api/accounts" : "/api/login";
    const answer = await api(path, { method: "POST", body: { name, password } });
    closeDialog();
    render(answer.account);
    say(t(mode === "signup" ? "account.signed_up" : "account.logged_in", { name: answer.account.name }));
    await claimSeats();
    $("my-tables-link").focus();
  } catch (error) {
    showError(errorText(error));
  } finally {
    button.disabled = false;
  }
}

/** Present this browser's seats to the account (once, at log-in: each token is checked). */
async function claimSeats() {
  try {
    const answer = await api("/api/me/claim", { method: "POST", body: { seats: storedSeats() } });
    const count = answer.claimed?.length ?? 0;
    if (count) say(t("account.claimed", { count }));
  } catch (error) {
    say(errorText(error));
  }
}

async function logOut(everywhere) {
  try {
    await api(everywhere ? "/api/logout/everywhere" : "/api/logout", { method: "POST" });
    render(null);
    say(t(everywhere ? "account.logged_out_everywhere" : "account.logged_out"));
    $("login-open").focus();
  } catch (error) {
    say(errorText(error));
  }
}

/** Wire the bar up and show who is logged in; `changed(account)` hears every change. */
export async function initAccountBar(changed = () => {}) {
  onChange = changed;
  $("signup-open").addEventListener("click", (event) => openDialog("signup", event.currentTarget));
  $("login-open").addEventListener("click", (event) => openDialog("login", event.currentTarget));
  $("account-form").addEventListener("submit", submit);
  $("account-cancel").addEventListener("click", closeDialog);
  $("account-dialog").addEventListener("close", () => {
    $("account-password").value = "";
    if (opener && !opener.closest("[hidden]")) opener.focus();
  });
  $("logout").addEventListener("click", () => logOut(false));
  $("logout-everywhere").addEventListener("click", () => logOut(true));
  render(await currentAccount());
}
