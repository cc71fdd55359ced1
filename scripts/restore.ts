/**
 * npm run restore -- <file> [--force]     fills the database from a backup (docs/decisions/0017)
 *
 * Refuses a database that holds data unless --force (then everything in it is replaced).
 * The passphrase comes from BACKUP_PASSPHRASE, else it is asked on the terminal, else read
 * from the first line of stdin. A wrong passphrase or a damaged file changes nothing.
 * Works on a fresh data directory (the embedded database is created) and beside a running app.
 *
 * Exit codes: 0 restored, 1 refused or failed (message on stderr), 2 wrong usage.
 */
import { closeDb, setEmbeddedMode } from "~/db/client.server";
import { restoreBackupFile } from "~/models/backup.server";
import { getEnv } from "~/utils/env.server";
import { readSecretLine } from "./cli-input";

const USAGE = `Usage: npm run restore -- <file> [--force]

Fills an empty database from a backup made with npm run backup. --force replaces
a database that already holds data. The passphrase: BACKUP_PASSPHRASE, else asked.`;

async function main() {
  setEmbeddedMode("direct");
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    process.exit(0);
  }
  const force = args.includes("--force");
  const rest = args.filter((a) => a !== "--force");
  const file = rest[0];
  if (!file || rest.length !== 1 || file.startsWith("-")) {
    console.error(`${file ? "Unexpected arguments" : "Missing <file>"}\n\n${USAGE}`);
    process.exit(2);
  }
  let code = 0;
  try {
    const passphrase = getEnv().BACKUP_PASSPHRASE ?? (await readSecretLine("Backup passphrase: "));
    if (!passphrase) throw new Error("No passphrase given: set BACKUP_PASSPHRASE or type it when asked");
    // The restore records itself on the audit trail, in its own transaction (backup.server.ts).
    const { header, tables } = await restoreBackupFile(file, passphrase, { force });
    const rows = Object.entries(tables)
      .filter(([t]) => t !== "audit_log")
      .reduce((a, [, n]) => a + n, 0);
    console.log(
      `Restored ${rows} rows in ${Object.keys(tables).length} tables from the backup of ${header.createdAt}. Operators log in with their own passwords.`,
    );
  } catch (err) {
    console.error(`Error: ${(err as Error).message}`);
    code = 1;
  }
  await closeDb().catch(() => {});
  process.exit(code);
}

void main();
