import { z } from "zod";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { getDb, type Db } from "~/db/client.server";
import { AppError } from "~/utils/app-error";
import { dataPath, getEnv } from "~/utils/env.server";
import { decryptSecret, encryptSecret, isEncryptedSecret } from "~/utils/secrets.server";
import { auditLog } from "~/db/schema";
import { clearTokenCache } from "./api-token.server";
import { auditRow, CLI_ACTOR, type AuditActor } from "./audit.server";
import { resetOperatorExistsCache } from "./operator.server";

/**
 * Backup and restore of all the data (issue 21; docs/decisions/0017).
 *
 * One file, JSON: a clear header (format, version, when, the schema level, the key
 * derivation's parameters) and one payload encrypted with AES-256-GCM under a key derived
 * from a passphrase with scrypt. Inside the payload every table's rows (as PostgreSQL's
 * row_to_json writes them), and the credentials — stored in the database encrypted with this
 * machine's secret key — decrypted and marked, so the file restores on any machine, which
 * re-encrypts them with its own key. Nothing in the file is readable without the passphrase.
 *
 * Restore runs in one transaction: a wrong passphrase, a damaged file or any failure while
 * writing changes nothing. A refusal meant for the person at the keyboard (the CLI's stderr,
 * the /api answer) is an AppError (docs/decisions/0023): 400 the passphrase or the file,
 * 409 a database that is not empty. Operator sessions are neither saved nor kept: after a restore
 * everyone logs in again, with their own password.
 */

export const BACKUP_FORMAT = "galaxy-toolbox-backup";
/**
 * 2: the header's row counts are part of GCM's additional data (decision 0017, issue 28).
 * 1: format, version, time and schema only; still restored (its counts checked against the payload).
 */
export const BACKUP_VERSION = 2;
const READABLE_VERSIONS = new Set([1, 2]);
export const BACKUP_EXTENSION = ".gtbackup";
export const MIN_PASSPHRASE_LENGTH = 8;

/** Sessions are per machine and per login: never in a backup (everyone logs in again after a restore). */
const NOT_SAVED = new Set(["operator_sessions"]);
/** Tables the app writes by itself on a fresh database (a start logs a line): they do not make it "not empty". */
const IGNORED_FOR_EMPTY = new Set(["logs", "audit_log", "job_steps", "operator_sessions"]);
/** Rows the migrations seed (drizzle/0003_accounts.sql): a fresh database has them and is still empty. */
const SEEDED: Record<string, string> = {
  categories: `where value not in ('stalker', 'trading', 'bowling', 'recipients', 'suppliers')`,
};

/** The marker a decrypted credential carries inside the payload. */
const SECRET_MARK = "$gtSecret";

export const BACKUP_ERRORS = {
  wrongPassphrase: "Wrong passphrase: this backup was encrypted with another one. Nothing was changed.",
  damaged: "The backup file is damaged (its contents do not match their checksum). Nothing was changed.",
  notABackup: "This is not a Galaxy Toolbox backup file, or its header is damaged. Nothing was changed.",
  newerVersion: "This backup was made by a newer version of Galaxy Toolbox: update this installation first. Nothing was changed.",
  notEmpty: (tables: string[]) =>
    `The database is not empty (${tables.slice(0, 5).join(", ")}${tables.length > 5 ? ", …" : ""} hold data): restore replaces everything only with --force. Nothing was changed.`,
  shortPassphrase: `The passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`,
} as const;

type KdfParams = { name: "scrypt"; N: number; r: number; p: number; salt: string };

export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The schema the rows fit: migrations applied, and the newest one's timestamp. */
  schema: { migrations: number; latest: number };
  /** Row counts per table (no content): what a restore will bring. */
  tables: Record<string, number>;
  kdf: KdfParams;
  cipher: "aes-256-gcm";
  iv: string;
  /** HMAC of a fixed text under a second derived key: tells a wrong passphrase from a damaged file. */
  check: string;
};

