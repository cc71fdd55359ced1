import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { adRow, keyboardDrag, resetTrading, seedSequences, seedTrader, sequenceCard, sequenceNames, traderCard } from "./trading-fixtures";

/**
 * Issue 19 item 1, the standing test of the form kit (app/components/ui/submit-failure.ts):
 * with JavaScript, a post refused by the network (`route.abort()`) or answered by a bare 500
 * that is not the app's answer (a proxy's page) leaves the screen as it was — what was typed
 * is still in the fields, an error toast says why, the error boundary ("Something went
 * wrong") is not shown — and the same form then posts fine once the server answers again.
 *
 * Forms walked (each with both failures):
 *   Trading Planets (spec 2 §2 "Trading Planets screen"), all of its forms:
 *     New Sequence (Create), Edit Sequence (Update), sequence Active switch, sequence drag
 *     reorder (keyboard), Delete Sequence confirmation, Custom Planets add, inline rename,
 *     Delete Planet confirmation, new ad (2,000 characters, the large editor), Edit ad, ad
 *     Active switch, ad delete, Delete Selected confirmation, the trader's Start (its Stop
 *     is the same form with the other intent).
 *   Exchange Rates: a row's tier editor (Save).
 *   All Characters: Add Category dialog.
 *   Bowling Bots: the Summary panel's Gift Rates dialog (Save; its own fetch, a failure only
 *   logged as spec 2 §8 says, so no toast is asked of it).
 *   GalaCord: New connection (channel + recovery code).
 *   Collections: recovery-code login.
 *   Every page's header: the dark mode toggle.
 */

const FAILURES = ["network", "500"] as const;
type Failure = (typeof FAILURES)[number];

/** The form kit's reasons (SUBMIT_FAILURE_TEXTS). */
const REASON: Record<Failure, string> = {
  network: "The server could not be reached. Check the connection and try again.",
  "500": "The server could not complete the request. Try again in a moment.",
};

/** Every write of the page (not its GETs) fails the given way until `allowWrites`. */
async function refuseWrites(page: Page, how: Failure) {
  await page.route("**/*", async (route) => {
    if (["GET", "HEAD"].includes(route.request().method())) return route.fallback();
    if (how === "network") return route.abort("failed");
    return route.fulfill({ status: 500, contentType: "text/html", body: "<html><body><h1>500 Internal Server Error</h1></body></html>" });
  });
}

async function allowWrites(page: Page) {
  await page.unrouteAll({ behavior: "ignoreErrors" });
}

const toaster = (page: Page) => page.locator(".gt-toaster");

/** The screen is still the section (not the error boundary) and a toast says the post failed. */
async function failedInPlace(page: Page, heading: string, how: Failure, title?: string) {
  if (title) await expect(toaster(page).getByText(title, { exact: true }).first()).toBeVisible();
  await expect(toaster(page).getByText(REASON[how], { exact: true }).first()).toBeVisible();
  await stillTheSection(page, heading);
}

/** The section's own heading (attached: a modal dialog hides it from the accessibility tree), not the error boundary's. */
async function stillTheSection(page: Page, heading: string) {
  await expect(page.locator("h1").filter({ hasText: heading })).toBeAttached();
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
}

/** Submits with each failure in turn, checks the page after each, then lets the next post through. */
async function walk(page: Page, heading: string, submit: () => Promise<void>, kept: (how: Failure) => Promise<void>, title?: string) {
  for (const how of FAILURES) {
    await refuseWrites(page, how);
    await submit();
    await failedInPlace(page, heading, how, title);
    await kept(how);
    await allowWrites(page);
  }
}

