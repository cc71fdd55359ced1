import type { PublicUser } from "#api/accounts";
import { GalaxyError } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/galaxy/connection-deps.server";
import { GALAXY_MESSAGES } from "~/galaxy/messages";
import { getUserCredentials, upsertUser, UserError } from "./user.server";

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
 * Failures store nothing and throw UserError:
 *   451 → 400 "Login failed: Invalid credentials"; 452 → 403; 950 → 409; 601 → 429 (the
 *   platform's texts); connection failure → 502 (spec 2 §4 text); login timeout → 504.
 */
export async function createUserFromRecoveryCode({ rc, type }: { rc: string; type: string }): Promise<PublicUser> {
  const connection = createGalaxyConnection({ credentials: { recoveryCode: rc }, joinOnConnect: false });
  let info: { id: string; password: string; nick: string };
  try {
    info = await connection.connect();
  } catch (err) {
    await connection.close().catch(() => {});
    throw toUserError(err);
  } finally {
    // After a successful login: QUIT :ds; close() waits for the user-agent post.
  }
  await connection.close().catch(() => {});
  const existing = await getUserCredentials(info.id);
  return upsertUser({ accountId: info.id, nick: info.nick, password: info.password, type, ...(existing ? {} : { iHeaders: null }) });
}

export function toUserError(err: unknown): UserError {
  if (err instanceof UserError) return err;
  if (!(err instanceof GalaxyError)) return new UserError(502, GALAXY_MESSAGES.connectionFailed);
  switch (err.code) {
    case "invalid_credentials":
      return new UserError(400, err.message);
    case "online_or_banned":
      return new UserError(403, err.message);
    case "another_device":
      return new UserError(409, err.message);
    case "come_later":
      return new UserError(429, err.message);
    case "connection":
    case "connection_lost":
      return new UserError(502, err.message || GALAXY_MESSAGES.connectionFailed);
    case "login":
      return err.message === GALAXY_MESSAGES.loginTimeout ? new UserError(504, err.message) : new UserError(400, err.message);
    default:
      return new UserError(502, err.message || GALAXY_MESSAGES.connectionFailed);
  }
}
