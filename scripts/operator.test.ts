import { spawn } from "node:child_process";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { nodeArgsFor } from "#tests/setup/test-bins";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { apiTokens, auditLog, operators } from "~/db/schema";
import { findOperatorByToken, TOKEN_CACHE_MS } from "~/models/api-token.server";
import { verifyOperatorPassword } from "~/models/operator.server";
import { operatorCli } from "./operator-cli";

/**
 * Issue "Foundation" item 3: "a CLI (`npm run operator -- create <name>`, password from
 * stdin or env) for scripted set-up." Against this test file's database. What the process
 * adds (exit code, stdout and stderr as written, the password piped on stdin) is checked on
 * the real program, spawned (the child inherits DATABASE_URL from the test setup); the
 * commands' rules run in this process through `operatorCli`, which scripts/operator.ts calls.
 */
const root = path.resolve(import.meta.dirname, "..");
type Result = { code: number | null; stdout: string; stderr: string };
type CliOpts = { env?: Record<string, string>; stdin?: string };

/** The program itself: `node scripts/operator.ts …` (the run's bundle of it, tests/setup/test-bins.ts). */
function spawned(args: string[], opts: CliOpts = {}) {
  return new Promise<Result>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor("scripts/operator.ts"), ...args], {
      cwd: root,
      env: { ...process.env, OPERATOR_PASSWORD: "", ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.stdin ?? "");
  });
}

/** The same command in this process: what it prints, line by line as console.log would. */
async function cli(args: string[], opts: CliOpts = {}): Promise<Result> {
  let stdout = "";
  let stderr = "";
  const code = await operatorCli(args, {
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
    env: { ...process.env, OPERATOR_PASSWORD: "", ...opts.env },
    input: Readable.from(opts.stdin ? [opts.stdin] : []),
  });
  return { code, stdout, stderr };
}

async function row(name: string) {
  const db = await getDb();
  const [r] = await db.select().from(operators).where(eq(operators.name, name));
  return r;
}

// Each spawn boots Node and the database (a few seconds on a busy machine).
describe("npm run operator", { timeout: 120_000 }, () => {
  it("create <name> takes the password from OPERATOR_PASSWORD and stores an argon2 hash", async () => {
    const res = await spawned(["create", "scripted"], { env: { OPERATOR_PASSWORD: "from the env 1" } });
    expect(res.stderr).toBe("");
    // The first operator is always an admin (issue 21).
    expect(res).toMatchObject({ code: 0, stdout: 'Created operator "scripted" (admin).\n' });
    const r = await row("scripted");
    expect(r?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyOperatorPassword("scripted", "from the env 1")).not.toBeNull();
  });

  it("create <name> reads the first line of stdin when the variable is not set", async () => {
    const res = await spawned(["create", "piped"], { stdin: "from stdin 123\nsecond line ignored\n" });
    expect(res.code).toBe(0);
    expect(await verifyOperatorPassword("piped", "from stdin 123")).not.toBeNull();
  });

  it("fails with a clear message and a non-zero exit code", async () => {
    const short = await spawned(["create", "shorty"], { env: { OPERATOR_PASSWORD: "1234567" } });
    expect(short.code).toBe(1);
    expect(short.stderr).toBe("Error: Password must be at least 8 characters\n");
    expect(await row("shorty")).toBeUndefined();

    const none = await cli(["create", "nopass"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("No password given");

    const dupe = await cli(["create", "scripted"], { env: { OPERATOR_PASSWORD: "another password" } });
    expect(dupe.code).toBe(1);
    expect(dupe.stderr).toContain('An operator named "scripted" already exists');

    const usage = await spawned(["frobnicate"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Unknown command "frobnicate"');
    expect(usage.stderr).toContain("Usage: npm run operator");
  });

  it("token <name> <tokenName> prints a working API token; list, set-password and delete work", async () => {
    const tok = await cli(["token", "scripted", "ci"]);
    expect(tok.code).toBe(0);
    const token = tok.stdout.trim();
    expect(token).toMatch(/^gtk_/);
    expect((await findOperatorByToken(token))?.name).toBe("scripted");

    const list = await cli(["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^piped\toperator\tcreated .*\nscripted\tadmin\tcreated /);

    const set = await cli(["set-password", "scripted"], { stdin: "a brand new one\n" });
    expect(set.code).toBe(0);
    expect(await verifyOperatorPassword("scripted", "a brand new one")).not.toBeNull();

    // The last admin stays while others remain; another admin first.
    const lastAdmin = await cli(["delete", "scripted"]);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toContain("last admin");
    const promote = await cli(["set-role", "piped", "admin"]);
    expect(promote).toMatchObject({ code: 0, stdout: '"piped" is now admin.\n' });

    const del = await cli(["delete", "scripted"]);
    expect(del.code).toBe(0);
    expect(await row("scripted")).toBeUndefined();
    // This process verified the token above and may remember it for TOKEN_CACHE_MS; another
    // process (the CLI as run) deleting it is seen once that window has passed.
    expect(await findOperatorByToken(token, new Date(Date.now() + TOKEN_CACHE_MS + 1))).toBeNull();
    const again = await cli(["delete", "scripted"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('Error: No operator named "scripted"\n');
  });

  it("create --role viewer, token --read-only, set-role: roles from the command line, on the audit trail", async () => {
    const res = await cli(["create", "watcher", "--role", "viewer"], { env: { OPERATOR_PASSWORD: "watching you 1" } });
    expect(res).toMatchObject({ code: 0, stdout: 'Created operator "watcher" (viewer).\n' });
    expect((await row("watcher"))?.role).toBe("viewer");
    const bad = await cli(["create", "x", "--role", "owner"], { env: { OPERATOR_PASSWORD: "watching you 1" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Role must be one of admin, operator, viewer");

    const tok = await cli(["token", "watcher", "dash", "--read-only"]);
    expect(tok.code).toBe(0);
    expect(tok.stderr).toContain("(read-only)");
    const db = await getDb();
    const [t] = await db.select().from(apiTokens).where(eq(apiTokens.name, "dash"));
    expect(t?.readOnly).toBe(true);

    expect((await cli(["set-role", "watcher", "operator"])).code).toBe(0);
    expect((await row("watcher"))?.role).toBe("operator");

    const trail = await db.select().from(auditLog).where(eq(auditLog.target, "watcher"));
    expect(trail.map((e) => [e.operator, e.action, e.details])).toEqual([
      ["(command line)", "operator.create", { role: "viewer" }],
      ["(command line)", "operator.role", { from: "viewer", to: "operator" }],
    ]);
  });
});
