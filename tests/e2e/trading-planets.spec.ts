import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { adRow, keyboardDrag, longPress, resetTrading, seedSequences, sequenceCard, sequenceNames, toast } from "./trading-fixtures";

/** Spec 2 §2 "Trading Planets screen", §4, §5, §8, §9 with JavaScript on. */

test.beforeEach(async ({ request }) => resetTrading(request));

async function open(page: Page) {
  await page.goto("/trading-planets");
  await page.waitForLoadState("networkidle");
}

/**
 * The server renders no handles; the hydrated page shows them (sortable, with dnd-kit's
 * attributes) and loads dnd-kit on the first drag (app/components/ui/lazy-sortable.tsx).
 */
async function dragReady(page: Page, name: string) {
  await expect(page.getByRole("button", { name: `Drag ${name}` })).toHaveAttribute("aria-roledescription", "sortable");
}

test("New Sequence: §5 messages in the browser, §9 defaults, then the card shows badges and numbered chips (star = shuffle)", async ({ page, request }) => {
  await open(page);
  await page.getByRole("link", { name: "New Sequence" }).click();
  await expect(page.getByLabel("Seconds")).toHaveValue("6");
  await expect(page.getByLabel("Closed level")).toHaveValue("51");
  await expect(page.getByLabel("Open level")).toHaveValue("15");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Please enter a sequence name")).toBeVisible();
  await expect(page.getByText("Please add at least one planet")).toBeVisible();
  await page.getByLabel("Name").fill("Morning run");
  await page.getByRole("button", { name: "Add planet" }).click();
  await page.getByRole("button", { name: "Add planet" }).click();
  await page.getByRole("combobox", { name: "Planet type 2" }).click();
  await expect(page.getByRole("option", { name: "cannon (35)" })).toBeVisible();
  await expect(page.getByRole("option", { name: "russian (0)" })).toBeVisible();
  await page.getByRole("option", { name: "russian (0)" }).click();
  await page.getByLabel("Seconds").fill("-1");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Seconds must be a non-negative number")).toBeVisible();
  await page.getByLabel("Seconds").fill("8");
  // Enter in a field saves (the form's default button), it does not move or remove a planet.
  await page.getByLabel("Name").press("Enter");
  await expect(toast(page, "Sequence created successfully")).toBeVisible();
  const card = sequenceCard(page, "Morning run");
  await expect(card.getByText("8s")).toBeVisible();
  await expect(card.getByText("≤ 51")).toBeVisible();
  await expect(card.getByText("≥ 15")).toBeVisible();
  await expect(card.getByRole("listitem").nth(0)).toHaveText("1. ring ★");
  await expect(card.getByRole("listitem").nth(1)).toHaveText("2. russian");
  const body = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { seconds: number; sequence: { shuffle: boolean }[] }[] };
  expect(body.sequences[0]!.seconds).toBe(8);
  expect(body.sequences[0]!.sequence.map((s) => s.shuffle)).toEqual([true, false]);
});

test("issue 19: a closed level below the open level is refused in the browser; a taken name comes back from the server, the form kept", async ({
  page,
  request,
}) => {
  await seedSequences(request, ["Alpha"]);
  await open(page);
  await page.getByRole("link", { name: "New Sequence" }).click();
  await page.getByLabel("Name").fill("ALPHA");
  await page.getByRole("button", { name: "Add planet" }).click();
  await page.getByLabel("Closed level").fill("10");
  await page.getByLabel("Open level").fill("11");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("The closed level must be at least the open level")).toBeVisible();
  await page.getByLabel("Open level").fill("10");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("A sequence with this name already exists")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("ALPHA");
  await expect(page.getByLabel("Closed level")).toHaveValue("10");
  expect(await sequenceNames(request)).toEqual(["Alpha"]);
  await page.getByLabel("Name").fill("Beta");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "Sequence created successfully")).toBeVisible();
  expect(await sequenceNames(request)).toEqual(["Alpha", "Beta"]);
});

