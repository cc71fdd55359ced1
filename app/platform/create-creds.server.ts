import type { PublicUser } from "#api/accounts";
import { GalaxyError } from "~/galaxy/connection.server";
import { signInOnce, type SignInTuning } from "./connection-deps.server";
import { GALAXY_MESSAGES } from "~/galaxy/messages";
import { signInGuard } from "~/models/session.server";
import { upsertUser } from "~/models/user.server";
import { AppError } from "~/utils/app-error";

/**
 * POST /api/create-creds {rc, type} (spec 2 §7 "Characters"): signs in to the platform with a
 * recovery code (IDENT → HAAAPSI → RECOVER → REGISTER gives id, password and nick → USER → 999),
 * logs out at once (`QUIT :ds`, no planet is joined), then stores or updates the user with the
 * given category. The connection's onLogin registers the account's user-agent record (after 999).
 *
 * Decision (docs/accounts.md): the recovery code is NOT stored. The password REGISTER hands out
 * is what every later login uses (USER id password); the 451 → recovery-code fallback of spec 2
 * §8 then has no code to fall back to, and the operator creates the user again with a fresh code.
 *
 * Failures store nothing and throw AppError (AccountHeldError 409 when another purpose holds the account):
 *   451 → 400 "Login failed: Invalid credentials"; 452 → 403; 950 → 409; 601 → 429 (the
 *   platform's texts); connection failure → 502 (spec 2 §4 text); login timeout → 504.
 */
export async function createUserFromRecoveryCode(
  { rc, type, takeover }: { rc: string; type: string; takeover?: boolean },
  /** Timeouts and retries (tests shorten them; the app uses the connection's defaults, spec 2 §9). */
  tuning: SignInTuning = {},
): Promise<PublicUser> {
  let info: { id: string; password: string; nick: string };
  try {
    // Another purpose holding the account is refused (AccountHeldError, 409) before USER would
    // kick it, unless the operator takes it over (docs/sessions.md "One account, one holder").
    info = await signInOnce(rc, { tuning, beforeLogin: signInGuard(null, { takeover, byLabel: "a sign-in to add the user" }) });
  } catch (err) {
    throw platformLoginError(err);
  }
  return upsertUser({ accountId: info.id, nick: info.nick, password: info.password, type });
}

/**
 * A failed platform sign-in (`signInOnce`) as the AppError both edges answer: an AppError (the
 * account held by another purpose, …) as is, the platform's refusals in its words with their
 * status (the table above), anything else the spec's connection failure (502).
 */
export function platformLoginError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (!(err instanceof GalaxyError)) return new AppError(502, GALAXY_MESSAGES.connectionFailed);
  switch (err.code) {
    case "invalid_credentials":
      return new AppError(400, err.message);
    case "online_or_banned":
      return new AppError(403, err.message);
    case "another_device":
      return new AppError(409, err.message);
    case "come_later":
      return new AppError(429, err.message);
    case "connection":
    case "connection_lost":
      // After the retries the connection reports the spec's failure text; the cause of the
      // last attempt (e.g. the login timeout) tells a timeout (504) from no answer at all (502).
      return new AppError(err.serverText === GALAXY_MESSAGES.loginTimeout ? 504 : 502, GALAXY_MESSAGES.connectionFailed);
    case "login":
      return err.message === GALAXY_MESSAGES.loginTimeout ? new AppError(504, GALAXY_MESSAGES.connectionFailed) : new AppError(400, err.message);
    default:
      return new AppError(502, err.message || GALAXY_MESSAGES.connectionFailed);
  }
}
