import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { WORLD } from "./world";

/**
 * Waits until React has hydrated the page: the header's theme form carries a `redirectTo` field
 * only for the no-JavaScript post and drops it once hydrated. A click or text typed before that
 * can be lost (React replaces the server's inputs; a click on a not-yet-hydrated button posts
 * nothing).
 */
export async function waitForHydration(page: Page) {
  await expect(page.locator('form[action="/resources/theme"] input[name="redirectTo"]')).toHaveCount(0);
}

/**
 * Empties sequences, custom planets and ads through the /api (the session cookie of the E2E
 * operator). A row already gone (404) counts as emptied: a post the journey before left in
 * flight can land between the list and the delete (a CI run: a custom planet's Delete, sent by
 * forms-offline's journey as it ended, removed it first).
 */
export async function resetTrading(request: APIRequestContext) {
  const gone = async (url: string) => expect([200, 404]).toContain((await request.delete(url)).status());
  const seqs = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { _id: string }[] };
  for (const s of seqs.sequences) await gone(`/api/planet-sequences/${s._id}`);
  const planets = (await (await request.get("/api/custom-planets")).json()) as { planets: { _id: string }[] };
  for (const p of planets.planets) await gone(`/api/custom-planets/${p._id}`);
  const ads = (await (await request.get("/api/ads")).json()) as { ads: { _id: string }[] };
  for (const a of ads.ads) await gone(`/api/ads/${a._id}`);
}

export async function seedSequences(request: APIRequestContext, names: string[]) {
  for (const name of names) expect((await request.post("/api/planet-sequences", { data: { name, sequence: [{ planetType: "ring" }] } })).status()).toBe(201);
}

export async function sequenceNames(request: APIRequestContext): Promise<string[]> {
  const body = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { name: string }[] };
  return body.sequences.map((s) => s.name);
}

/** Sequence name → its `_id` (the sortable id dnd-kit's announcements name). */
export async function sequenceIds(request: APIRequestContext): Promise<Record<string, string>> {
  const body = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { _id: string; name: string }[] };
  return Object.fromEntries(body.sequences.map((s) => [s.name, s._id]));
}

/**
 * A keyboard drag of a sequence (spec 2 §9; dnd-kit's keyboard sensor): Space picks it up,
 * `key` moves it, Space drops it — each key once the list has taken the one before (picked up,
 * then announced over `overName`), as a screen-reader user hears it.
 */
export async function keyboardDrag(page: Page, handle: Locator, key: "ArrowUp" | "ArrowDown", overName?: string) {
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  // The live region names the items (issue 30 B3, app/components/ui/drag-announcements.ts):
  // "Picked up One (position 1 of 3).", at once replaced by "One is over One (position 1 of 3)."
  // (over itself, where it lies). Without `overName`: any item but its own.
  const escape = (id: string) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let target: string;
  if (overName) target = escape(overName);
  else {
    const named = /^(?:Picked up (.+?)|(.+?) is over .+?) \(position \d+ of \d+\)\.$/;
    const announcement = page.getByText(named);
    await expect(announcement).toBeAttached();
    const m = named.exec((await announcement.last().textContent()) ?? "")!;
    target = `(?!${escape(m[1] ?? m[2]!)} \\()(.+?)`;
  }
  // The sensor listens for arrows a moment after the pick-up: an arrow before that is lost, as
  // for a user who then presses it again (an extra press past the end of the list stays there).
  const over = page.getByText(new RegExp(` is over ${target} \\(position \\d+ of \\d+\\)\\.$`));
  await expect(async () => {
    if ((await over.count()) === 0) await page.keyboard.press(key);
    await expect(over).toBeAttached({ timeout: 1_500 });
  }).toPass({ timeout: 10_000 });
  await page.keyboard.press("Space");
}

export const toast = (page: Page, text: string) => page.locator(".gt-toaster").getByText(text, { exact: true });

/**
 * Closes the toasts on screen, as an operator does before pressing what one covers: they sit
 * bottom-right, over a row's right-hand buttons on a short page, and wait while the pointer
 * rests on them. A raw `mouse.down` (a long press) would land on the toast, not the button.
 */