test("edit, active switch and delete with confirmation", async ({ page, request }) => {
  await seedSequences(request, ["Alpha"]);
  await open(page);
  await page.getByRole("link", { name: "Edit Alpha" }).click();
  await page.getByLabel("Name").fill("Alpha 2");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(toast(page, "Sequence updated successfully")).toBeVisible();
  await page.getByRole("switch", { name: "Active: Alpha 2" }).click();
  await expect
    .poll(async () => ((await (await request.get("/api/planet-sequences")).json()) as { sequences: { isActive: boolean }[] }).sequences[0]!.isActive)
    .toBe(false);
  await page.getByRole("link", { name: "Delete Alpha 2" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete “Alpha 2”?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Sequence deleted successfully")).toBeVisible();
  expect(await sequenceNames(request)).toEqual([]);
});

test("drag reorder by keyboard and by mouse is stored (§9: mouse threshold 5 px)", async ({ page, request }) => {
  await seedSequences(request, ["One", "Two", "Three"]);
  await open(page);
  await dragReady(page, "One");
  // Keyboard: focus the handle, Space picks up, ArrowDown moves, Space drops.
  // Each key waits for dnd-kit to take the previous one in (a loaded machine lags a frame).
  await keyboardDrag(page, page.getByRole("button", { name: "Drag One" }), "ArrowDown", "Two");
  await expect.poll(() => sequenceNames(request)).toEqual(["Two", "One", "Three"]);

  // Mouse: press on Three's handle and move it above Two.
  const from = (await page.getByRole("button", { name: "Drag Three" }).boundingBox())!;
  const to = (await sequenceCard(page, "Two").boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 5 });
  await page.mouse.move(from.x + from.width / 2, to.y + 5, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => sequenceNames(request)).toEqual(["Three", "Two", "One"]);
  await page.reload();
  await expect(page.getByTestId("sequence").first()).toContainText("Three");
});

test("drag-and-drop code loads when the first drag starts, not with the page, and that first press drags (issue 32 item 4)", async ({ page, request }) => {
  await seedSequences(request, ["One", "Two", "Three"]);
  const dnd: string[] = [];
  page.on("request", (r) => {
    if (/\/sortable-layer-[\w-]+\.js$/.test(r.url())) dnd.push(r.url());
  });
  await open(page);
  await dragReady(page, "Three");
  expect(dnd, "dnd-kit fetched before any drag").toEqual([]);

  const from = (await page.getByRole("button", { name: "Drag Three" }).boundingBox())!;
  const to = (await sequenceCard(page, "One").boundingBox())!;
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  const fetched = page.waitForRequest(/\/sortable-layer-[\w-]+\.js$/);
  await page.mouse.down();
  await fetched;
  // The press that loaded the code is dnd-kit's: moving on (past 5 px) picks the card up.
  let dy = 6;
  await expect(async () => {
    await page.mouse.move(x, y - dy++);
    await expect(sequenceCard(page, "Three")).toHaveAttribute("data-dragging", "", { timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await page.mouse.move(x, to.y + 5, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => sequenceNames(request)).toEqual(["Three", "One", "Two"]);
  expect(dnd).toHaveLength(1);
});

test("sequence form: planets reorder by drag (keyboard and mouse on the handle), stored in the new order (spec 2 §2)", async ({ page, request }) => {
  await open(page);
  await page.getByRole("link", { name: "New Sequence" }).click();
  await page.getByLabel("Name").fill("Dragged");
  for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Add planet" }).click();
  for (const [n, type] of [
    [2, "cannon (35)"],
    [3, "russian (0)"],
  ] as const) {
    await page.getByRole("combobox", { name: `Planet type ${n}` }).click();
    await page.getByRole("option", { name: type }).click();
  }
  await expect(page.getByRole("button", { name: "Drag planet 3" })).toHaveAttribute("aria-roledescription", "sortable");
  // Keyboard: russian (3rd) up one place.
  await keyboardDrag(page, page.getByRole("button", { name: "Drag planet 3" }), "ArrowUp");
  await expect(page.getByRole("combobox", { name: "Planet type 2" })).toContainText("russian");
  // Mouse: the ring (1st) below the cannon (now 3rd).
  const from = (await page.getByRole("button", { name: "Drag planet 1" }).boundingBox())!;
  const to = (await page.getByRole("combobox", { name: "Planet type 3" }).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 5 });
  await page.mouse.move(from.x + from.width / 2, to.y + to.height, { steps: 10 });
  await page.mouse.up();
  await expect(page.getByRole("combobox", { name: "Planet type 3" })).toContainText("ring");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "Sequence created successfully")).toBeVisible();
  const body = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { sequence: { planetType: string }[] }[] };
  expect(body.sequences[0]!.sequence.map((s) => s.planetType)).toEqual(["russian", "cannon", "ring"]);
});

test("drag reorder by touch: a 120 ms long press then move (§9)", async ({ browser, request, baseURL }) => {
  await seedSequences(request, ["One", "Two"]);
  const context = await browser.newContext({
    hasTouch: true,
    isMobile: true,
    viewport: { width: 375, height: 800 },
    storageState: test.info().project.use.storageState as string,
    baseURL,
  });
  const page = await context.newPage();
  await open(page);
  await dragReady(page, "Two");
  const handle = (await page.getByRole("button", { name: "Drag Two" }).boundingBox())!;
  const target = (await sequenceCard(page, "One").boundingBox())!;
  const cdp = await context.newCDPSession(page);
  const x = handle.x + handle.width / 2;
  const y = handle.y + handle.height / 2;
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  // The first touch loads dnd-kit and is handed to it: held still, 120 ms after that it picks the card up.
  await expect(sequenceCard(page, "Two")).toHaveAttribute("data-dragging", "");
  for (let i = 1; i <= 10; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y: y + ((target.y + 5 - y) * i) / 10 }] });
    await page.waitForTimeout(16);
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await expect.poll(() => sequenceNames(request)).toEqual(["Two", "One"]);
  await context.close();
});

