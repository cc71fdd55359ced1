import { eq } from "drizzle-orm";
import type { PublicUser } from "#api/accounts";
import { getDb } from "~/db/client.server";
import { characterDetails } from "~/db/schema";
import { forgetSelectionsOf } from "./character-details.server";
import { syncStatusScheduler } from "./character-refresh.server";
import { deleteSession } from "./session.server";
import { deleteUser } from "./user.server";

/**
 * Deleting a user with what hangs on it, in one transaction: its character_details row, the
 * user row (its trader_sessions row cascades), and any operator's selection of it. Its
 * stalker and trading-run sessions go too; a live one is told to stop (its holder sends
 * `QUIT :ds`; without the row it would also end at the next desired poll).
 */
export async function removeUser(id: string): Promise<PublicUser> {
  const db = await getDb();
  const user = await db.transaction(async (tx) => {
    const deleted = await deleteUser(id, tx);
    await tx.delete(characterDetails).where(eq(characterDetails.accountId, deleted.account_id));
    return deleted;
  });
  await deleteSession("stalker", user.account_id);
  await deleteSession("trader", user.account_id);
  await forgetSelectionsOf(user.account_id);
  await syncStatusScheduler();
  return user;
}
