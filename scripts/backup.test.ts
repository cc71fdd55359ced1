import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { verify } from "@node-rs/argon2";
import { nodeArgsFor } from "#tests/setup/test-bins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBackup } from "~/models/backup.server";
import { upsertRate } from "~/models/rate.server";
import { createTestOperator } from "#tests/kit";
import { plantCredentials } from "#tests/kit/credentials";

/**
 * Issue 21 item 3 from the command line: `npm run backup -- <file>` on PostgreSQL, then
 * `npm run restore -- <file>` into a fresh embedded database on "another machine" (another
 * data directory and APP_SECRET), refused a second time (not empty), refused with a wrong
 * passphrase; then a backup of that embedded database, whose contents prove the restore
 * re-encrypted the credentials with the new machine's key and kept the operators' passwords.
 * Real child processes (the children inherit this test file's DATABASE_URL unless told otherwise).
 */
const root = path.resolve(import.meta.dirname, "..");
const PASS = "a long backup passphrase";
let tmp: string;

function run(script: "backup" | "restore", args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(`scripts/${script}.ts`), ...args], {
      cwd: root,
      env: { ...process.env, BACKUP_PASSPHRASE: PASS, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end("");
  });
}

let planted: Record<string, string>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gt-backup-cli-"));
  const admin = await createTestOperator({ name: "chief", password: "chief password 1" });
  await createTestOperator({ name: "eyes", password: "eyes password 1", role: "viewer" });
  planted = await plantCredentials("CLIMARK", admin.id);
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2" });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("npm run backup / npm run restore", { timeout: 240_000 }, () => {
  it("round trip from PostgreSQL into a fresh embedded database on another machine", async () => {
    const file = path.join(tmp, "team.gtbackup");
    const made = await run("backup", [file]);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Backup written to .*team\.gtbackup: \d+ rows in \d+ tables\.\n$/);
    const text = fs.readFileSync(file, "utf8");
    for (const v of Object.values(planted)) expect(text).not.toContain(v);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // Another machine: no DATABASE_URL (the embedded database, created on the spot), its own data dir and key.
    const machine = { DATABASE_URL: "", DATA_DIR: path.join(tmp, "other-machine"), APP_SECRET: "the-other-machine-has-its-own-secret-0123456" };
    const restored = await run("restore", [file], machine);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^Restored \d+ rows in \d+ tables from the backup of .*\. Operators log in with their own passwords\.\n$/);

    const again = await run("restore", [file], machine);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error: The database is not empty \(.*\): restore replaces everything only with --force\. Nothing was changed\.\n$/);

    const wrong = await run("restore", [file, "--force"], { ...machine, BACKUP_PASSPHRASE: "not the right one" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe("Error: Wrong passphrase: this backup was encrypted with another one. Nothing was changed.\n");

    // A backup of the embedded database: the restored credentials open with the new machine's key.
    const second = path.join(tmp, "from-embedded.gtbackup");
    const fromEmbedded = await run("backup", [second], machine);
    expect(fromEmbedded.code).toBe(0);
    const { payload } = await openBackup(fs.readFileSync(second, "utf8"), PASS);
    const user = payload.tables.users!.rows[0]!;
    expect(user).toMatchObject({ account_id: "87654321", password: { $gtSecret: planted.userPassword }, sek: { $gtSecret: planted.userSek } });
    expect(payload.tables.collections_profiles!.rows[0]!.password).toEqual({ $gtSecret: planted.profilePassword });
    expect(payload.tables.exchange_rates!.rows).toHaveLength(1);
    const ops = payload.tables.operators!.rows as Array<{ name: string; role: string; password_hash: string }>;
    expect(ops.map((o) => [o.name, o.role]).sort()).toEqual([
      ["chief", "admin"],
      ["eyes", "viewer"],
    ]);
    expect(await verify(ops.find((o) => o.name === "chief")!.password_hash, "chief password 1")).toBe(true);
    // The restore is on the trail (the trail itself came with the backup, which predates its own entry).
    expect((payload.tables.audit_log!.rows as Array<{ action: string; operator: string }>).map((e) => [e.operator, e.action])).toContainEqual([
      "(command line)",
      "backup.restore",
    ]);
  });

  it("wrong usage: exit code 2", async () => {
    const res = await run("restore", []);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("Usage: npm run restore");
  });
});
