import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { apiTokens, operators } from "~/db/schema";
import { tokenNameSchema } from "~/utils/operator-rules";
import { AppError } from "~/utils/app-error";
import type { Operator } from "./operator.server";
import { clearTokenCache, tokenCacheMap } from "./token-cache.server";

/**
 * API tokens for scripts (`Authorization: Bearer gtk_…`). The token is 32 random bytes,
 * shown once; the database keeps only its SHA-256, which is enough because the token is
 * random (no dictionary to grind), and keeps the lookup a single unique-index probe.
 */
export const TOKEN_PREFIX = "gtk_";
/** last_used_at is written at most this often per token. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiTokenRow = {
  id: string;
  name: string;
  prefix: string;
  /** May only read (GET/HEAD), whatever the operator's role (docs/decisions/0016). */
  readOnly: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
};

const rowColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  readOnly: apiTokens.readOnly,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

/** What a verified token is: its operator (with the role it acts with) and the token's own name and flag. */
export type TokenAuth = { operator: Operator; token: { id: string; name: string; readOnly: boolean } };

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

export function generateToken(): string {
  return TOKEN_PREFIX + crypto.randomBytes(32).toString("base64url");
}

/** Creates a token for an operator. The plaintext is returned here and never again. */
export async function createApiToken(operatorId: string, name: string, opts: { readOnly?: boolean } = {}): Promise<{ token: string; row: ApiTokenRow }> {
  const parsed = tokenNameSchema.safeParse(name);
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]!.message);
  const token = generateToken();
  const db = await getDb();
  // The unique index (operator, name) decides; a clash is the operator's to fix.
  const [row] = await db
    .insert(apiTokens)
    .values({ operatorId, name: parsed.data, prefix: token.slice(0, TOKEN_PREFIX.length + 6), tokenHash: hashToken(token), readOnly: !!opts.readOnly })
    .onConflictDoNothing({ target: [apiTokens.operatorId, apiTokens.name] })
    .returning(rowColumns);
  if (!row) throw new AppError(409, duplicateTokenNameMessage(parsed.data));
  return { token, row };
}

export function duplicateTokenNameMessage(name: string): string {
  return `You already have an API token named "${name}". Choose another name.`;
}

export async function listApiTokens(operatorId: string): Promise<ApiTokenRow[]> {
  const db = await getDb();
  return db.select(rowColumns).from(apiTokens).where(eq(apiTokens.operatorId, operatorId)).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/**
 * Verified tokens are remembered for a few seconds, so a script hammering the API costs no
 * database probe per request (GET /api/rates is served from memory; the lookup would be most
 * of its cost). Revoking through this app (web or API) drops the entry at once; a token
 * deleted by another process (the CLI) stops working within TOKEN_CACHE_MS.
 */
export const TOKEN_CACHE_MS = 5_000;
type CachedToken = TokenAuth & { lastUsedAt: Date | null; at: number };
const tokenCache = tokenCacheMap<CachedToken>();

export { clearTokenCache };

/** Revokes one of the operator's tokens; effective for the very next request. False when unknown. */
export async function revokeApiToken(operatorId: string, tokenId: string): Promise<ApiTokenRow | null> {
  const db = await getDb();
  const [row] = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.operatorId, operatorId)))
    .returning(rowColumns);
  clearTokenCache();
  return row ?? null;
}

/**
 * A bearer token's verdict when this process verified it within TOKEN_CACHE_MS and its
 * last_used_at needs no write, else null (then `findToken` decides, and fills the cache).
 * Synchronous, for the GET /api/rates hot path (app/routes/_app+/_exchange-rates+/rates-api.server.ts): the same
 * answer `findToken` would give from its cache, nothing looser.
 */
export function cachedToken(token: string, now = Date.now()): TokenAuth | null {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const found = tokenCache.get(hashToken(token));
  if (!found || now - found.at >= TOKEN_CACHE_MS) return null;
  if (!found.lastUsedAt || now - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) return null;
  return { operator: found.operator, token: found.token };
}

/** The operator a bearer token belongs to, or null. */
export async function findOperatorByToken(token: string, now = new Date()): Promise<Operator | null> {
  return (await findToken(token, now))?.operator ?? null;
}

/** A bearer token's operator and the token's name and read-only flag, or null. Touches last_used_at at most once a minute. */
export async function findToken(token: string, now = new Date()): Promise<TokenAuth | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const hash = hashToken(token);
  const cached = tokenCache.get(hash);
  let found: CachedToken | undefined = cached && now.getTime() - cached.at < TOKEN_CACHE_MS ? cached : undefined;
  if (!found) {
    const db = await getDb();
    const [row] = await db
      .select({
        tokenId: apiTokens.id,
        tokenName: apiTokens.name,
        readOnly: apiTokens.readOnly,
        lastUsedAt: apiTokens.lastUsedAt,
        id: operators.id,
        name: operators.name,
        role: operators.role,
      })
      .from(apiTokens)
      .innerJoin(operators, eq(operators.id, apiTokens.operatorId))
      .where(eq(apiTokens.tokenHash, hash));
    if (!row) {
      tokenCache.delete(hash);
      return null;
    }
    found = {
      operator: { id: row.id, name: row.name, role: row.role },
      token: { id: row.tokenId, name: row.tokenName, readOnly: row.readOnly },
      lastUsedAt: row.lastUsedAt,
      at: now.getTime(),
    };
    if (tokenCache.size > 1000) tokenCache.clear();
    tokenCache.set(hash, found);
  }
  if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    found.lastUsedAt = now;
    const db = await getDb();
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, found.token.id));
  }
  return { operator: found.operator, token: found.token };
}