type BackupFile = BackupHeader & { payload: string };
type Payload = { tables: Record<string, { columns: string[]; rows: Record<string, unknown>[] }> };

// 64 MiB of memory and ~0.2 s per derivation: costly to guess, cheap for one backup.
const SCRYPT = { N: 2 ** 16, r: 8, p: 1 };
const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

async function deriveKeys(passphrase: string, kdf: KdfParams): Promise<{ key: Buffer; checkKey: Buffer }> {
  if (kdf.name !== "scrypt" || ![kdf.N, kdf.r, kdf.p].every((n) => Number.isInteger(n) && n > 0) || kdf.N > 2 ** 20 || kdf.r > 32 || kdf.p > 16) {
    throw new AppError(400, BACKUP_ERRORS.notABackup);
  }
  const out = await scrypt(passphrase.normalize("NFC"), Buffer.from(kdf.salt, "base64"), 64, {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    maxmem: 256 * kdf.N * kdf.r + 16 * 1024 * 1024,
  });
  return { key: out.subarray(0, 32), checkKey: out.subarray(32) };
}

const checkOf = (checkKey: Buffer) => crypto.createHmac("sha256", checkKey).update("galaxy-toolbox backup passphrase check").digest("base64");
/**
 * What the AES-GCM tag covers besides the payload: the clear header a reader acts on. Version 1
 * left the row counts out (a changed count went unnoticed); from version 2 they are in, in
 * the header's own order, so any change to the header is refused as a damaged file.
 */
const aadOf = (h: Pick<BackupHeader, "format" | "version" | "createdAt" | "schema" | "tables">) =>
  Buffer.from(JSON.stringify(h.version === 1 ? [h.format, h.version, h.createdAt, h.schema] : [h.format, h.version, h.createdAt, h.schema, h.tables]));

export function checkPassphrase(passphrase: string) {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) throw new AppError(400, BACKUP_ERRORS.shortPassphrase);
}

// ---------------------------------------------------------------------------------------- reading the database

type Executor = Pick<Db, "execute">;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Tables the database derives from others by triggers (migration 0020): never backed up,
 * truncated or restored. Their triggers follow the restore's own truncates and inserts, so
 * `fleet_state` counts the restored users and its version only ever grows (a version taken
 * back from a backup could match a fingerprint some process remembered a value under).
 */
const DERIVED = new Set(["fleet_state"]);

/** The app's tables (schema public), parents before children (foreign keys), then by name. */
async function tablesInOrder(db: Executor): Promise<string[]> {
  const names = rowsOf<{ name: string }>(await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`))
    .map((r) => r.name)
    .filter((name) => !DERIVED.has(name));
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select c.relname as child, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public'`),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, seen: Set<string>) => {
    if (placed.has(name) || seen.has(name)) return;
    seen.add(name);
    for (const e of edges) if (e.child === name && e.parent !== name) visit(e.parent, seen);
    placed.add(name);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

async function columnsOf(db: Executor, table: string): Promise<Array<{ name: string; serial: boolean }>> {
  return rowsOf<{ name: string; def: string | null; identity: string }>(
    await db.execute(
      sql`select column_name as name, column_default as def, is_identity as identity from information_schema.columns where table_schema = 'public' and table_name = ${table} order by ordinal_position`,
    ),
  ).map((c) => ({ name: c.name, serial: !!c.def?.startsWith("nextval(") || c.identity === "YES" }));
}

async function schemaLevel(db: Executor): Promise<{ migrations: number; latest: number }> {
  const [row] = rowsOf<{ n: string | number; latest: string | number | null }>(
    await db.execute(sql`select count(*) as n, max(created_at) as latest from drizzle.__drizzle_migrations`),
  );
  return { migrations: Number(row?.n ?? 0), latest: Number(row?.latest ?? 0) };
}

/** A credential stored with this machine's key, decrypted and marked; anything else as is. */
function openSecret(value: unknown): unknown {
  if (typeof value !== "string" || !isEncryptedSecret(value)) return value;
  try {
    return { [SECRET_MARK]: decryptSecret(value) };
  } catch {
    // Looks like one but is not ours to open (another key): kept as it is.
    return value;
  }
}

function sealSecret(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === SECRET_MARK) {
      const plain = (value as Record<string, unknown>)[SECRET_MARK];
      if (typeof plain === "string") return encryptSecret(plain);
    }
  }
  return value;
}

