/**
 * The session layer's state (issue 18; docs/sessions.md): one shape for every purpose, one
 * account one holder (refused, or taken over with a note), a holder's writes never beating a
 * stop, waiting for a worker, commands, live events on every write, and the migration that
 * moved the old per-purpose rows into it. Real PostgreSQL and Redis (this file's prefix).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_TEXTS, type SessionView } from "#api/sessions";
import { closeLive, liveBusUp, onLive, publishLive, type LiveMessage } from "~/queue/live.server";
import { getQueue } from "~/queue/queues.server";
import { heartbeatKeys, producerConnection } from "~/queue/redis.server";
import { jobEngineDetails, resetJobEngineStatus } from "~/queue/status.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { getDb } from "~/db/client.server";
import { sessionCommands, sessions, users } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import {
  AccountHeldError,
  accountHolder,
  claimCommands,
  claimSession,
  endSession,
  finishCommand,
  getSession,
  releaseSession,
  reportSession,
  runSessionCommand,
  settledSession,
  startSession,
  stopSession,
  waitingSessions,
} from "./session.server";
import { upsertUser } from "./user.server";

const A = "71000001";
const B = "71000002";

beforeEach(async () => {
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(sessionCommands);
  await db.delete(users);
  for (const q of ["stalker", "trader", "collections", "relay"] as const) await getQueue(q).obliterate({ force: true });
});
afterAll(async () => {
  await closeLive();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function row(purpose: string, key: string) {
  const [r] = await (
    await getDb()
  )
    .select()
    .from(sessions)
    .where(and(eq(sessions.purpose, purpose as "stalker"), eq(sessions.key, key)));
  return r;
}

describe("one state per session", () => {
  it("a start: desired run, waiting for a worker, its job asked for; the host claims it (connecting), the runner reports (active), a stop wins over later reports", async () => {
    const { session, started } = await startSession("stalker", A);
    expect(started).toBe(true);
    expect(session).toMatchObject({ purpose: "stalker", key: A, accountId: A, desired: "run", actual: "waiting", holder: null, attempt: 0 });
    expect(await (await getQueue("stalker").getJob(`stalker-${A}`))?.getState()).toBe("waiting");
    expect(await waitingSessions()).toEqual([`stalker:${A}`]);

    expect(await claimSession("stalker", A, "w1")).toBe(true);
    expect(await row("stalker", A)).toMatchObject({ actual: "connecting", holder: "w1" });
    expect(
      await reportSession("stalker", A, "w1", { actual: "reconnecting", error: "Connection lost", attempt: 2, nextRetryAt: new Date(Date.now() + 4000) }),
    ).toBe(true);
    expect(await reportSession("stalker", A, "w1", { actual: "active", planet: "Orion", error: null })).toBe(true);
    expect(await row("stalker", A)).toMatchObject({ actual: "active", planet: "Orion", attempt: 0, nextRetryAt: null });
    // Another worker's stale write does not land on a session this one holds.
    expect(await reportSession("stalker", A, "w2", { actual: "connecting" })).toBe(false);

    const stopped = await stopSession("stalker", A);
    expect(stopped).toMatchObject({ desired: "stop", actual: "stopped" });
    expect(await reportSession("stalker", A, "w1", { actual: "active" })).toBe(false);
    await releaseSession("stalker", A, "w1", "stopped");
    expect(await row("stalker", A)).toMatchObject({ desired: "stop", actual: "stopped", holder: null, planet: null });
  });

  it("the runner ends it by itself: failed with the platform's words; a stop keeps the text; a new start clears it", async () => {
    await startSession("trader", A);
    await claimSession("trader", A, "w1");
    await endSession("trader", A, "w1", { actual: "failed", error: "Login failed: Invalid credentials" });
    expect(await getSession("trader", A)).toMatchObject({ desired: "stop", actual: "failed", error: "Login failed: Invalid credentials", holder: null });
    expect(await stopSession("trader", A)).toMatchObject({ actual: "failed", error: "Login failed: Invalid credentials" });
    expect((await startSession("trader", A)).session).toMatchObject({ desired: "run", actual: "waiting", error: null });
  });

  it("a shutdown hands it back: waiting for the next worker; settledSession answers what it knows after the wait", async () => {
    await startSession("collections", A);
    await claimSession("collections", A, "w1");
    await releaseSession("collections", A, "w1", "handed-back");
    expect(await row("collections", A)).toMatchObject({ desired: "run", actual: "waiting", holder: null });
    const t = Date.now();
    expect(await settledSession("collections", A, 300)).toMatchObject({ actual: "waiting" });
    expect(Date.now() - t).toBeGreaterThanOrEqual(250);
  });

  it("a session whose holder's heartbeat is gone counts as waiting for a worker", async () => {
    await startSession("stalker", A);
    await claimSession("stalker", A, "a-dead-worker");
    await reportSession("stalker", A, "a-dead-worker", { actual: "active" });
    expect(await waitingSessions()).toEqual([`stalker:${A}`]);
    expect(await getSession("stalker", A)).toMatchObject({ holder: "a-dead-worker", holderAlive: false });
  });

  it("a holder that started after the engine's cached worker list is alive, not waiting (the list is cached 2 s; the holder is checked fresh)", async () => {
    resetJobEngineStatus();
    await jobEngineDetails(); // cached now, without the worker below
    const redis = producerConnection();
    await redis.set(
      heartbeatKeys.worker("a-new-worker"),
      JSON.stringify({ id: "a-new-worker", pid: 1, host: "h", mode: "process", startedAt: new Date().toISOString(), at: Date.now() }),
      "PX",
      10_000,
    );
    await redis.sadd(heartbeatKeys.workers(), "a-new-worker");
    try {
      await startSession("stalker", A);
      await claimSession("stalker", A, "a-new-worker");
      await reportSession("stalker", A, "a-new-worker", { actual: "active" });
      expect(await waitingSessions()).toEqual([]);
      expect(await getSession("stalker", A)).toMatchObject({ holder: "a-new-worker", holderAlive: true });
    } finally {
      await redis.del(heartbeatKeys.worker("a-new-worker"));
      await redis.srem(heartbeatKeys.workers(), "a-new-worker");
    }
  });

  it("every write is published on the live bus with the session's view", async () => {
    const got: LiveMessage[] = [];
    const off = onLive((m) => got.push(m));
    await waitFor("the bus subscribed", () => liveBusUp(), 5_000, 20);
    await startSession("stalker", A);
    await claimSession("stalker", A, "w1");
    await reportSession("stalker", A, "w1", { actual: "active", planet: "Orion" });
    const views = await waitFor("three session events", () => {
      const v = got.filter((m) => m.topic === "session" && m.key === A).map((m) => m.data as SessionView);
      return v.length >= 3 ? v : false;
    });
    expect(views.map((v) => v.actual)).toEqual(["waiting", "connecting", "active"]);
    expect(views[2]).toMatchObject({ purpose: "stalker", key: A, planet: "Orion", holder: "w1" });
    off();
  });
});

describe("one Galaxy account, one holder", () => {
  it("a start on an account another purpose wants is refused with the holder named, and nothing changes", async () => {
    await upsertUser({ accountId: A, nick: "Watcher", password: "a".repeat(32), type: "stalker" });
    await startSession("relay-link", A, { hosted: false });
    const err = await startSession("stalker", A, { accountName: "Watcher (71000001)" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccountHeldError);
    expect((err as AccountHeldError).status).toBe(409);
    expect((err as AccountHeldError).message).toBe("Account Watcher (71000001) is in use by GalaCord. Take it over to use it here.");
    expect((err as AccountHeldError).holder).toMatchObject({ purpose: "relay-link", key: A });
    expect(await row("stalker", A)).toBeUndefined();
    expect(await getQueue("stalker").getJob(`stalker-${A}`)).toBeUndefined();
    expect(await accountHolder(A)).toMatchObject({ purpose: "relay-link" });
  });

  it("take over: the other session is stopped with the note (its screen says so), then this one starts", async () => {
    await startSession("collections", A);
    await claimSession("collections", A, "w1");
    await reportSession("collections", A, "w1", { actual: "active" });
    // Its holder lets go as soon as it is told (here: by hand, as the host does after QUIT).
    const letGo = (async () => {
      await waitFor("told to stop", async () => (await row("collections", A))?.desired === "stop", 5_000, 20);
      await releaseSession("collections", A, "w1", "stopped");
    })();
    const { session, tookOver } = await startSession("stalker", A, { takeover: true });
    await letGo;
    expect(tookOver).toMatchObject({ purpose: "collections", key: A });
    expect(session).toMatchObject({ purpose: "stalker", desired: "run", actual: "waiting" });
    expect(await getSession("collections", A)).toMatchObject({ desired: "stop", actual: "stopped", note: SESSION_TEXTS.takenOverBy("stalker"), holder: null });
    expect(await accountHolder(A)).toMatchObject({ purpose: "stalker" });
  });

  it("the database itself keeps one wanted session per account (the partial unique index)", async () => {
    const db = await getDb();
    await db.insert(sessions).values({ purpose: "stalker", key: A, accountId: A, desired: "run" });
    await expect(db.insert(sessions).values({ purpose: "collections", key: A, accountId: A, desired: "run" })).rejects.toThrow();
    // Stopped ones do not count; the GalaCord bot has no account.
    await db.insert(sessions).values({ purpose: "collections", key: A, accountId: A, desired: "stop" });
    await db.insert(sessions).values({ purpose: "relay", key: "bot", accountId: null, desired: "run" });
    expect((await db.select().from(sessions)).length).toBe(3);
  });
});

describe("commands reach whoever holds the session", () => {
  it("the holder claims the pending command once, runs it and the caller gets its result; a failure carries status and text", async () => {
    await startSession("collections", A);
    const holder = (async () => {
      for (let i = 0; i < 2; i++) {
        const cmds = await waitFor(
          "a command",
          async () => {
            const c = await claimCommands("collections", [A]);
            return c.length ? c : false;
          },
          5_000,
          20,
        );
        expect(await claimCommands("collections", [A])).toEqual([]);
        const cmd = cmds[0]!;
        if (cmd.arg === "Orion") await finishCommand(cmd.id, { ok: true, result: "Orion" });
        else await finishCommand(cmd.id, { ok: false, status: 409, message: "This Planet is full!" });
      }
    })();
    expect(await runSessionCommand("collections", A, "planet", "Orion", { timeoutText: "late" })).toBe("Orion");
    await expect(runSessionCommand("collections", A, "planet", "Tiny", { timeoutText: "late" })).rejects.toMatchObject({
      status: 409,
      message: "This Planet is full!",
    });
    await holder;
  });

  it("issue 30 C3: the caller reads the answer when the holder's live event comes, not on a timer", async () => {
    await startSession("collections", A);
    const off = onLive(() => {});
    await waitFor("the bus subscribed", () => liveBusUp(), 5_000, 20);
    off();
    let answered: unknown = "not yet";
    const call = runSessionCommand("collections", A, "planet", "Orion", { waitMs: 15_000, timeoutText: "late" }).then((r) => (answered = r));
    const [cmd] = await waitFor(
      "the command",
      async () => {
        const c = await claimCommands("collections", [A]);
        return c.length ? c : false;
      },
      5_000,
      20,
    );
    // The caller's own first look at the row (on registering, and when the bus says up) is
    // over before the answer lands: on a loaded machine it ran after the update below and read it.
    await new Promise((r) => setTimeout(r, 500));
    // The answer lands in the row behind the bus's back (no event): a caller that polled the
    // table would have it within 50 ms; this one waits for the word.
    await (await getDb()).update(sessionCommands).set({ status: "done", result: "Orion", doneAt: new Date() }).where(eq(sessionCommands.id, cmd!.id));
    await new Promise((r) => setTimeout(r, 400));
    expect(answered).toBe("not yet");
    publishLive("command", { key: String(cmd!.id) });
    await call;
    expect(answered).toBe("Orion");
  });

  it("nobody answers: 504 with the caller's text, and the command cannot run later", async () => {
    await expect(runSessionCommand("collections", B, "planet", "Orion", { waitMs: 300, timeoutText: "No answer in time" })).rejects.toMatchObject({
      status: 504,
      message: "No answer in time",
    });
    expect(await claimCommands("collections", [B])).toEqual([]);
  });
});

describe("migration 0012: every purpose's old rows move into sessions, one vocabulary", () => {
  it("started/connected/running → run (waiting), errors → failed with their text, one holder per account kept", async () => {
    const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
    const name = `gt_mig_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-mig-"));
    try {
      // The migrations as they were before issue 18 (0000-0010), then the rest.
      const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: { tag: string; idx: number }[] };
      const copy = (upTo: number) => {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(path.join(dir, "meta"), { recursive: true });
        const entries = journal.entries.filter((e) => e.idx <= upTo);
        fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
        for (const e of entries) fs.copyFileSync(path.join("drizzle", `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
      };
      const db = drizzle(client);
      copy(10);
      await migrate(db, { migrationsFolder: dir });
      await client.query(`insert into users (account_id, nick, password, type) values ('1','a','x','stalker'),('2','b','x','trading'),('3','c','x','stalker')`);
      await client.query(`insert into stalker_sessions (account_id, desired, state) values ('1','started','active'),('3','stopped','error')`);
      await client.query(`update stalker_sessions set error = 'Login failed: Invalid credentials' where account_id = '3'`);
      await client.query(
        `insert into trader_sessions (account_id, desired, state, counts) values ('2','started','on_planet','{"visits":3,"posts":1,"replies":0,"skipped":0,"failures":0,"rounds":0}')`,
      );
      await client.query(`insert into galacord_bot (id, desired, state) values (1,'running','running')`);
      await client.query(
        `insert into galacord_accounts (account_id, nick, planet, channel_id, channel_name, guild_name, recovery_code, desired, state) values ('1','a','Orion','9','relay','G','v1:x','connected','connected'),('5','e','Lyra','9','relay','G','v1:y','connected','error')`,
      );
      await client.query(`insert into collections_connections (account_id, desired, state) values ('6','connected','connected')`);
      copy(journal.entries.length);
      await migrate(db, { migrationsFolder: dir });
      const { rows } = await client.query(`select purpose, key, account_id, desired, actual, error, note from sessions order by purpose, key`);
      expect(rows).toEqual([
        { purpose: "collections", key: "6", account_id: "6", desired: "run", actual: "waiting", error: null, note: null },
        { purpose: "relay", key: "bot", account_id: null, desired: "run", actual: "waiting", error: null, note: null },
        // The stalker wanted account 1 first: GalaCord's relay of it is stopped with a note.
        {
          purpose: "relay-link",
          key: "1",
          account_id: "1",
          desired: "stop",
          actual: "stopped",
          error: null,
          note: "Stopped: another session uses this account",
        },
        { purpose: "relay-link", key: "5", account_id: "5", desired: "stop", actual: "failed", error: null, note: null },
        { purpose: "stalker", key: "1", account_id: "1", desired: "run", actual: "waiting", error: null, note: null },
        { purpose: "stalker", key: "3", account_id: "3", desired: "stop", actual: "failed", error: "Login failed: Invalid credentials", note: null },
        { purpose: "trader", key: "2", account_id: "2", desired: "run", actual: "waiting", error: null, note: null },
      ]);
      // What the purposes keep: the trader's counts, GalaCord's saved planet.
      expect((await client.query(`select counts from trader_sessions`)).rows[0].counts).toMatchObject({ visits: 3, posts: 1 });
      expect((await client.query(`select account_id, planet from galacord_accounts order by account_id`)).rows).toEqual([
        { account_id: "1", planet: "Orion" },
        { account_id: "5", planet: "Lyra" },
      ]);
    } finally {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
