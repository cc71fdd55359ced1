/**
 * Issue 21 item 6, the standing secrets scan: marker values are planted in every credential
 * field (a character's password, recovery code and sek; a user-agent sek; a Collections
 * profile's password; a GalaCord account's recovery code and password), in an operator's
 * password, an API token, a session token and the Discord bot token; credentials are typed
 * into forms and API calls that fail (the platform is down) and into the login's name field.
 * Then none of them may appear in plain text in: any page's data (what the HTML is rendered
 * from), any /api answer, System Logs, the console, the queue board's data, any Redis key,
 * any database row, or a backup file.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { format } from "node:util";
import path from "node:path";
import express from "express";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { mountQueueBoard } from "#jobs/runtime.server";
import { createTestApiToken, createTestOperator, makeRequest, remixHandler, type TestOperator } from "#tests/kit";
import { plantCredentials } from "#tests/kit/credentials";
import { fullPath, routeTable } from "#tests/kit/remix";
import { getDb } from "~/db/client.server";
import { createBackup } from "~/models/backup.server";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { CLIENT_IP_HEADER } from "~/http/auth.server";

const MARK = `SECRETSCAN${Date.now().toString(36).toUpperCase()}`;
const ACCOUNT = "87654321";

let handle: (request: Request) => Promise<Response>;
let admin: TestOperator;
let apiToken: string;
const markers: Record<string, string> = {};
const consoleText: string[] = [];
const restore: Array<() => void> = [];

/** Where a marker was found, or [] (the caller prints it: the marker itself is no secret). */
function leaks(where: string, text: string): string[] {
  return Object.entries(markers)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => `${k} in ${where}`);
}

beforeAll(async () => {
  // The platform is down: calls that carry credentials fail (and are logged).
  process.env.GALAXY_SERVICES_URL = "http://127.0.0.1:9";
  process.env.GALAXY_WS_URL = "ws://127.0.0.1:9";
  process.env.DISCORD_TOKEN = `${MARK}discordbottoken`;
  resetEnv();
  resetGalaxyServices();
  for (const method of ["log", "info", "warn", "debug"] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      consoleText.push(format(...args));
      original.apply(console, args);
    };
    restore.push(() => (console[method] = original));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      consoleText.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = write));
  }
  console.info("[secrets-scan] capturing the console");

  handle = await remixHandler(() => true);
  admin = await createTestOperator({ name: "scanner", password: `${MARK}operatorpassword` });
  apiToken = await createTestApiToken(admin.id, "scan");
  Object.assign(markers, await plantCredentials(MARK, admin.id, ACCOUNT));
  markers.operatorPassword = `${MARK}operatorpassword`;
  markers.apiToken = apiToken;
  markers.sessionToken = admin.sessionToken;
  markers.discordToken = `${MARK}discordbottoken`;
  markers.typedRecoveryCode = `${MARK}RC`;
  markers.typedPassword = `${MARK}typedpassword`;
  markers.typedSek = `${MARK}typedsek`;
  markers.typedIntoName = `${MARK}typedintoname`;

  // Credentials travel through the routes that take them.
  const calls: Array<[string, Parameters<typeof makeRequest>[1]]> = [
    ["/api/user-agent", { json: { [ACCOUNT]: { headers: JSON.stringify({ "X-Galaxy-Platform": "android" }), sek: markers.typedSek } } }],
    ["/api/create-creds", { json: { rc: markers.typedRecoveryCode, type: "bowling" } }],
    ["/api/clay/gifts/inventory", { json: { userID: ACCOUNT, password: markers.typedPassword } }],
    ["/api/clay/mastic/run", { json: { userID: ACCOUNT, collectionId: 178, numberOfRequests: 1 } }],
    ["/api/user-details/user-pics", { json: { userID: ACCOUNT, password: markers.typedPassword, userIds: [ACCOUNT] } }],
    ["/api/stalker/start", { json: { account_id: ACCOUNT } }],
    ["/api/bot/connect-new", { json: { channelId: "100000000000000001", recoveryCode: markers.typedRecoveryCode } }],
  ];
  for (const [url, opts] of calls) await (await handle(makeRequest(url, { token: apiToken, ...opts }))).arrayBuffer();
  await (
    await handle(makeRequest("/characters.data", { cookie: admin.cookie, form: { intent: "create-user", rc: markers.typedRecoveryCode, type: "bowling" } }))
  ).arrayBuffer();
  await (
    await handle(
      makeRequest("/collections.data", {
        cookie: admin.cookie,
        form: { intent: "login", rc: markers.typedRecoveryCode },
        headers: { [CLIENT_IP_HEADER]: "192.0.2.9" },
      }),
    )
  ).arrayBuffer();
  await (
    await handle(
      makeRequest("/login", { form: { name: markers.typedIntoName, password: markers.typedPassword }, headers: { [CLIENT_IP_HEADER]: "192.0.2.9" } }),
    )
  ).arrayBuffer();
});