/** Every table's rows, credentials opened (in memory only: the caller encrypts the result). */
async function readAll(db: Executor): Promise<{ payload: Payload; counts: Record<string, number> }> {
  const payload: Payload = { tables: {} };
  const counts: Record<string, number> = {};
  for (const table of await tablesInOrder(db)) {
    if (NOT_SAVED.has(table)) continue;
    const columns = (await columnsOf(db, table)).map((c) => c.name);
    const rows = rowsOf<{ j: string }>(await db.execute(sql.raw(`select row_to_json(t)::text as j from ${ident(table)} t`))).map((r) => {
      const row = JSON.parse(r.j) as Record<string, unknown>;
      for (const k of Object.keys(row)) row[k] = openSecret(row[k]);
      return row;
    });
    payload.tables[table] = { columns, rows };
    counts[table] = rows.length;
  }
  return { payload, counts };
}

// ---------------------------------------------------------------------------------------- backup

/** The whole database as one encrypted backup file's text. */
export async function createBackup(passphrase: string, now = new Date()): Promise<{ text: string; header: BackupHeader }> {
  checkPassphrase(passphrase);
  const db = await getDb();
  // One consistent view of every table (a backup beside a running app).
  const { payload, counts, schema } = await db.transaction(
    async (tx) => {
      const read = await readAll(tx);
      return { ...read, schema: await schemaLevel(tx) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const kdf: KdfParams = { name: "scrypt", ...SCRYPT, salt: crypto.randomBytes(16).toString("base64") };
  const { key, checkKey } = await deriveKeys(passphrase, kdf);
  const iv = crypto.randomBytes(12);
  const head = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: now.toISOString(), schema, tables: counts } as const;
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 });
  cipher.setAAD(aadOf(head));
  const plain = await gzip(Buffer.from(JSON.stringify(payload), "utf8"));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  const header: BackupHeader = { ...head, kdf, cipher: "aes-256-gcm", iv: iv.toString("base64"), check: checkOf(checkKey) };
  const file: BackupFile = { ...header, payload: sealed.toString("base64") };
  return { text: JSON.stringify(file), header };
}

/** Writes a backup to `file` (mode 0600, via a temporary file so a crash never leaves half a backup). */
export async function writeBackupFile(file: string, passphrase: string): Promise<BackupHeader> {
  const { text, header } = await createBackup(passphrase);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, target);
  return header;
}

// ---------------------------------------------------------------------------------------- restore

function parseHeader(text: string): BackupFile {
  let file: BackupFile;
  try {
    file = JSON.parse(text) as BackupFile;
  } catch {
    throw new AppError(400, BACKUP_ERRORS.notABackup);
  }
  if (!file || typeof file !== "object" || file.format !== BACKUP_FORMAT) throw new AppError(400, BACKUP_ERRORS.notABackup);
  if (!READABLE_VERSIONS.has(file.version)) throw new AppError(400, BACKUP_ERRORS.newerVersion);
  const ok =
    typeof file.createdAt === "string" &&
    typeof file.iv === "string" &&
    typeof file.check === "string" &&
    typeof file.payload === "string" &&
    file.cipher === "aes-256-gcm" &&
    file.kdf &&
    typeof file.kdf.salt === "string" &&
    file.schema &&
    Number.isFinite(file.schema.migrations) &&
    Number.isFinite(file.schema.latest) &&
    !!file.tables &&
    typeof file.tables === "object" &&
    Object.values(file.tables).every((n) => Number.isInteger(n) && n >= 0);
  if (!ok) throw new AppError(400, BACKUP_ERRORS.notABackup);
  return file;
}