test.describe("Trading Planets: every form keeps its input when the post fails", () => {
  test.beforeEach(async ({ request }) => resetTrading(request));

  async function open(page: Page) {
    await page.goto("/trading-planets");
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("heading", { level: 1, name: "Trading Planets" })).toBeVisible();
  }

  test("New Sequence and Edit Sequence keep name, planets and numbers; then Create/Update work", async ({ page, request }) => {
    await open(page);
    await page.getByRole("link", { name: "New Sequence" }).click();
    await page.getByLabel("Name").fill("Night run");
    await page.getByRole("button", { name: "Add planet" }).click();
    await page.getByRole("button", { name: "Add planet" }).click();
    await page.getByLabel("Seconds").fill("12");
    await page.getByLabel("Open level").fill("3");
    await walk(
      page,
      "Trading Planets",
      () => page.getByRole("button", { name: "Create" }).click(),
      async () => {
        await expect(page.getByLabel("Name")).toHaveValue("Night run");
        await expect(page.getByRole("list", { name: "Planets" }).getByRole("listitem")).toHaveCount(2);
        await expect(page.getByLabel("Seconds")).toHaveValue("12");
        await expect(page.getByLabel("Open level")).toHaveValue("3");
        expect(await sequenceNames(request)).toEqual([]);
      },
      "Failed to create sequence",
    );
    await page.getByRole("button", { name: "Create" }).click();
    await expect(toaster(page).getByText("Sequence created successfully")).toBeVisible();
    expect(await sequenceNames(request)).toEqual(["Night run"]);

    await page.getByRole("link", { name: "Edit Night run" }).click();
    await page.getByLabel("Name").fill("Night run 2");
    await walk(
      page,
      "Trading Planets",
      () => page.getByRole("button", { name: "Update" }).click(),
      async () => {
        await expect(page.getByRole("heading", { name: "Edit Sequence" })).toBeVisible();
        await expect(page.getByLabel("Name")).toHaveValue("Night run 2");
      },
      "Failed to update sequence",
    );
    await page.getByRole("button", { name: "Update" }).click();
    await expect(toaster(page).getByText("Sequence updated successfully")).toBeVisible();
    await expect.poll(() => sequenceNames(request)).toEqual(["Night run 2"]);
  });

  test("sequence Active switch, drag reorder and Delete Sequence: the list stays as stored", async ({ page, request }) => {
    await seedSequences(request, ["One", "Two"]);
    await open(page);
    const active = page.getByRole("switch", { name: "Active: One" });
    await walk(
      page,
      "Trading Planets",
      () => active.click(),
      async () => await expect(active).toHaveAttribute("aria-checked", "true"),
      "Failed to update sequence status",
    );

    const handle = page.getByRole("button", { name: "Drag One" });
    await expect(handle).toHaveAttribute("aria-roledescription", "sortable");
    await walk(
      page,
      "Trading Planets",
      async () => keyboardDrag(page, handle, "ArrowDown", "Two"),
      async () => {
        await expect(page.getByTestId("sequence").first()).toContainText("One");
        expect(await sequenceNames(request)).toEqual(["One", "Two"]);
      },
      "Failed to update sequence",
    );

    await walk(
      page,
      "Trading Planets",
      async () => {
        await page.getByRole("link", { name: "Delete Two" }).click();
        await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
      },
      async () => {
        await expect(sequenceCard(page, "Two")).toBeVisible();
        expect(await sequenceNames(request)).toEqual(["One", "Two"]);
      },
      "Failed to delete sequence",
    );
  });

  test("Custom Planets: add, inline rename and Delete Planet keep what was typed", async ({ page, request }) => {
    expect((await request.post("/api/custom-planets", { data: { name: "Orion", type: "blacklisted" } })).status()).toBe(201);
    await open(page);
    await page.getByRole("link", { name: "Custom Planets" }).click();
    const dialog = page.getByRole("dialog", { name: "Custom Planets" });
    await dialog.getByLabel("Planet name").fill("Nebula");
    await walk(
      page,
      "Trading Planets",
      () => dialog.getByRole("button", { name: "Add" }).click(),
      async () => await expect(dialog.getByLabel("Planet name")).toHaveValue("Nebula"),
      "Failed to create custom planet",
    );

    const rename = dialog.getByLabel("Rename Orion");
    await rename.fill("Orion2");
    await walk(
      page,
      "Trading Planets",
      () => rename.press("Enter"),
      async () => await expect(rename).toHaveValue("Orion2"),
      "Failed to update custom planet",
    );
    // Leaving the field saves what it holds (spec 2 §5's inline rename), so with "Orion2" still
    // in it, a later move of the focus could post the rename again, and one that fell between
    // two refusals would be stored ("Orion2" was found stored once; not reproduced). Escape puts
    // the name back: the walk below is about Delete Planet alone.
    await rename.press("Escape");
    await expect(rename).toHaveValue("Orion");

    await walk(
      page,
      "Trading Planets",
      async () => {
        await dialog.getByRole("link", { name: "Delete Orion" }).click();
        await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
      },
      async () => await expect(page.getByRole("dialog", { name: "Custom Planets" }).getByLabel("Rename Orion")).toBeVisible(),
      "Failed to delete custom planet",
    );
    const planets = (await (await request.get("/api/custom-planets")).json()) as { planets: { name: string }[] };
    expect(planets.planets.map((p) => p.name)).toEqual(["Orion"]);
  });

  test("Ads: a 2,000-character ad, Edit, Active, delete and Delete Selected keep their state", async ({ page, request }) => {
    for (const text of ["first ad", "second ad"]) expect((await request.post("/api/ads", { data: { adsMessage: text } })).status()).toBe(201);
    await open(page);
    await page.getByRole("button", { name: "Expand" }).click();
    const long = `WTS ${"⭐ rings and roses ".repeat(200)}`.slice(0, 2000);
    const area = page.getByLabel("New message");
    await area.fill(long);
    const add = page.getByRole("button", { name: "Add", exact: true }).last();
    await walk(
      page,
      "Trading Planets",
      () => add.click(),
      async () => await expect(area).toHaveValue(long),
      "Failed to create ad",
    );
    await add.click();
    await expect(toaster(page).getByText("Ad created successfully")).toBeVisible();
    await expect(area).toHaveValue("");

    await page.getByRole("link", { name: "Edit first ad" }).click();
    const edit = page.getByLabel("Edit message");
    await edit.fill("first ad, edited");
    await walk(
      page,
      "Trading Planets",
      () => page.getByRole("button", { name: "Save" }).click(),
      async () => await expect(edit).toHaveValue("first ad, edited"),
      "Failed to update ad status",
    );
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toaster(page).getByText("Ad updated successfully")).toBeVisible();

    const switchOf = page.getByRole("switch", { name: "Active: second ad" });
    await walk(
      page,
      "Trading Planets",
      () => switchOf.click(),
      async () => await expect(switchOf).toHaveAttribute("aria-checked", "true"),
      "Failed to update ad status",
    );

    await walk(
      page,
      "Trading Planets",
      () => page.getByRole("button", { name: "Delete second ad" }).click(),
      async () => await expect(adRow(page, "second ad")).toBeVisible(),
      "Failed to delete ad",
    );

    // Long press (500 ms, spec 2 §9) starts multi-select.
    await page.getByRole("button", { name: "Delete second ad" }).hover();
    await page.mouse.down();
    await expect(page.getByRole("button", { name: "Delete Selected" })).toBeVisible({ timeout: 3000 });
    await page.mouse.up();
    await walk(
      page,
      "Trading Planets",
      async () => {
        await page.getByRole("button", { name: "Delete Selected" }).click();
        await page.getByRole("alertdialog", { name: "Delete Selected Ads" }).getByRole("button", { name: "Delete" }).click();
      },
      async () => {
        await expect(adRow(page, "second ad")).toBeVisible();
        await expect(page.getByRole("checkbox", { name: "Select second ad" })).toBeChecked();
      },
      "Failed to delete selected ads",
    );
    const ads = (await (await request.get("/api/ads")).json()) as { ads: { adsMessage: string }[] };
    expect(ads.ads.map((a) => a.adsMessage).sort()).toEqual([long, "first ad, edited", "second ad"].sort());
  });
});