test("Custom Planets: add, unique per type (any case), rename inline, delete with “Delete Planet”", async ({ page, request }) => {
  await open(page);
  await page.getByRole("link", { name: "Custom Planets" }).click();
  const dialog = page.getByRole("dialog", { name: "Custom Planets" });
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(dialog.getByText("Please enter a planet name")).toBeVisible();
  await dialog.getByLabel("Planet name").fill("SpamHub");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Custom planet created successfully")).toBeVisible();
  await expect(dialog.getByLabel("Planet name")).toHaveValue("");
  await expect(dialog.getByRole("list", { name: "Blacklisted planets" }).getByLabel("Rename SpamHub")).toHaveValue("SpamHub");
  await dialog.getByLabel("Planet name").fill("spamhub");
  await dialog.getByRole("button", { name: "Add" }).click();
  // Issue 30 A6: refused by the server: the name stays, the reason under the field.
  await expect(dialog.getByLabel("Planet name")).toHaveAccessibleDescription("A custom planet with this name and type already exists");
  await expect(dialog.getByLabel("Planet name")).toHaveValue("spamhub");
  // Issue 19: the platform's planet-name rule is checked before posting (api/planet-name.ts).
  await dialog.getByLabel("Planet name").fill("Trade Zone 🌍");
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(dialog.getByText("A planet name is one word (no spaces or colons), at most 64 characters")).toBeVisible();
  await dialog.getByLabel("Planet name").fill("OtherHub");
  await expect(dialog.getByText("A planet name is one word (no spaces or colons), at most 64 characters")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Custom planet created successfully")).toBeVisible();
  // A rename the server refuses (a taken name) does not linger as a second identical chip.
  const other = dialog.getByLabel("Rename OtherHub");
  await other.fill("spamhub");
  await other.press("Enter");
  // Issue 30 A6/A9: the refused name and why, under its chip (not only in a toast).
  await expect(other).toHaveAccessibleDescription("“spamhub”: A custom planet with this name and type already exists");
  await expect(other).toHaveValue("OtherHub");
  // A blank name is refused in the browser; the message goes once the name is edited or Escape puts it back.
  await other.fill("");
  await other.press("Enter");
  await expect(dialog.getByText("Please enter a planet name")).toBeVisible();
  await other.press("Escape");
  await expect(other).toHaveValue("OtherHub");
  await expect(dialog.getByText("Please enter a planet name")).toHaveCount(0);
  await dialog.getByRole("link", { name: "Delete OtherHub" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Custom planet deleted successfully")).toBeVisible();

  const rename = dialog.getByLabel("Rename SpamHub");
  await rename.fill("JunkHub");
  await rename.press("Enter");
  await expect(toast(page, "Custom planet updated successfully")).toBeVisible();
  await dialog.getByRole("link", { name: "Delete JunkHub" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Delete Planet");
  await expect(page.getByRole("alertdialog")).toContainText("Are you sure you want to delete “JunkHub”?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  // The first delete's toast may still be up: the chip going and the stored list say this one is done.
  await expect(dialog.getByLabel("Rename JunkHub")).toHaveCount(0);
  await expect(toast(page, "Custom planet deleted successfully").first()).toBeVisible();
  await expect.poll(async () => ((await (await request.get("/api/custom-planets")).json()) as { planets: unknown[] }).planets).toEqual([]);
});

test("Ads: message required, expand + quick insert at the caret, copy to clipboard, optimistic active, long-press multi-select delete", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await open(page);
  await page.getByRole("button", { name: "Add", exact: true }).last().click();
  await expect(page.getByText("Please enter an ad message")).toBeVisible();
  await page.getByRole("button", { name: "Expand" }).click();
  const area = page.getByLabel("New message");
  await area.fill("Sell  now");
  await area.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 5));
  await page.getByRole("toolbar", { name: "Quick insert" }).getByRole("button", { name: "🚀" }).click();
  await expect(area).toHaveValue("Sell 🚀 now");
  await page.getByRole("button", { name: "Add", exact: true }).last().click();
  await expect(toast(page, "Ad created successfully")).toBeVisible();
  await expect(area).toHaveValue("");
  for (const text of ["second ad", "third ad"]) expect((await request.post("/api/ads", { data: { adsMessage: text } })).status()).toBe(201);
  await page.reload();

  await adRow(page, "Sell 🚀 now").getByRole("button", { name: "Sell 🚀 now", exact: true }).click();
  await expect(toast(page, "Text copied to clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Sell 🚀 now");
  // The worker's next journeys share this context (playwright.config.ts reuseContext).
  await context.clearPermissions();

  // The switch's post, answered: its toast comes right after (awaited below, before the long press).
  const switched = page.waitForResponse((r) => r.request().method() === "POST" && /^\/trading-planets(\.data)?$/.test(new URL(r.url()).pathname));
  await page.getByRole("switch", { name: "Active: second ad" }).click();
  await expect(page.getByRole("switch", { name: "Active: second ad" })).toHaveAttribute("aria-checked", "false");
  await expect
    .poll(
      async () =>
        ((await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string; isActive: boolean }[] }).ads.find((a) => a.adsMessage === "second ad")!
          .isActive,
    )
    .toBe(false);
  // The switch's answer reaches the page after the server has stored it, with its toast and a
  // revalidation: the press waits for it, so nothing the page does meanwhile lands in the 700 ms
  // hold. (Once, at a load average of 10, the press started no multi-select; the page changing
  // under it is the likely cause, not reproduced: an answer held 1.5 s into the hold did not.)
  await switched;
  await expect(toast(page, "Ad updated successfully")).toBeVisible();

  // Long press (500 ms) on delete starts multi-select with that ad selected.
  await longPress(page, page.getByRole("button", { name: "Delete second ad" }));
  await expect(page.getByRole("button", { name: "Delete Selected" })).toBeVisible();
  await page.getByRole("checkbox", { name: "Select third ad" }).check();
  await page.getByRole("button", { name: "Delete Selected" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Selected Ads" });
  await expect(confirm).toContainText("cannot be undone");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Selected ads deleted successfully")).toBeVisible();
  const left = (await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string }[] };
  expect(left.ads.map((a) => a.adsMessage)).toEqual(["Sell 🚀 now"]);
  // Issue 19: multi-select ends with the deletion — no toolbar, no count, no checkboxes —
  // and a short click on another delete deletes that ad instead of selecting it.
  await expect(page.getByRole("button", { name: "Delete Selected" })).toHaveCount(0);
  await expect(page.getByText(/^\d+ selected$/)).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Select Sell 🚀 now" })).toHaveCount(0);
  await page.getByRole("button", { name: "Delete Sell 🚀 now" }).click();
  await expect(toast(page, "Ad deleted successfully")).toBeVisible();
  expect(((await (await request.get("/api/ads")).json()) as { ads: unknown[] }).ads).toEqual([]);
});

test("375 px: the screen fits without sideways scrolling and the sequence box is at most 400 px high", async ({ page, request }) => {
  await seedSequences(
    request,
    Array.from({ length: 8 }, (_, i) => `Seq ${i + 1}`),
  );
  await page.setViewportSize({ width: 375, height: 740 });
  await open(page);
  await expect(page.getByRole("link", { name: "New Sequence" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Custom Planets" })).toBeVisible();
  const box = (await page.getByTestId("sequence-box").boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(400);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("issue 19: a tooltip is the size of its text, not a window-high slab over the buttons", async ({ page }) => {
  await open(page);
  await page.getByRole("switch", { name: "Dark mode" }).hover();
  const tip = page.locator(".rt-TooltipContent");
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(/Switch to (light|dark) mode/);
  const box = (await tip.boundingBox())!;
  expect(box.height).toBeLessThan(60);
  // The portalled Theme wrapper around it does not fill the window either.
  const wrapper = await tip.evaluate((el) => el.closest(".radix-themes")!.getBoundingClientRect().height);
  expect(wrapper).toBeLessThan(100);
});

test("375 px: each planet row of the sequence form stays on one line (issue 19 item 12)", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await open(page);
  await page.getByRole("link", { name: "New Sequence" }).click();
  for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Add planet" }).click();
  for (const n of [1, 2, 3]) {
    // The remove button sits beside the type, not alone on a line of its own.
    const type = (await page.getByRole("combobox", { name: `Planet type ${n}` }).boundingBox())!;
    const remove = (await page.getByRole("button", { name: `Remove planet ${n}` }).boundingBox())!;
    expect(Math.abs(remove.y + remove.height / 2 - (type.y + type.height / 2))).toBeLessThan(8);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
