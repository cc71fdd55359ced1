import { expect, test } from "./fixtures";
import { WORLD } from "./world";

/**
 * Issue "Foundation", item 6: the operators' queue board behind the login, the probe job
 * that checks the pipeline end to end (web → Redis → in-process worker → System Logs),
 * and GET /api/health. The e2e server uses the machine's Redis with its own QUEUE_PREFIX.
 */

test.describe("job engine", () => {
  test("GET /api/health reports database, Redis and a running worker", async ({ request }) => {
    const res = await request.get("/api/health");
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "ok",
      database: { ok: true, kind: WORLD.databaseUrl ? "postgres" : "pglite" },
      redis: { ok: true },
      worker: { state: "running" },
    });
    expect(Date.parse(body.worker.lastHeartbeat)).toBeGreaterThan(Date.now() - 60_000);
  });

  test("a probe triggered through the API completes and shows on the queue board and in System Logs", async ({ page, request }) => {
    const res = await request.post("/api/jobs/probe", { data: { ms: 200 } });
    expect(res.status()).toBe(202);
    const { jobId } = await res.json();
    expect(jobId).toMatch(/^probe-/);

    await page.goto("/admin/queues");
    const nav = page.getByRole("navigation").or(page.locator("aside"));
    for (const name of ["automation", "stalker", "trader", "relay", "collections", "status-refresh", "bulk-refresh", "system"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await nav.getByRole("link", { name: "system", exact: true }).click();
    await expect(page.getByText("Probe jobs, the daily logs clean-up and the daily backup")).toBeVisible();
    await page.getByRole("link", { name: /^completed/i }).click();
    await expect(page).toHaveURL(/status=completed/);
    await expect(page.getByRole("heading", { name: jobId })).toBeVisible();

    await page.goto("/logs?source=system");
    await expect(page.getByText(`Probe job ${jobId} completed`)).toBeVisible();
  });

  test.describe("logged out", () => {
    test.use({ storageState: { cookies: [], origins: [] } });

    test("the queue board is behind the login", async ({ page, request }) => {
      await page.goto("/admin/queues");
      await expect(page).toHaveURL(/\/login/);
      const api = await request.get("/admin/queues/api/queues", { maxRedirects: 0 });
      expect(api.status()).toBeGreaterThanOrEqual(300);
      expect(api.status()).toBeLessThan(400);
      expect(api.headers()["location"]).toMatch(/\/login/);
      const probe = await request.post("/api/jobs/probe", { data: {} });
      expect(probe.status()).toBe(401);
    });
  });
});