/** Opens a backup's text: its header and payload, or an AppError 400 (wrong passphrase, damaged, not a backup). */
export async function openBackup(text: string, passphrase: string): Promise<{ header: BackupHeader; payload: Payload }> {
  const file = parseHeader(text);
  const { key, checkKey } = await deriveKeys(passphrase, file.kdf);
  const expected = Buffer.from(checkOf(checkKey));
  const given = Buffer.from(file.check);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw new AppError(400, BACKUP_ERRORS.wrongPassphrase);
  let payload: Payload;
  try {
    const sealed = Buffer.from(file.payload, "base64");
    if (sealed.length < 17) throw new Error("too short");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(file.iv, "base64"), { authTagLength: 16 });
    decipher.setAAD(aadOf(file));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
    payload = JSON.parse((await gunzip(plain)).toString("utf8")) as Payload;
    if (!payload || typeof payload.tables !== "object") throw new Error("no tables");
    // The counts a reader is shown are the rows it gets: authenticated from version 2, and
    // checked against the payload for every version (a version 1 header is not authenticated).
    const names = new Set([...Object.keys(file.tables), ...Object.keys(payload.tables)]);
    for (const name of names) if ((file.tables[name] ?? -1) !== (payload.tables[name]?.rows.length ?? -1)) throw new Error(`count of ${name}`);
  } catch {
    throw new AppError(400, BACKUP_ERRORS.damaged);
  }
  const { payload: _sealed, ...header } = file;
  return { header, payload };
}

/** Tables holding data that a restore would replace (the app's own start-up lines aside). */
export async function nonEmptyTables(db?: Executor): Promise<string[]> {
  const exec = db ?? (await getDb());
  const out: string[] = [];
  for (const table of await tablesInOrder(exec)) {
    if (IGNORED_FOR_EMPTY.has(table)) continue;
    const [row] = rowsOf<{ any: boolean }>(await exec.execute(sql.raw(`select exists (select 1 from ${ident(table)} ${SEEDED[table] ?? ""}) as any`)));
    if (row?.any) out.push(table);
  }
  return out;
}

export type RestoreResult = { header: BackupHeader; tables: Record<string, number>; audit: { kept: number; added: number } };

export type RestoreOptions = {
  force?: boolean;
  /** Who restores (the restore's own audit entry): the command line unless told. */
  actor?: AuditActor;
  /** What was restored, for that entry: the file's name. */
  source?: string;
};

/** The audit trail is append-only (issue 28; docs/decisions/0025): a restore adds to it, never replaces it. */
const APPEND_ONLY = "audit_log";

const INSERT_CHUNK = 500;

/**
 * Fills the database from a backup's text, in one transaction. Refuses (an AppError, nothing
 * changed) a wrong passphrase, a damaged file, a backup of a newer schema, and a database
 * that holds data unless `force` (then everything in it is replaced).
 */