test("Trading Planets: the trader's Start keeps the page (a trading character of the simulator)", async ({ page, request }) => {
  await resetTrading(request);
  const acc = await seedTrader(request, 11);
  await page.goto("/trading-planets");
  await page.waitForLoadState("networkidle");
  const start = traderCard(page, acc.id).getByRole("button", { name: `Start ${acc.nick}` });
  await walk(
    page,
    "Trading Planets",
    () => start.click(),
    async () => await expect(start).toBeVisible(),
    "Failed to start trader",
  );
  const { traders } = (await (await request.get("/api/trader/status")).json()) as { traders: { accountId: string; state: string }[] };
  expect(traders.find((t) => t.accountId === acc.id)?.state ?? "idle").toBe("idle");
});

test.describe("one form per section keeps its input when the post fails", () => {
  test("Exchange Rates: a row's tier editor keeps the edited rate", async ({ page, request }) => {
    const { resetRates, openRates, row } = await import("./exchange-rates-fixtures");
    await resetRates(request);
    await openRates(page);
    const silver = row(page, "Gold Ring", "Silver Ring");
    await silver.getByRole("button", { name: "Show tiers of Silver Ring" }).click();
    await silver.getByRole("textbox", { name: "T2 rate" }).fill("2/3");
    await walk(
      page,
      "Exchange Rates",
      () => silver.getByRole("button", { name: "Save", exact: true }).click(),
      async () => await expect(silver.getByRole("textbox", { name: "T2 rate" })).toHaveValue("2/3"),
    );
  });

  test("All Characters: Add Category keeps the name", async ({ page }) => {
    await page.goto("/characters");
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Add Category" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Category" });
    await dialog.getByLabel("Category name").fill("offline-whales");
    await walk(
      page,
      "All Characters",
      () => dialog.getByRole("button", { name: "Add", exact: true }).click(),
      async () => await expect(dialog.getByLabel("Category name")).toHaveValue("offline-whales"),
    );
  });

  // Spec 2 §8 "Characters": "Gift rate load and save failures … are only logged" — no toast here.
  test("Bowling Bots: the Gift Rates dialog keeps prize and fireballs (a failed save is only logged, spec 2 §8)", async ({ page }) => {
    await page.goto("/gifts");
    await page.waitForLoadState("networkidle");
    // The dialog loads the stored rates when it opens, and that answer replaces what is in
    // the fields: type only after it has been applied.
    const loaded = page.waitForResponse((r) => r.url().endsWith("/api/gift-rates") && r.request().method() === "GET");
    await page.getByTestId("summary-panel").getByRole("link", { name: "Gift Rates" }).click();
    const dialog = page.getByRole("dialog", { name: "Gift Rates" });
    await (await loaded).finished();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await dialog.getByLabel("Clay prize").fill("7");
    await dialog.getByLabel("Clay fireballs").fill("3");
    for (const how of FAILURES) {
      await refuseWrites(page, how);
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.getByRole("button", { name: "Save" })).toBeEnabled();
      await stillTheSection(page, "Bowling Bots");
      await expect(dialog.getByLabel("Clay prize")).toHaveValue("7");
      await expect(dialog.getByLabel("Clay fireballs")).toHaveValue("3");
      await allowWrites(page);
    }
  });

  test("Collections: the recovery-code login keeps the code", async ({ page }) => {
    await page.goto("/collections");
    await page.waitForLoadState("networkidle");
    const out = page.getByTestId("profile-card").getByRole("button", { name: "Log out" });
    if (await out.count()) {
      await out.click();
      await expect(page.getByLabel("Recovery code")).toBeVisible();
    }
    await page.getByLabel("Recovery code").fill("OFFLINE123");
    await walk(
      page,
      "Collections",
      () => page.getByRole("button", { name: "Log in", exact: true }).click(),
      async () => await expect(page.getByLabel("Recovery code")).toHaveValue("OFFLINE123"),
    );
  });

  test("GalaCord: New connection keeps the channel and the recovery code", async ({ page, request }) => {
    test.setTimeout(90_000);
    const started = await request.post("/api/bot/start");
    expect(started.ok(), await started.text()).toBeTruthy();
    await expect
      .poll(async () => ((await (await request.get("/api/bot/channels")).json()) as { channels?: unknown[] }).channels?.length ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(0);
    try {
      await page.goto("/galacord");
      await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: "ID", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "New connection" });
      await dialog.getByLabel("Channel").selectOption({ label: "#relay" });
      await dialog.getByLabel("Recovery code").fill("OFFLINE123");
      await walk(
        page,
        "GalaCord",
        () => dialog.getByRole("button", { name: "Connect" }).click(),
        async () => {
          await expect(dialog.getByLabel("Recovery code")).toHaveValue("OFFLINE123");
          await expect(dialog.getByLabel("Channel").locator("option:checked")).toHaveText("#relay");
        },
      );
    } finally {
      await request.post("/api/bot/stop");
    }
  });

  test("the header's dark mode toggle: a failed post is a toast, not the error page", async ({ page }) => {
    await page.goto("/trading-planets");
    await page.waitForLoadState("networkidle");
    const toggle = page.getByRole("switch", { name: "Dark mode" });
    await walk(
      page,
      "Trading Planets",
      () => toggle.click(),
      async () => await expect(toggle).toBeVisible(),
    );
  });
});