export async function dismissToasts(page: Page) {
  // Without JavaScript: each flash toast's × (the label of its checkbox) hides it.
  const statics = page.locator(".gt-toast-static .gt-toast-card:visible");
  for (let i = 0; i < 10 && (await statics.count()) > 0; i++) await statics.first().locator(".gt-toast-close-static").click();
  // Toasts still on screen (a leaving one keeps its node for 200 ms, marked data-removed).
  const shown = page.locator(".gt-toaster [data-sonner-toast]:not([data-removed='true'])");
  for (let i = 0; i < 10; i++) {
    const n = await shown.count();
    if (n === 0) break;
    // Stacked toasts overlap: the close button's own click handler, whichever lies on top. A
    // toast may leave by itself meanwhile: then there is nothing to press, and the count fell.
    await shown
      .first()
      .getByRole("button", { name: "Dismiss notification" })
      .dispatchEvent("click", undefined, { timeout: 1_000 })
      .catch(() => {});
    await expect(shown).not.toHaveCount(n);
  }
  await expect(shown).toHaveCount(0);
}

/** A long press (spec 2 §9: 500 ms starts multi-select) on `target`, with nothing covering it. */
export async function longPress(page: Page, target: Locator) {
  await dismissToasts(page);
  // The press goes where the pointer is, so first make sure the target is what is there: once,
  // at 390 px under load, the page moved after the hover and the press landed on the header's
  // Collections link (the journey then waited out its timeout on the Collections page).
  let point: { x: number; y: number } | null = null;
  await expect(async () => {
    await target.hover();
    point = await target.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const at = document.elementFromPoint(x, y);
      return at && (at === el || el.contains(at)) ? { x, y } : null;
    });
    expect(point, "the target is what the pointer would press").not.toBeNull();
  }).toPass({ timeout: 10_000 });
  await page.mouse.move(point!.x, point!.y);
  await page.mouse.down();
  await page.waitForTimeout(700);
  await page.mouse.up();
}
export const sequenceCard = (page: Page, name: string) => page.getByTestId("sequence").filter({ has: page.getByText(name, { exact: true }) });
export const adRow = (page: Page, text: string) => page.getByTestId("ad").filter({ hasText: text });

/** This worker's world's Galaxy simulator (tests/e2e/world.ts; global-setup.ts starts it). */
export const TRADING_SIM_URL = WORLD.simUrl;

/**
 * A character of type trading made from a seeded simulator account (POST /api/create-creds),
 * one english step (TradeZone*1, TradeZone*2 in order), open level 0 so it posts wherever it lands,
 * and one active ad. Returns the account.
 */
export async function seedTrader(request: APIRequestContext, index: number, stay = 60) {
  const res = await fetch(`${TRADING_SIM_URL}/__sim/accounts?kind=trader`);
  const { accounts } = (await res.json()) as { accounts: { id: string; nick: string; recoveryCode: string }[] };
  const acc = accounts[index]!;
  const created = await request.post("/api/create-creds", { data: { rc: acc.recoveryCode, type: "trading" } });
  expect([200, 201, 409]).toContain(created.status());
  expect(
    (
      await request.post("/api/planet-sequences", {
        data: { name: "Trade zones", sequence: [{ planetType: "english", shuffle: false }], seconds: stay, openPlanetsLevel: 0 },
      })
    ).status(),
  ).toBe(201);
  expect((await request.post("/api/ads", { data: { adsMessage: `Selling roses 🌹 #${index}`, category: "ads" } })).status()).toBe(201);
  return acc;
}

/**
 * What an account posted to planet chat, as the simulator saw it; from `since` (ms) on, so a
 * retried journey does not count its first try's post (the simulator outlives a try).
 */
export async function postedBy(accountId: string, since = 0): Promise<{ planet: string; text: string }[]> {
  const res = await fetch(`${TRADING_SIM_URL}/__sim/chat?fromId=${accountId}`);
  return ((await res.json()) as { chat: { planet: string; text: string; toId: string; at: number }[] }).chat.filter((c) => c.toId === "0" && c.at >= since);
}

export const traderCard = (page: Page, accountId: string) => page.getByTestId(`trader-${accountId}`);

/**
 * Issue 20 "Bounded pages": `n` ads of category ads, "Paged ad 1" … "Paged ad n", in list order
 * (oldest first). More than a page (TRADING_LIMITS.adsPerPage, 40) puts the last ones on page 2.
 */
export async function seedPagedAds(request: APIRequestContext, n: number) {
  for (let i = 1; i <= n; i++) expect((await request.post("/api/ads", { data: { adsMessage: `Paged ad ${i}`, category: "ads" } })).status()).toBe(201);
}
