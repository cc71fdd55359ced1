import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { simAccounts, toast, type SimAccount } from "./characters-fixtures";
import { addOperator, logInAs } from "./team-fixtures";

/**
 * Issue 31 item 1 without JavaScript: the Sessions page renders every session on the server,
 * its filters are a plain GET form, its pages links, and a bulk Stop is a plain post that
 * redirects back with the toast and an Undo form, which starts the session again.
 */

const row = (page: Page, accountId: string) => page.locator(`[data-session="stalker:${accountId}"]`);

async function stalker(request: APIRequestContext, index: number): Promise<SimAccount> {
  const acc = (await simAccounts("stalker"))[index]!;
  const res = await request.post("/api/create-creds", { data: { rc: acc.recoveryCode, type: "stalker", takeover: true } });
  expect(res.status(), await res.text()).toBe(200);
  const start = await request.post("/api/stalker/start", { data: { account_id: acc.id } });
  expect(start.status(), await start.text()).toBeLessThan(300);
  return acc;
}

test("filters by a GET form; Stop by a plain post with the toast and Undo", async ({ page, request }) => {
  const a = await stalker(request, 17);
  const b = await stalker(request, 18);

  await page.goto("/sessions");
  await expect(page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Workers" })).toContainText("Alive");

  await page.getByLabel("Purpose").selectOption("stalker");
  await page.getByLabel("Search").fill(b.nick);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect.poll(() => [new URL(page.url()).searchParams.get("purpose"), new URL(page.url()).searchParams.get("q")]).toEqual(["stalker", b.nick]);
  await expect(row(page, b.id)).toBeVisible();
  await expect(row(page, a.id)).toHaveCount(0);
  // The boxes' column has a header without JavaScript too (axe's td-has-header), not an empty cell.
  await expect(page.getByLabel("Sessions list").getByRole("columnheader").first()).toHaveText("Select");

  await row(page, b.id).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(toast(page, "Stopped 1 session")).toBeVisible();
  // Back on the list it was posted from, with the filters kept.
  await expect.poll(() => [new URL(page.url()).searchParams.get("purpose"), new URL(page.url()).searchParams.get("q")]).toEqual(["stalker", b.nick]);
  await expect(row(page, b.id)).toContainText("Stopped");
  await expect(page.getByText("Stopped 1 session.")).toBeVisible();

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, "Started 1 session")).toBeVisible();
  await expect(page.getByRole("button", { name: "Undo" })).toHaveCount(0);
  await expect.poll(async () => (await (await request.get(`/api/sessions?purpose=stalker&q=${b.id}`)).json()).sessions[0].desired).toBe("run");

  for (const acc of [a, b]) {
    await request.post("/api/stalker/stop", { data: { account_id: acc.id } });
    await request.delete(`/api/users/${acc.id}`);
  }
});

test("a viewer reads the list and the Workers panel with no write controls, even from a link that asks to confirm", async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const acc = await stalker(request, 19);
  const name = `sessions-viewer-${Date.now().toString(36)}`;
  const password = "viewer password 31";
  await addOperator(page, name, password, "viewer");
  const viewer = await logInAs(browser, baseURL!, name, password, false);
  await viewer.goto(`/sessions?confirm=stop&selected=stalker:${acc.id}&undo=stalker:${acc.id}`);
  await expect(row(viewer, acc.id)).toBeVisible();
  await expect(viewer.getByRole("region", { name: "Workers" })).toContainText("Alive");
  await expect(viewer.getByRole("checkbox")).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Stop", exact: true })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /^Drain/ })).toHaveCount(0);
  await expect(viewer.getByRole("alertdialog")).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Undo" })).toHaveCount(0);
  await viewer.context().close();
  await request.post("/api/stalker/stop", { data: { account_id: acc.id } });
  await request.delete(`/api/users/${acc.id}`);
});

test("issue 30 A6: a refused bulk action ('too many', 'not found') comes back with the same boxes ticked", async ({ page, request }) => {
  const acc = await stalker(request, 18);
  const list = `/sessions?purpose=stalker&q=${encodeURIComponent(acc.nick)}`;
  await page.goto(list);
  await expect(row(page, acc.id)).toBeVisible();
  const addBoxes = (values: string[]) =>
    page.getByRole("form", { name: "Sessions", exact: true }).evaluate((form, refs) => {
      for (const ref of refs) {
        const box = document.createElement("input");
        Object.assign(box, { type: "hidden", name: "s", value: ref });
        form.append(box);
      }
    }, values);

  // "Too many": one page holds 50 boxes, a post may carry 200 (BULK_MAX), so this post is made
  // up: 201 more sessions added to the form.
  await row(page, acc.id).getByRole("checkbox").check();
  await addBoxes(Array.from({ length: 201 }, (_, i) => `stalker:${990000 + i}`));
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(toast(page, "Select at most 200 sessions at a time")).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(acc.nick);
  await expect(row(page, acc.id).getByRole("checkbox")).toBeChecked();

  // "Not found": a selection the page no longer has (here, one it never had) refuses the whole post.
  await page.goto(list);
  await row(page, acc.id).getByRole("checkbox").check();
  await addBoxes(["gone:1"]);
  await page.getByRole("button", { name: "Restart", exact: true }).click();
  await expect(toast(page, "A selected session does not exist any more; reload the page")).toBeVisible();
  await expect(row(page, acc.id).getByRole("checkbox")).toBeChecked();
  await expect.poll(async () => (await (await request.get(`/api/sessions?purpose=stalker&q=${acc.id}`)).json()).sessions[0].desired).toBe("run");

  await request.post("/api/stalker/stop", { data: { account_id: acc.id } });
  await request.delete(`/api/users/${acc.id}`);
});
