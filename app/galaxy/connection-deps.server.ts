/**
 * The app's side effects for a Galaxy connection, kept out of connection.server.ts so the
 * connection can be built (by the session host, by tests) without a database:
 *
 *  - `writeGalaxyAuthLog`: login failures and disconnects go to System Logs with source
 *    galaxyAuth (spec 2 §3 "Logs");
 *  - `postUserAgent`: after 999 the account's user-agent data goes to the registry (spec 2 §4,
 *    issue "Galaxy platform client").
 *
 * `createGalaxyConnection` is how app code makes a connection: it wires both unless the
 * options name their own (`null` turns one off).
 */
import { logEvent } from "~/models/log.server";
import { GalaxyConnection, type GalaxyConnectionOptions, type GalaxyLogger, type LoggedInContext } from "./connection.server";
import { registerUserAgent } from "./user-agent.server";

export const writeGalaxyAuthLog: GalaxyLogger = (entry) => logEvent({ ...entry, source: "galaxyAuth" });

export async function postUserAgent({ accountId, record }: LoggedInContext): Promise<void> {
  await registerUserAgent(accountId, record);
}

export function createGalaxyConnection(options: GalaxyConnectionOptions): GalaxyConnection {
  return new GalaxyConnection({
    ...options,
    log: options.log === undefined ? writeGalaxyAuthLog : options.log,
    onLogin: options.onLogin === undefined ? postUserAgent : options.onLogin,
  });
}