export async function restoreBackup(text: string, passphrase: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const { header, payload } = await openBackup(text, passphrase);
  const db = await getDb();
  const here = await schemaLevel(db);
  if (header.schema.latest > here.latest) throw new AppError(400, BACKUP_ERRORS.newerVersion);
  const restored: Record<string, number> = {};
  const audit = { kept: 0, added: 0 };
  await db.transaction(async (tx) => {
    const busy = await nonEmptyTables(tx);
    if (busy.length && !opts.force) throw new AppError(409, BACKUP_ERRORS.notEmpty(busy));
    const tables = await tablesInOrder(tx);
    // Everything goes, the app's own log lines and the sessions too: the backup's state is the
    // state. Except the audit trail: what happened since the backup (and what the restore undoes)
    // stays on it; the backup's entries this database does not hold are added (restoreAuditTrail).
    await tx.execute(
      sql.raw(
        `truncate ${tables
          .filter((t) => t !== APPEND_ONLY)
          .map(ident)
          .join(", ")} restart identity cascade`,
      ),
    );
    for (const table of tables) {
      const saved = payload.tables[table];
      if (table === APPEND_ONLY) {
        Object.assign(audit, await restoreAuditTrail(tx, saved?.rows ?? []));
        restored[table] = audit.added;
        continue;
      }
      if (!saved || !saved.rows.length) continue;
      const columns = await columnsOf(tx, table);
      // Columns added since the backup was made take their defaults; identity columns keep the
      // backup's values (OVERRIDING SYSTEM VALUE below), their sequences follow after.
      const shared = columns.filter((c) => saved.columns.includes(c.name)).map((c) => ident(c.name));
      for (let i = 0; i < saved.rows.length; i += INSERT_CHUNK) {
        const chunk = saved.rows.slice(i, i + INSERT_CHUNK).map((row) => {
          const out: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(row)) out[k] = sealSecret(v);
          return out;
        });
        await tx.execute(
          sql`${sql.raw(`insert into ${ident(table)} (${shared.join(", ")}) overriding system value select ${shared.join(", ")} from json_populate_recordset(null::${ident(table)}, `)}${JSON.stringify(chunk)}${sql.raw("::json)")}`,
        );
      }
      for (const c of columns.filter((c) => c.serial)) {
        await tx.execute(
          sql.raw(
            `select setval(pg_get_serial_sequence('${ident(table).replace(/'/g, "''")}', '${c.name.replace(/'/g, "''")}'), coalesce(max(${ident(c.name)}), 0) + 1, false) from ${ident(table)}`,
          ),
        );
      }
      restored[table] = saved.rows.length;
    }
    // A backup made before roles existed has no admin: the first operator is (docs/decisions/0016).
    await tx.execute(sql`
      update operators set role = 'admin'
      where not exists (select 1 from operators where role = 'admin')
        and id = (select id from operators order by created_at, id limit 1)`);
    // The restore's own entry, in the same transaction: on the trail exactly when the restore happened.
    const rows = Object.entries(restored)
      .filter(([t]) => t !== APPEND_ONLY)
      .reduce((a, [, n]) => a + n, 0);
    await tx.insert(auditLog).values(
      auditRow(opts.actor ?? CLI_ACTOR, {
        action: "backup.restore",
        target: backupLabel(header.createdAt, opts.source),
        details: {
          backupMadeAt: header.createdAt,
          version: header.version,
          rows,
          tables: Object.keys(restored).length,
          force: !!opts.force,
          auditEntriesKept: audit.kept,
          auditEntriesAdded: audit.added,
        },
      }),
    );
  });
  // This process's caches of operators and tokens describe the old data.
  resetOperatorExistsCache();
  clearTokenCache();
  return { header, tables: restored, audit };
}

/** "backup of 2026-11-20 12:00 UTC (team.gtbackup)": how the trail names a backup (made, downloaded, restored). */
export function backupLabel(createdAt: string, source?: string): string {
  const at = Number.isNaN(Date.parse(createdAt)) ? createdAt : `${new Date(createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `backup of ${at}${source ? ` (${source})` : ""}`;
}

/**
 * The backup's audit entries merged into the trail this database holds: every entry here stays
 * as it is (those written after the backup was taken, and any the backup never had); an entry
 * of the backup is added unless the same entry (time, operator, action and target) is here
 * already (ids differ between databases, and an entry added by an earlier restore took a new one). Added
 * entries take new ids: the trail is ordered by (at, id), so they sit at their own time.
 */
async function restoreAuditTrail(tx: Executor, rows: Record<string, unknown>[]): Promise<{ kept: number; added: number }> {
  const [here] = rowsOf<{ n: string | number }>(await tx.execute(sql`select count(*) as n from audit_log`));
  let added = 0;
  const columns = (await columnsOf(tx, APPEND_ONLY)).map((c) => c.name).filter((c) => c !== "id");
  const list = columns.map(ident).join(", ");
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + INSERT_CHUNK));
    const result = await tx.execute(sql`
      ${sql.raw(`insert into audit_log (${list}) select ${columns.map((c) => `r.${ident(c)}`).join(", ")} from json_populate_recordset(null::audit_log, `)}${chunk}${sql.raw(`::json) r
      where not exists (select 1 from audit_log a where a.at = r.at and a.action = r.action and a.operator = r.operator and a.target is not distinct from r.target)
      order by r.at, r.id
      returning 1`)}`);
    added += rowsOf(result).length;
  }
  return { kept: Number(here?.n ?? 0), added };
}

export async function restoreBackupFile(file: string, passphrase: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), "utf8");
  } catch (err) {
    throw new AppError(400, `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return restoreBackup(text, passphrase, { source: path.basename(file), ...opts });
}