afterAll(() => {
  for (const r of restore) r();
  for (const k of ["GALAXY_SERVICES_URL", "GALAXY_WS_URL", "DISCORD_TOKEN"]) delete process.env[k];
  resetEnv();
  resetGalaxyServices();
});

describe("no secret in plain text anywhere", () => {
  it("plants a marker in every credential field (the database holds them encrypted)", () => {
    expect(Object.keys(markers)).toEqual(
      expect.arrayContaining(["userPassword", "userRecoveryCode", "userSek", "agentSek", "profilePassword", "galacordRecoveryCode", "galacordPassword"]),
    );
  });

  it("every page's data and every /api answer", { timeout: 120_000 }, async () => {
    const table = routeTable();
    const found: string[] = [];
    for (const r of table) {
      const mod = (await import(/* @vite-ignore */ path.resolve("app", r.file))) as { loader?: unknown };
      if (!mod.loader) continue;
      const p = fullPath(r, table);
      if (p === "/api/events") continue; // a stream: never ends by itself
      const url = (p.replace(/:[A-Za-z]+/g, ACCOUNT).replace(/\*/g, "x") || "/") + (p.startsWith("/api") ? "" : ".data");
      const res = await handle(makeRequest(url === "/.data" ? "/_root.data" : url, { cookie: admin.cookie }));
      found.push(...leaks(`GET ${url}`, await res.text()));
    }
    expect(found).toEqual([]);
  });

  it("System Logs, the audit trail and every other database row", async () => {
    const db = await getDb();
    const tables = (await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by 1`)) as unknown as {
      rows: { tablename: string }[];
    };
    const found: string[] = [];
    let rows = 0;
    for (const { tablename } of tables.rows) {
      const res = (await db.execute(sql.raw(`select row_to_json(t)::text as j from "${tablename}" t`))) as unknown as { rows: { j: string }[] };
      rows += res.rows.length;
      for (const row of res.rows) found.push(...leaks(`table ${tablename}`, row.j));
    }
    expect(found).toEqual([]);
    expect(rows).toBeGreaterThan(10);
    // The calls above were really made, logged and audited (the scan looked at something).
    const logs = (await db.execute(sql`select count(*)::int as n from logs`)) as unknown as { rows: { n: number }[] };
    expect(logs.rows[0]!.n).toBeGreaterThan(0);
  });

  it("every Redis key of the job engine, and the queue board's data", async () => {
    const { REDIS_URL, QUEUE_PREFIX } = getEnv();
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const found: string[] = [];
    let keys = 0;
    try {
      let cursor = "0";
      do {
        const [next, batch] = await redis.scan(cursor, "MATCH", `${QUEUE_PREFIX}*`, "COUNT", "500");
        cursor = next;
        for (const key of batch) {
          keys++;
          const type = await redis.type(key);
          const value =
            type === "string"
              ? await redis.get(key)
              : type === "hash"
                ? JSON.stringify(await redis.hgetall(key))
                : type === "list"
                  ? JSON.stringify(await redis.lrange(key, 0, -1))
                  : type === "set"
                    ? JSON.stringify(await redis.smembers(key))
                    : type === "zset"
                      ? JSON.stringify(await redis.zrange(key, "0", "-1"))
                      : type === "stream"
                        ? JSON.stringify(await redis.xrange(key, "-", "+"))
                        : "";
          found.push(...leaks(`redis ${type} ${key}`, `${key} ${value}`));
        }
      } while (cursor !== "0");
    } finally {
      redis.disconnect();
    }
    expect(keys).toBeGreaterThan(0); // the stalker start queued a job

    const app = express();
    await mountQueueBoard(app, "/admin/queues");
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/queues/api`;
      for (const status of ["latest", "active", "waiting", "delayed", "completed", "failed"]) {
        const res = await fetch(`${base}/queues?activeQueue=stalker&status=${status}&page=1`);
        found.push(...leaks(`queue board (${status})`, await res.text()));
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(found).toEqual([]);
  });

  it("a backup file", async () => {
    const { text } = await createBackup("scan passphrase 123");
    expect(leaks("the backup file", text)).toEqual([]);
  });

  it("the console (stdout and stderr of this process)", () => {
    expect(consoleText.join("\n")).toContain("[secrets-scan] capturing the console");
    expect(leaks("the console", consoleText.join("\n"))).toEqual([]);
  });
});
