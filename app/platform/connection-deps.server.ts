/**
 * The app's side effects for a Galaxy connection, kept out of connection.server.ts so the
 * connection can be built (by the session host, by tests) without a database:
 *
 *  - `writeGalaxyAuthLog`: login failures and disconnects go to System Logs with source
 *    galaxyAuth (spec 2 §3 "Logs");
 *  - `postUserAgent`: after 999 the account's user-agent data goes to the registry (spec 2 §4,
 *    issue "Galaxy platform client");
 *  - `recordLogout`: when a logged-in connection sends `QUIT :ds`, the time goes to Redis, so a
 *    452 on the account's next login (any worker) is known to be the platform's "come back
 *    10 s after leaving" after our own logout (app/models/galaxy-logout.server.ts).
 *
 * `createGalaxyConnection` is how app code makes a connection: it wires all three unless the
 * options name their own (`null` turns one off).
 */
import { recordLogout, reloginAllowedAt } from "~/models/galaxy-logout.server";
import { pauseUntil } from "~/utils/pause";
import { logEvent } from "~/models/log.server";
import { GalaxyConnection, GalaxyError, type GalaxyConnectionOptions, type GalaxyLogger, type LoggedInContext } from "~/galaxy/connection.server";
import { registerUserAgent } from "~/models/user-agent.server";
import { auditNote } from "~/utils/audit-context.server";

export const writeGalaxyAuthLog: GalaxyLogger = (entry) => logEvent({ ...entry, source: "galaxyAuth" });

export async function postUserAgent({ accountId, record }: LoggedInContext): Promise<void> {
  await registerUserAgent(accountId, record);
}

export function createGalaxyConnection(options: GalaxyConnectionOptions): GalaxyConnection {
  return new GalaxyConnection({
    ...options,
    log: options.log === undefined ? writeGalaxyAuthLog : options.log,
    onLogin: options.onLogin === undefined ? postUserAgent : options.onLogin,
    onLogout: options.onLogout === undefined ? recordLogout : options.onLogout,
  });
}

export type SignInTuning = Pick<GalaxyConnectionOptions, "loginTimeoutMs" | "connectTimeoutMs" | "retries" | "retryDelayMs">;

/**
 * Signs in once with a recovery code and logs out again (`QUIT :ds`): IDENT → HAAAPSI →
 * RECOVER → REGISTER (id, password, nick) → USER → 999 → QUIT. The one sign-in of the app
 * (create-creds, Collections login, GalaCord connect-new). `beforeLogin` sees the account
 * after REGISTER and before USER, when a login would still kick nobody: a rejection ends the
 * sign-in there, and that rejection is what this throws (docs/sessions.md "One account, one
 * holder"). Other failures throw the connection's GalaxyError. A 452 within 10 s of our own
 * logout of the account waits for that window and signs in once more (decision 0042).
 */
export async function signInOnce(
  recoveryCode: string,
  opts: { tuning?: SignInTuning; beforeLogin?: (account: { id: string; nick: string }) => Promise<void> } = {},
): Promise<{ id: string; password: string; nick: string }> {
  try {
    return await signInOnceNow(recoveryCode, opts);
  } catch (err) {
    // 452 within 10 s of our own logout of the account (a log out then a log in again): the
    // platform's "come back 10 s after leaving", not a refusal. Wait for the window and try
    // once more (decision 0042); any other 452 is the platform's answer.
    const id = err instanceof SignInError ? err.accountId : null;
    const allowedAt =
      id && (err as SignInError).cause instanceof GalaxyError && ((err as SignInError).cause as GalaxyError).code === "online_or_banned"
        ? await reloginAllowedAt(id)
        : null;
    if (allowedAt === null) throw err instanceof SignInError ? err.cause : err;
    await pauseUntil(allowedAt);
    return signInOnceNow(recoveryCode, opts).catch((again: unknown) => {
      throw again instanceof SignInError ? again.cause : again;
    });
  }
}

/** A failed sign-in with the account it got to (known after REGISTER), for the 452 wait above. */
class SignInError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly accountId: string | null,
  ) {
    super("sign-in failed");
  }
}

async function signInOnceNow(
  recoveryCode: string,
  opts: { tuning?: SignInTuning; beforeLogin?: (account: { id: string; nick: string }) => Promise<void> },
): Promise<{ id: string; password: string; nick: string }> {
  const connection = createGalaxyConnection({ credentials: { recoveryCode }, joinOnConnect: false, beforeLogin: opts.beforeLogin, ...opts.tuning });
  try {
    const account = await connection.connect();
    // The request's audit entry names the account the code signed into, never the code (issue 28).
    auditNote({ target: `${account.nick} (${account.id})` });
    return account;
  } catch (err) {
    const cause = (err as { cause?: unknown } | null)?.cause;
    throw new SignInError(cause !== undefined && opts.beforeLogin ? cause : err, connection.accountId);
  } finally {
    // QUIT :ds; close() also waits for the user-agent post of onLogin.
    await connection.close().catch(() => {});
  }
}
