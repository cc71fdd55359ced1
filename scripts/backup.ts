/**
 * npm run backup -- <file>     all the data in one encrypted file (docs/decisions/0017)
 *
 * The passphrase comes from BACKUP_PASSPHRASE, else it is asked on the terminal (twice), else
 * read from the first line of stdin. Works beside a running app: on the embedded database it
 * goes through the app's socket (docs/decisions/0011), on PostgreSQL through DATABASE_URL.
 *
 * Exit codes: 0 written, 1 failed (message on stderr), 2 wrong usage.
 */
import path from "node:path";
import { closeDb, setEmbeddedMode } from "~/db/client.server";
import { CLI_ACTOR, recordAudit } from "~/models/audit.server";
import { backupLabel, checkPassphrase, writeBackupFile } from "~/models/backup.server";
import { getEnv } from "~/utils/env.server";
import { readSecretLine } from "./cli-input";

const USAGE = `Usage: npm run backup -- <file>

Writes every table of the database into <file>, encrypted with a passphrase:
BACKUP_PASSPHRASE, else asked on the terminal (at least 8 characters).
Restore it with: npm run restore -- <file>`;

async function passphrase(): Promise<string> {
  const fromEnv = getEnv().BACKUP_PASSPHRASE;
  if (fromEnv) return fromEnv;
  const first = await readSecretLine("Backup passphrase: ");
  if (!first) throw new Error("No passphrase given: set BACKUP_PASSPHRASE or type it when asked");
  checkPassphrase(first);
  if (process.stdin.isTTY) {
    const again = await readSecretLine("Repeat the passphrase: ");
    if (again !== first) throw new Error("The passphrases do not match");
  }
  return first;
}

async function main() {
  setEmbeddedMode("direct");
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    process.exit(0);
  }
  const file = args.find((a) => !a.startsWith("-"));
  if (!file || args.length !== 1) {
    console.error(`${file ? "Unexpected arguments" : "Missing <file>"}\n\n${USAGE}`);
    process.exit(2);
  }
  let code = 0;
  try {
    const header = await writeBackupFile(file, await passphrase());
    const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
    await recordAudit(CLI_ACTOR, {
      action: "backup.create",
      target: backupLabel(header.createdAt, path.basename(file)),
      details: { rows, tables: Object.keys(header.tables).length },
    });
    console.log(`Backup written to ${path.resolve(file)}: ${rows} rows in ${Object.keys(header.tables).length} tables.`);
  } catch (err) {
    console.error(`Error: ${(err as Error).message}`);
    code = 1;
  }
  await closeDb().catch(() => {});
  process.exit(code);
}

void main();
