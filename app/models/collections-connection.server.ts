import { collectionsConnectionState, COLLECTIONS_TEXTS as T, type ConnectionState } from "#api/collections";
import type { SessionView } from "#api/sessions";
import { getSession, idleSession, runSessionCommand, startSession, stopSession } from "./session.server";
import { AppError } from "~/utils/app-error";

/**
 * The live platform connection of the logged-in Collections account (spec 2 §4 "Galaxy client
 * connection"): the `collections` purpose of the sessions table (app/models/session.server.ts,
 * docs/sessions.md), held by the session host (jobs/processors/collections.ts). Changing planet
 * is a command the holder runs on the live connection.
 */
export type ConnectionStatus = SessionView & {
  accountId: string;
  /** The spec's four states (spec 2 §4). */
  state: ConnectionState;
};

/** The spec's state of the connection, from its session (one rule with the page: api/collections.ts). */
export function connectionState(s: Pick<SessionView, "desired" | "actual"> & Partial<Pick<SessionView, "phase">>): ConnectionState {
  return collectionsConnectionState(s);
}

export async function getConnection(accountId: string): Promise<ConnectionStatus> {
  const s = (await getSession("collections", accountId)) ?? idleSession("collections", accountId);
  return { ...s, accountId, state: connectionState(s) };
}

/**
 * Connect: the session should run; the session host runs it. Throws AccountHeldError (409)
 * when another purpose holds the account, unless `takeover`; the 503 AppError while Redis is down.
 */
export async function connectAccount(accountId: string, opts: { takeover?: boolean; accountName?: string } = {}) {
  return startSession("collections", accountId, { takeover: opts.takeover, accountName: opts.accountName });
}

/** Disconnect: stopped at once; the holder sends QUIT and ends. */
export async function disconnectAccount(accountId: string): Promise<void> {
  await stopSession("collections", accountId);
}

/** Change planet (spec 2 §4): "Not connected to Galaxy" unless the connection is up; the platform's reason when the JOIN fails. */
export async function changePlanet(accountId: string, planet: string): Promise<string> {
  const name = planet.trim();
  if (!name) throw new AppError(400, "Enter a planet");
  const status = await getConnection(accountId);
  if (status.state !== "connected") throw new AppError(409, T.notConnected);
  try {
    return String(
      await runSessionCommand("collections", accountId, "planet", name, {
        waitMs: 20_000,
        timeoutText: "The platform did not answer the planet change in time",
      }),
    );
  } catch (err) {
    const e = err as { status?: number; message?: string };
    throw new AppError(e.status ?? 409, e.message ?? T.notConnected);
  }
}
