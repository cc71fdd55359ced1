import { getDb } from "~/db/client.server";
import { galacordAccounts, galaxyUserAgents } from "~/db/schema";
import { saveProfile } from "~/models/collections.server";
import { upsertUser } from "~/models/user.server";
import { encryptSecret } from "~/utils/secrets.server";

/**
 * Plants a marker value in every credential field the database holds (issue 21, the
 * secrets scan and the backup tests): a character's password, recovery code and sek, a
 * user-agent record's sek, a Collections profile's password, a GalaCord account's recovery
 * code and password. Each value is `${marker}-<field>`, stored as the app stores it
 * (encrypted with this machine's key). Returns the plain values, by field.
 */
export async function plantCredentials(marker: string, operatorId: string, accountId = "87654321"): Promise<Record<string, string>> {
  const values = {
    userPassword: `${marker}-user-password`,
    userRecoveryCode: `${marker}-user-rc`,
    userSek: `${marker}-user-sek`,
    agentSek: `${marker}-agent-sek`,
    profilePassword: `${marker}-profile-password`,
    galacordRecoveryCode: `${marker}-galacord-rc`,
    galacordPassword: `${marker}-galacord-password`,
  };
  await upsertUser({ accountId, nick: "Planted", password: values.userPassword, recoveryCode: values.userRecoveryCode, sek: values.userSek, type: "stalker" });
  const db = await getDb();
  await db
    .insert(galaxyUserAgents)
    .values({ accountId, headers: { "X-Galaxy-Platform": "android" }, sek: encryptSecret(values.agentSek), device: "android", nick: "Planted" })
    .onConflictDoNothing();
  await saveProfile(operatorId, { accountId, nick: "Planted", password: values.profilePassword, loginMethod: "recovery" });
  await db
    .insert(galacordAccounts)
    .values({
      accountId,
      nick: "Planted",
      channelId: "100000000000000001",
      channelName: "relay",
      guildName: "Guild",
      recoveryCode: encryptSecret(values.galacordRecoveryCode),
      password: encryptSecret(values.galacordPassword),
    })
    .onConflictDoNothing();
  return values;
}
