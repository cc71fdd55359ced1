import { and, eq, inArray } from "drizzle-orm";
import { COLLECTIONS_TEXTS as T, type ConnectionState } from "#api/collections";
import { jobEngineOffline } from "#jobs/queues.server";
import { registerDesiredLookup, registerDesiredReader, requestSession, sessionEngineReady, signalStop } from "#jobs/session-host.server";
import { getDb } from "~/db/client.server";
import { collectionsConnections } from "~/db/schema";
import { ClayError } from "./clay.server";

/**
 * The live platform connection of the logged-in Collections account (spec 2 §4 "Galaxy client
 * connection"). The session host holds it (`collections-<accountId>`, jobs/processors/collections.ts);
 * this row is what the operator asked (`desired`) and what the holder reports (`state`).
 */
export type ConnectionStatus = {
  accountId: string;
  desired: "connected" | "disconnected";
  state: ConnectionState;
  error: string | null;
  planet: string | null;
};

export async function getConnection(accountId: string): Promise<ConnectionStatus> {
  const db = await getDb();
  const [row] = await db.select().from(collectionsConnections).where(eq(collectionsConnections.accountId, accountId));
  return row
    ? { accountId, desired: row.desired, state: row.state, error: row.error, planet: row.planet }
    : { accountId, desired: "disconnected", state: "disconnected", error: null, planet: null };
}

/** Connect: desired connected, state connecting, the session job asked for. */
export async function connectAccount(accountId: string): Promise<void> {
  if (!(await sessionEngineReady())) throw jobEngineOffline();
  const db = await getDb();
  const values = { accountId, desired: "connected" as const, state: "connecting" as const, error: null, since: new Date(), updatedAt: new Date() };
  await db.insert(collectionsConnections).values(values).onConflictDoUpdate({ target: collectionsConnections.accountId, set: values });
  await requestSession("collections", accountId, "start");
}

/** Disconnect: desired and state disconnected at once; the holder sends QUIT and ends. */
export async function disconnectAccount(accountId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(collectionsConnections)
    .set({ desired: "disconnected", state: "disconnected", planet: null, wantedPlanet: null, error: null, since: new Date(), updatedAt: new Date() })
    .where(eq(collectionsConnections.accountId, accountId));
  await signalStop("collections", accountId);
}

/** Change planet (spec 2 §4): "Not connected to Galaxy" unless the connection is up. */
export async function changePlanet(accountId: string, planet: string): Promise<void> {
  const name = planet.trim();
  if (!name) throw new ClayError(400, "Enter a planet");
  const status = await getConnection(accountId);
  if (status.state !== "connected") throw new ClayError(409, T.notConnected);
  const db = await getDb();
  await db.update(collectionsConnections).set({ wantedPlanet: name, updatedAt: new Date() }).where(eq(collectionsConnections.accountId, accountId));
}

/** Written by the holder. */
export async function reportConnection(
  accountId: string,
  patch: Partial<{ state: ConnectionState; error: string | null; planet: string | null; worker: string | null; desired: "connected" | "disconnected" }>,
) {
  const db = await getDb();
  await db
    .update(collectionsConnections)
    .set({ ...patch, ...(patch.state ? { since: new Date() } : {}), updatedAt: new Date() })
    .where(eq(collectionsConnections.accountId, accountId));
}

/** Written by the holder while the operator still wants the connection; false once they do not. */
export async function reportWhileWanted(
  accountId: string,
  patch: Partial<{ state: ConnectionState; error: string | null; planet: string | null; worker: string | null }>,
): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(collectionsConnections)
    .set({ ...patch, ...(patch.state ? { since: new Date() } : {}), updatedAt: new Date() })
    .where(and(eq(collectionsConnections.accountId, accountId), eq(collectionsConnections.desired, "connected")))
    .returning({ accountId: collectionsConnections.accountId });
  return rows.length > 0;
}

export async function connectedIds(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: collectionsConnections.accountId })
    .from(collectionsConnections)
    .where(eq(collectionsConnections.desired, "connected"));
  return rows.map((r) => r.accountId);
}

async function desiredOf(accountIds: string[]): Promise<Map<string, "started" | "stopped">> {
  if (!accountIds.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ accountId: collectionsConnections.accountId, desired: collectionsConnections.desired })
    .from(collectionsConnections)
    .where(inArray(collectionsConnections.accountId, accountIds));
  return new Map(rows.map((r) => [r.accountId, r.desired === "connected" ? "started" : "stopped"]));
}

registerDesiredReader("collections", connectedIds);
registerDesiredLookup("collections", desiredOf);
