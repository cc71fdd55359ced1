import { expect, test } from "./fixtures";

/**
 * Issue 33 item 2: "GET /api/docs: a reference page that renders that document (an existing
 * renderer served from the app's own assets, not a CDN: the app runs offline), reachable from
 * Settings next to the API tokens."
 */
test("Settings links the API reference, which renders /api/openapi.json from the app's own files", async ({ page }) => {
  const requests: string[] = [];
  const problems: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));

  await page.goto("/settings");
  const tokens = page.getByRole("region", { name: "API tokens" });
  await tokens.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/api\/docs$/);
  await expect(page).toHaveTitle("API reference · Galaxy Toolbox");

  // Swagger UI drew the document: its title, a section (tag) and an operation of each spec
  // (Swagger UI's ids are "operations-<tag>-<operationId>"). Its 1.4 MB bundle parses and draws
  // the whole document after the page's load event: on a loaded 2-core CI machine that passed 10 s.
  await expect(page.getByRole("heading", { name: /Galaxy Toolbox API/ })).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole("heading", { name: "Exchange rates" })).toBeVisible();
  const update = page.locator("#operations-Exchange_rates-postRatesUpdate");
  await expect(update.getByRole("link", { name: "/api/rates/update" })).toBeVisible();
  await expect(page.locator("#operations-Trading_planets-postPlanetSequences")).toBeVisible();
  // An operation opens with its request body, its example and the {error, message} answers.
  await update.locator(".opblock-summary-control").click();
  await expect(update).toHaveClass(/is-open/);
  await expect(update.getByText("Request body")).toBeVisible();
  await expect(update.getByText('"Gold Ring"').first()).toBeVisible();
  await expect(update.locator("tr.response[data-code='401']")).toBeVisible();

  // Everything came from this app (no CDN), and no policy blocked a script or style.
  const origin = new URL(page.url()).origin;
  expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:"))).toEqual([]);
  expect(problems).toEqual([]);

  // Back to the app.
  await page.getByRole("link", { name: "← Galaxy Toolbox settings" }).click();
  await expect(page.getByRole("heading", { name: "API tokens", exact: true })).toBeVisible();
});

test("the reference page needs an operator, like the rest of /api", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const res = await context.request.get(`${baseURL}/api/docs`);
  expect(res.status()).toBe(401);
  expect(await res.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
  await context.close();
});