// ---------------------------------------------------------------------------------------- automatic backups

/** Where the daily backups go. */
export function backupDir(): string {
  return dataPath("backups");
}

/** Daily backups run when BACKUP_DAILY says so, else by default only with the embedded database. */
export function dailyBackupsEnabled(): boolean {
  const env = getEnv();
  return env.BACKUP_DAILY ?? !env.DATABASE_URL;
}

/** The file holding a generated passphrase for the daily backups when BACKUP_PASSPHRASE is not set. */
export function generatedPassphraseFile(): string {
  return dataPath("backup-passphrase");
}

/**
 * The daily backups' passphrase: BACKUP_PASSPHRASE, else one generated once into
 * DATA_DIR/backup-passphrase (mode 0600), so the backups restore anywhere that file is copied to.
 */
export function automaticPassphrase(): { passphrase: string; source: "env" | "file" } {
  const env = getEnv();
  if (env.BACKUP_PASSPHRASE) return { passphrase: env.BACKUP_PASSPHRASE, source: "env" };
  const file = generatedPassphraseFile();
  try {
    return { passphrase: fs.readFileSync(file, "utf8").trim(), source: "file" };
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(24).toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
    } catch {
      // Another process wrote it first: use theirs.
    }
    return { passphrase: fs.readFileSync(file, "utf8").trim(), source: "file" };
  }
}

export type BackupFileInfo = { name: string; bytes: number; at: string };

const AUTO_NAME = /^galaxy-toolbox-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.gtbackup$/;

export function listAutomaticBackups(): BackupFileInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync(backupDir());
  } catch {
    return [];
  }
  return names
    .filter((n) => AUTO_NAME.test(n))
    .sort()
    .reverse()
    .map((name) => {
      const stat = fs.statSync(path.join(backupDir(), name));
      return { name, bytes: stat.size, at: stat.mtime.toISOString() };
    });
}

/** A file name for a backup made at `now`: sortable, no characters file systems refuse. */
export function backupFileName(now = new Date()): string {
  return `galaxy-toolbox-${now.toISOString().slice(0, 19).replace(/:/g, "-")}Z${BACKUP_EXTENSION}`;
}

/** The daily job: one backup into DATA_DIR/backups, then only the newest BACKUP_KEEP stay. */
export async function runAutomaticBackup(now = new Date()): Promise<{ file: string | null; removed: string[]; skipped?: string }> {
  if (!dailyBackupsEnabled()) return { file: null, removed: [], skipped: "daily backups are off (BACKUP_DAILY)" };
  const { passphrase } = automaticPassphrase();
  const file = path.join(backupDir(), backupFileName(now));
  await writeBackupFile(file, passphrase);
  const removed = listAutomaticBackups()
    .slice(getEnv().BACKUP_KEEP)
    .map((b) => b.name);
  for (const name of removed) fs.rmSync(path.join(backupDir(), name), { force: true });
  return { file, removed };
}

/** The body of POST /api/backup (its route and its OpenAPI registration). */
export const backupBodySchema = z.object({
  passphrase: z
    .string({ error: "passphrase is required" })
    .min(MIN_PASSPHRASE_LENGTH, `passphrase: at least ${MIN_PASSPHRASE_LENGTH} characters`)
    .max(1024, "passphrase: at most 1024 characters"),
});
