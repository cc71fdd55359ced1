import { beforeAll, describe, expect, it, vi } from "vitest";
import { createOperator, createSession } from "~/models/operator.server";
import { sessionCookie } from "~/utils/auth.server";

/**
 * The shell's layout loader: operator required, section remembered (spec 2 "Main app
 * shell"), and a jobs badge that can never hold the page up. The job engine itself is
 * replaced here only to make it slow or broken on purpose.
 */
const status = vi.hoisted(() => ({ impl: async () => ({ redis: "up" as const, worker: "running" as const }) as unknown }));
vi.mock("#jobs/status.server", () => ({ jobEngineStatus: () => status.impl() }));

const { loader } = await import("./_layout");

type DataResult<T = unknown> = { data: T; init: (ResponseInit & { headers?: Record<string, string> }) | null };
type ShellData = { operator: { name: string }; jobs: { redis: string; worker: string } };

let cookie: string;
beforeAll(async () => {
  const op = await createOperator("shelly", "correct horse");
  cookie = (await sessionCookie().serialize((await createSession(op.id)).id)).split(";")[0]!;
});

async function load(path: string, extraCookie = "") {
  const request = new Request(`http://localhost${path}`, { headers: { cookie: [cookie, extraCookie].filter(Boolean).join("; ") } });
  try {
    return (await loader({ request, params: {}, context: {} })) as unknown as DataResult<ShellData>;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("_app layout loader", () => {
  it("sends visitors without a session to the login", async () => {
    const request = new Request("http://localhost/gifts");
    const res = await loader({ request, params: {}, context: {} }).catch((r: Response) => r);
    expect((res as Response).status).toBe(302);
    expect((res as Response).headers.get("Location")).toBe("/login?redirectTo=%2Fgifts");
  });

  it("gives the operator's name and the job engine state", async () => {
    const res = (await load("/gifts")) as DataResult<ShellData>;
    expect(res.data).toEqual({ operator: { name: "shelly" }, jobs: { redis: "up", worker: "running" } });
  });

  it("remembers a visited section in gt_section, and only when it changes", async () => {
    const first = (await load("/galacord")) as DataResult<ShellData>;
    expect(first.init?.headers?.["Set-Cookie"]).toMatch(/^gt_section=galacord; Path=\/; Max-Age=31536000/);
    const again = (await load("/galacord", "gt_section=galacord")) as DataResult<ShellData>;
    expect(again.init?.headers?.["Set-Cookie"]).toBeUndefined();
    const logs = (await load("/logs", "gt_section=galacord")) as DataResult<ShellData>;
    expect(logs.init?.headers?.["Set-Cookie"]).toBeUndefined();
  });

  it("shows the jobs as offline when the status check fails", async () => {
    status.impl = async () => {
      throw new Error("ECONNREFUSED");
    };
    const res = (await load("/gifts")) as DataResult<ShellData>;
    expect(res.data.jobs).toEqual({ redis: "down", worker: "unknown" });
  });

  it("does not wait more than a moment for a hanging status check", async () => {
    status.impl = () => new Promise(() => {});
    const started = Date.now();
    const res = (await load("/gifts")) as DataResult<ShellData>;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.data.jobs).toEqual({ redis: "down", worker: "unknown" });
  });
});
