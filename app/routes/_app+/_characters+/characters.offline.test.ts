/**
 * All Characters while Redis is down (REDIS_URL points at a closed port): the page still
 * loads, and what needs the job engine answers its 503 text as the toast, nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "#api/accounts";
import { OFFLINE_MESSAGE } from "~/queue/queues.server";
import { freePort } from "#jobs/test-helpers";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { sessions, users } from "~/db/schema";
import { getSelectedCharacter } from "~/models/character-details.server";
import { upsertUser } from "~/models/user.server";
import { resetEnv } from "~/utils/env.server";
import { action, loader, type ActionResult } from "./characters";

const STALKER = "71234567";
const OTHER = "71234568";
let cookie: string;
let operatorId: string;
const savedRedis = process.env.REDIS_URL;

beforeAll(async () => {
  process.env.REDIS_URL = `redis://127.0.0.1:${await freePort()}`;
  resetEnv();
  const op = await createTestOperator({ name: "offlineops" });
  cookie = op.cookie;
  operatorId = op.id;
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(users);
  await upsertUser({ accountId: STALKER, nick: "watcher", password: "p".repeat(32), type: "stalker" });
  await upsertUser({ accountId: OTHER, nick: "other", password: "p".repeat(32), type: "stalker" });
  await db.insert(sessions).values({ purpose: "stalker", key: OTHER, accountId: OTHER, desired: "run", actual: "active" });
});
afterAll(() => {
  process.env.REDIS_URL = savedRedis;
  resetEnv();
});

const post = (fields: Record<string, string>) => callRoute<ActionResult>(action, makeRequest("/characters", { cookie, form: fields }));

describe("/characters with the job engine offline", () => {
  it("the page loads; the running stalker's user cannot be selected yet and that is no error", async () => {
    const res = await callRoute<{ selected: string | null; stalker: { accountId: string; state: string } }>(loader, makeRequest("/characters", { cookie }));
    expect(res.status).toBe(200);
    expect(res.data.selected).toBeNull();
    expect(res.data.stalker).toMatchObject({ accountId: OTHER, state: "active" });
  });

  it("start-stalker answers the 503 text as the toast and changes nothing", async () => {
    const res = await post({ intent: "start-stalker", accountId: STALKER, redirectTo: "/characters" });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatchObject({ type: "error", message: OFFLINE_MESSAGE });
    const rows = await (await getDb()).select().from(sessions);
    expect(rows.map((r) => r.key)).toEqual([OTHER]);
    expect(await getSelectedCharacter(operatorId)).toBeNull();
  });

  it("refresh answers 503 with the offline text", async () => {
    const res = await post({ intent: "refresh" });
    expect(res.status).toBe(503);
    expect(res.data).toEqual({
      ok: false,
      intent: "refresh",
      message: OFFLINE_MESSAGE,
      toast: expect.objectContaining({ type: "error", message: OFFLINE_MESSAGE }),
    });
  });

  it("stop-stalker still works (the holder polls the database)", async () => {
    const res = await post({ intent: "stop-stalker", accountId: OTHER });
    expect(res.data).toEqual({
      ok: true,
      intent: "stop-stalker",
      message: ACCOUNT_MESSAGES.stalkerStopped,
      toast: expect.objectContaining({ type: "success", message: ACCOUNT_MESSAGES.stalkerStopped }),
    });
    const [row] = await (await getDb()).select().from(sessions);
    expect(row).toMatchObject({ desired: "stop", actual: "stopped" });
  });
});
