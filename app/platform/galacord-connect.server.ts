import { RELAY_ERRORS, type SavedAccount } from "#api/galacord";
import { getSavedAccount, requireChannel, saveNewAccount } from "~/models/galacord.server";
import { accountLabel, signInGuard } from "~/models/session.server";
import { AppError } from "~/utils/app-error";
import { signInOnce, type SignInTuning } from "./connection-deps.server";
import { platformLoginError } from "./create-creds.server";

/**
 * POST /api/bot/connect-new {channelId, recoveryCode}: signs in to Galaxy with the code (and out
 * again) to learn the account, then saves it through the GalaCord model (code and password
 * encrypted) wanting to be connected; the holder opens the relay connection. Login refusals
 * answer the platform's text; an account another purpose holds is refused (AccountHeldError
 * 409) unless `takeover`; an account saved already is refused (409: Change Channel moves it).
 * A platform call (decision 0022): the sign-in opens a game connection, which no model does.
 */
export async function connectNew(input: { channelId: string; recoveryCode: string; takeover?: boolean }, tuning: SignInTuning = {}): Promise<SavedAccount> {
  const channel = await requireChannel(input.channelId);
  let info: { id: string; password: string; nick: string };
  try {
    info = await signInOnce(input.recoveryCode, {
      tuning,
      beforeLogin: async (account) => {
        const saved = await getSavedAccount(account.id);
        if (saved) throw new AppError(409, RELAY_ERRORS.alreadySaved(accountLabel(account.id, account.nick), saved.channelName));
        await signInGuard({ purpose: "relay-link" }, { takeover: input.takeover })(account);
      },
    });
  } catch (err) {
    throw platformLoginError(err);
  }
  return saveNewAccount(info, { channel, recoveryCode: input.recoveryCode, takeover: input.takeover });
}
