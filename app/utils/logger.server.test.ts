/**
 * Structured logs (issue 31 item 4): with LOG_FORMAT=json every console line and every System
 * Logs entry is one JSON object a line (pino), with the request id, operator, purpose and
 * account where they apply, secrets redacted by the audit trail's rule; the default stays the
 * human console. Real Express server for the request id.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { logEvent } from "~/models/log.server";
import { resetEnv } from "./env.server";
import { addLogContext, installLogger, requestLogContext, uninstallLogger, withLogContext } from "./logger.server";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

afterEach(() => {
  uninstallLogger();
  delete process.env.LOG_FORMAT;
  resetEnv();
});

describe("LOG_FORMAT=json", () => {
  it("a console line is one JSON object with the session's purpose and account, and the request's id and operator", () => {
    process.env.LOG_FORMAT = "json";
    resetEnv();
    const { lines, stream } = capture();
    installLogger({ stream });
    withLogContext({ requestId: "req-1" }, () => {
      addLogContext({ operator: "alice" });
      withLogContext({ purpose: "stalker", accountId: "74000001" }, () => console.warn("[stalker] could not store session state:", new Error("boom")));
    });
    console.log("outside any scope");
    expect(lines).toEqual([
      {
        level: "warn",
        time: expect.any(String),
        pid: process.pid,
        requestId: "req-1",
        operator: "alice",
        purpose: "stalker",
        accountId: "74000001",
        error: { type: "Error", message: "boom", stack: expect.stringContaining("boom") },
        msg: "[stalker] could not store session state: Error: boom",
      },
      { level: "info", time: expect.any(String), pid: process.pid, msg: "outside any scope" },
    ]);
  });

  it("a System Logs entry is a line too, its secrets redacted by the audit trail's rule", async () => {
    process.env.LOG_FORMAT = "json";
    resetEnv();
    const { lines, stream } = capture();
    installLogger({ stream });
    await withLogContext({ purpose: "trader", accountId: "74000002" }, () =>
      logEvent({
        type: "error",
        source: "galaxyAuth",
        message: "Login failed: Invalid credentials",
        details: { accountId: "74000002", password: "hunter2", recoveryCode: "rc-1", nested: { token: "t" } },
      }),
    );
    expect(lines[0]).toMatchObject({
      level: "error",
      purpose: "trader",
      accountId: "74000002",
      msg: "Login failed: Invalid credentials",
      systemLog: { type: "error", source: "galaxyAuth" },
      details: { accountId: "74000002", password: "[redacted]", recoveryCode: "[redacted]", nested: { token: "[redacted]" } },
    });
    expect(JSON.stringify(lines)).not.toMatch(/hunter2|rc-1/);
  });

  it("every request gets an id (the caller's X-Request-Id when sane), answered back and on its lines", async () => {
    process.env.LOG_FORMAT = "json";
    resetEnv();
    const { lines, stream } = capture();
    installLogger({ stream });
    const app = express();
    app.use(requestLogContext());
    app.get("/x", (_req, res) => {
      setTimeout(() => {
        console.log("handled");
        res.send("ok");
      }, 5);
    });
    const server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    try {
      const given = await fetch(url, { headers: { "X-Request-Id": "abc-123" } });
      expect(given.headers.get("x-request-id")).toBe("abc-123");
      const made = await fetch(url, { headers: { "X-Request-Id": "bad id with spaces" } });
      expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
        ["handled", "abc-123"],
        ["handled", made.headers.get("x-request-id")],
      ]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("the default (LOG_FORMAT unset)", () => {
  it("stays the human console: nothing is replaced", () => {
    const before = console.warn;
    installLogger();
    expect(console.warn).toBe(before);
  });
});
