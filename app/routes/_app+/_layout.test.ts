import { beforeAll, describe, expect, it, vi } from "vitest";
import { callRoute, createTestOperator, makeRequest } from "#tests/kit";

/**
 * The shell's layout loader: operator required, section remembered (spec 2 "Main app
 * shell"), and a jobs badge that can never hold the page up. The job engine itself is
 * replaced here only to make it slow or broken on purpose.
 */
const status = vi.hoisted(() => ({ impl: async () => ({ redis: "up" as const, worker: "running" as const }) as unknown }));
vi.mock("~/queue/status.server", () => ({ jobEngineStatus: () => status.impl() }));

const { loader } = await import("./_layout");

type ShellData = { operator: { name: string; role: string; canWrite: boolean }; jobs: { redis: string; worker: string } };

let cookie: string;
beforeAll(async () => {
  cookie = (await createTestOperator({ name: "shelly", password: "correct horse" })).cookie;
});

const load = (path: string, extraCookie = "") => callRoute<ShellData>(loader, makeRequest(path, { cookie: [cookie, extraCookie] }));

describe("_app layout loader", () => {
  it("sends visitors without a session to the login", async () => {
    const res = await callRoute(loader, makeRequest("/gifts"));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?redirectTo=%2Fgifts");
  });

  it("gives the operator's name and the job engine state", async () => {
    const res = await load("/gifts");
    // The file's first operator is an admin (issue 21), who may change things.
    expect(res.data).toEqual({
      operator: { name: "shelly", role: "admin", canWrite: true },
      jobs: { redis: "up", worker: "running" },
      collectionsPanel: null,
      waiting: [],
      waitingText: null,
    });
  });

  it("tells screens a viewer may not write (useCanWrite, data-can-write)", async () => {
    const viewer = await createTestOperator({ name: "peeky", role: "viewer" });
    const res = await callRoute<ShellData>(loader, makeRequest("/gifts", { cookie: viewer.cookie }));
    expect(res.data.operator).toEqual({ name: "peeky", role: "viewer", canWrite: false });
  });

  it("remembers a visited section in gt_section, and only when it changes", async () => {
    const first = await load("/galacord");
    expect(first.headers.get("Set-Cookie")).toMatch(/^gt_section=galacord; Path=\/; Max-Age=31536000/);
    const again = await load("/galacord", "gt_section=galacord");
    expect(again.headers.get("Set-Cookie")).toBeNull();
    const logs = await load("/logs", "gt_section=galacord");
    expect(logs.headers.get("Set-Cookie")).toBeNull();
  });

  it("shows the jobs as offline when the status check fails", async () => {
    status.impl = async () => {
      throw new Error("ECONNREFUSED");
    };
    const res = await load("/gifts");
    expect(res.data.jobs).toEqual({ redis: "down", worker: "unknown" });
  });

  it("does not wait more than a moment for a hanging status check", async () => {
    status.impl = () => new Promise(() => {});
    const started = Date.now();
    const res = await load("/gifts");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.data.jobs).toEqual({ redis: "down", worker: "unknown" });
  });
});
