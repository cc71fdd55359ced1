import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { getDb } from "~/db/client.server";
import { sessions as sessionRows, users } from "~/db/schema";
import { listUsers } from "~/models/user.server";
import { DEMO_CHARACTERS, seedDemoCharacters } from "./demo-characters";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe("npm start -- --demo seeds characters (issue 9: the demo shows a stalker running)", () => {
  it("users of every default type from the simulator's accounts, passwords encrypted, the first stalker started; idempotent", async () => {
    await seedDemoCharacters(sim, { moveNpcsEveryMs: null });
    await seedDemoCharacters(sim, { moveNpcsEveryMs: null });
    const list = await listUsers();
    const total = DEMO_CHARACTERS.reduce((n, c) => n + c.count, 0);
    expect(list).toHaveLength(total);
    for (const { type, count } of DEMO_CHARACTERS) expect(list.filter((u) => u.type === type)).toHaveLength(count);
    const stalker = sim.world.accounts.find((a) => a.kind === "stalker")!;
    const [row] = await (await getDb()).select().from(users).where(eq(users.accountId, stalker.id));
    expect(row.password).not.toBe(stalker.password);
    expect(row.password).toMatch(/^v1:/);
    const sessions = await (await getDb()).select().from(sessionRows);
    expect(sessions).toMatchObject([{ purpose: "stalker", key: stalker.id, desired: "run", actual: "waiting" }]);
  });
});
