// The fair-deal proof (R10.2), checked in the browser: nothing here trusts the server's word.
//
// The server published a SHA-256 hash of the shuffled pack (and of each rebuilt stock, R4.6)
// before the cut; after the deal it reveals the orders and the salts. We recompute each hash
// over exactly "paiute-commit/1|" + salt + "|" + cards joined by single spaces (UTF-8), check
// the pack dealt is the shuffled order cut at the revealed position (R2.4), and compare the
// hashes with the ones this page saw while the deal was on.

export const SCHEME = "paiute-commit/1";

/** True where crypto.subtle exists (secure contexts: https, localhost, 127.0.0.1). */
export function canVerify() {
  return Boolean(globalThis.crypto?.subtle?.digest);
}

/** Hex SHA-256 of the commitment text for `order` (card texts, top first) under `salt`. */
export async function commitmentHash(order, salt) {
  const text = `${SCHEME}|${salt}|${order.join(" ")}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** order[position:] + order[:position] (R2.4). */
export function cutOrder(order, position) {
  return [...order.slice(position), ...order.slice(0, position)];
}

function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function isWholePack(order) {
  const ranks = "23456789TJQKA";
  const expected = [];
  for (const rank of ranks) for (const suit of "cdhs") expected.push(rank + suit);
  if (order.length === 54) expected.push("Jk1", "Jk2");
  return order.length === expected.length && sameList([...order].sort(), expected.sort());
}

/**
 * Check a proof. `seen` is what this page saw while the deal was on: {sha256, beforeCut,
 * rebuilds: [sha256...], myCut, table: {dealer, players, upcard, seat, hand}} or null (the
 * `hand` is this seat's five cards as dealt, before it played); `dealt` is {dealer, hands} of
 * the server's replay of the deal's first state, or null.
 *
 * Returns {ok, checks: [{ok, key, params}]} with keys of strings.js ("proof.check.*").
 */
export async function verifyProof(proof, { seen = null, dealt = null } = {}) {
  const myCut = seen?.myCut ?? null;
  const checks = [];
  const add = (ok, key, params = {}) => checks.push({ ok, key: ok ? key : `${key}.bad`, params });

  if (proof.scheme && proof.scheme !== SCHEME) {
    checks.push({ ok: false, key: "proof.unavailable", params: { message: proof.scheme } });
  }
  add(isWholePack(proof.shuffled), "proof.check.pack");
  const hash = await commitmentHash(proof.shuffled, proof.salt);
  add(hash === proof.sha256, "proof.check.hash", { hash: proof.sha256 });
  if (seen?.sha256) {
    const key = seen.beforeCut ? "proof.check.seen" : "proof.check.seen_during";
    add(seen.sha256 === proof.sha256, key, { hash: seen.sha256 });
  }
  else checks.push({ ok: true, key: "proof.check.seen.none", params: {}, note: true });
  add(sameList(cutOrder(proof.shuffled, proof.cut), proof.deck), "proof.check.cut", { cut: proof.cut });
  if (myCut !== null && myCut !== undefined) {
    add(myCut === proof.cut, "proof.check.my_cut", { cut: proof.cut, mine: myCut });
  }
  for (const [i, rebuild] of (proof.rebuilds ?? []).entries()) {
    const number = i + 1;
    const got = await commitmentHash(rebuild.order, rebuild.salt);
    add(got === rebuild.sha256, "proof.check.rebuild", { number });
    const seenHash = seen?.rebuilds?.[i];
    if (seenHash) add(seenHash === rebuild.sha256, "proof.check.rebuild.seen", { number });
  }
  // What this page saw with its own eyes: its own hand as dealt (R2.5) and the upcard (R2.6).
  const table = seen?.table;
  if (table?.hand && table.seat !== null) {
    const expected = handsFrom(proof.deck, table.dealer, table.players)[table.seat];
    add(sameList([...table.hand].sort(), expected.sort()), "proof.check.my_hand");
  }
  if (table?.upcard) {
    const upcard = proof.deck[5 * table.players];
    add(upcard === table.upcard, "proof.check.upcard", { card: table.upcard });
  }
  if (dealt) add(dealtFrom(proof.deck, dealt.dealer, dealt.hands), "proof.check.deal");
  return { ok: checks.every((check) => check.ok), checks };
}

/** The five cards each seat gets from `deck` (R2.5: one at a time, from the dealer's left). */
export function handsFrom(deck, dealer, players) {
  const hands = Array.from({ length: players }, () => []);
  for (let i = 0; i < 5 * players; i += 1) hands[(dealer + 1 + i) % players].push(deck[i]);
  return hands;
}

/** Whether `hands` are the five cards each that R2.5 deals from `deck`, from the dealer's left. */
export function dealtFrom(deck, dealer, hands) {
  const expected = handsFrom(deck, dealer, hands.length);
  return hands.every((hand, seat) => sameList([...hand].sort(), expected[seat].sort()));
}
