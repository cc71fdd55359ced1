import { COLLECTIONS_TEXTS as T } from "#api/collections";
import { signInOnce, type SignInTuning } from "~/platform/connection-deps.server";
import { getGalaxyServices } from "~/platform/galaxy-services.server";
import { stopAuto } from "~/models/automation.server";
import { collectionsTimings } from "~/models/clay.server";
import { connectAccount, disconnectAccount } from "~/models/collections-connection.server";
import {
  getProfile,
  getState,
  leaveProfile,
  profileCredentials,
  saveProfile,
  setProfilePic,
  touchProfile,
  updateState,
  type PublicProfile,
} from "~/models/collections.server";
import { platformLoginError } from "~/platform/create-creds.server";
import { AccountHeldError, accountHolder, accountLabel, signInGuard } from "~/models/session.server";
import { AppError } from "~/utils/app-error";
import { isJobEngineOffline } from "~/queue/queues.server";

/**
 * Collections login (spec 2 §2 "Collections screen", §4 "Galaxy client connection"):
 * a recovery code signs in once (IDENT → RECOVER → REGISTER gives id, password and nick →
 * 999, then QUIT), the account becomes a saved profile of the operator (password encrypted,
 * the code itself is not kept) and the live connection is asked of the session host.
 */

async function pictureOf(userID: string, password: string): Promise<string | null> {
  try {
    return await getGalaxyServices().userPic({ userID, password }, userID);
  } catch {
    return null;
  }
}

/**
 * Starts the live connection; a job engine that is down leaves the login in place (the card
 * says so). Another purpose holding the account is refused (AccountHeldError) unless `takeover`.
 */
async function connectQuietly(accountId: string, opts: { takeover?: boolean; accountName?: string }) {
  try {
    await connectAccount(accountId, opts);
  } catch (err) {
    if (!isJobEngineOffline(err)) throw err;
  }
}

export type LoginOptions = {
  /** Take the account over from the stalker, the trading run or GalaCord when one holds it. */
  takeover?: boolean;
  tuning?: SignInTuning;
};

export async function loginWithRecoveryCode(operatorId: string, rc: string, opts: LoginOptions = {}): Promise<PublicProfile> {
  const code = rc.trim();
  if (!code) throw new AppError(400, T.noCode);
  let info: { id: string; password: string; nick: string };
  try {
    // Spec 2 §9: 2 retries, 2 s apart (scaled by COLLECTIONS_TIME_SCALE in tests). The guard
    // refuses (or takes over) an account another purpose holds before USER would kick it.
    info = await signInOnce(code, {
      tuning: { retries: 2, retryDelayMs: collectionsTimings().stepWaitMs, ...opts.tuning },
      beforeLogin: signInGuard({ purpose: "collections" }, { takeover: opts.takeover }),
    });
  } catch (err) {
    // An AppError (the account held by another purpose, …) as is; the platform's refusals in its words.
    throw platformLoginError(err);
  }
  const previous = await getState(operatorId);
  const profile = await saveProfile(operatorId, {
    accountId: info.id,
    nick: info.nick,
    password: info.password,
    profilePic: await pictureOf(info.id, info.password),
    loginMethod: "recovery",
  });
  await switchTo(operatorId, previous.profileId, profile.id);
  await connectQuietly(profile.accountId, { takeover: opts.takeover, accountName: accountLabel(info.id, info.nick) });
  return profile;
}

/** One click on a saved account: logs in again with its stored credentials. */
export async function loginWithProfile(operatorId: string, profileId: string, opts: { takeover?: boolean } = {}): Promise<PublicProfile> {
  const profile = await getProfile(operatorId, profileId);
  if (!profile) throw new AppError(404, T.noProfile);
  const name = accountLabel(profile.accountId, profile.nick);
  // Refused before anything changes when another purpose holds the account (unless taking it over).
  if (!opts.takeover) await assertFree(profile.accountId, name);
  const previous = await getState(operatorId);
  await touchProfile(profile.id, "saved");
  if (!profile.profilePic) {
    const creds = await profileCredentials(profile.id);
    if (creds) await setProfilePic(profile.id, await pictureOf(creds.userID, creds.password));
  }
  await switchTo(operatorId, previous.profileId, profile.id);
  await connectQuietly(profile.accountId, { takeover: opts.takeover, accountName: name });
  return (await getProfile(operatorId, profileId))!;
}

async function assertFree(accountId: string, name: string) {
  const holder = await accountHolder(accountId, { purpose: "collections", key: accountId });
  if (holder) throw new AccountHeldError(holder, name);
}

async function switchTo(operatorId: string, from: string | null, to: string) {
  if (from && from !== to) {
    await stopAuto(operatorId);
    const old = await profileCredentials(from);
    if (old) await disconnectAccount(old.userID);
  }
  await updateState(operatorId, { profileId: to, giftIds: null, giftsAt: null, items: null, itemsAt: null, runCount: from === to ? undefined : 0 });
}

/**
 * "Log out of Galaxy": stops Auto, disconnects the account and leaves it. `profileId` is the
 * account the screen showed when the operator clicked (the current one when not given): when
 * another account is the operator's by then (a "Log in as …" clicked while this post was on
 * its way), nothing is done, and a login that lands while this one stops and disconnects is
 * kept (`leaveProfile` only clears the account it started from).
 */
export async function logout(operatorId: string, profileId?: string) {
  const state = await getState(operatorId);
  const leaving = profileId || state.profileId;
  if (!leaving || state.profileId !== leaving) return;
  await stopAuto(operatorId);
  const creds = await profileCredentials(leaving);
  if (creds) await disconnectAccount(creds.userID);
  await leaveProfile(operatorId, leaving);
}
