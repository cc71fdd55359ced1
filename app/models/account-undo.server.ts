import { eq, inArray, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { appSettings, bowlingCompanions, categories, users } from "~/db/schema";
import { removeUser } from "./account.server";
import { deleteCategory } from "./category.server";
import { AppError } from "~/utils/app-error";

/**
 * Undo for the All Characters and Bowling Bots deletes (issue 19 item 9; CONVENTIONS rule 7
 * "offer Undo", as the Exchange Rates deletes do: app/models/rate.server.ts). A delete keeps
 * what it removed, as stored (secrets stay encrypted), for UNDO_WINDOW_MS, one record per
 * operator (the latest delete; an older offer goes), in app_settings under
 * `undo.accounts:<operator id>`; the page's loader offers it with and without JavaScript.
 *
 * [D] Undo puts back the user row (same id, account id, encrypted password, recovery code and
 * sek, category) and the companions its delete took with it, or the category. What the delete
 * stopped (a stalker or trading run) stays stopped; its picture, status and gifts load again.
 */
export const UNDO_WINDOW_MS = 120_000;

export type AccountUndo = { id: string; kind: "user" | "category"; label: string };

type UserRow = typeof users.$inferSelect;
type CompanionRow = typeof bowlingCompanions.$inferSelect;
type CategoryRow = typeof categories.$inferSelect;
type Stored = AccountUndo & {
  at: string;
  user?: Omit<UserRow, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };
  companions?: Array<Omit<CompanionRow, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string }>;
  category?: { id: string; value: string; createdAt: string };
};

export const UNDO_TEXTS = {
  offer: (label: string) => `Deleted ${label}.`,
  userRestored: (nick: string) => `Restored ${nick}`,
  categoryRestored: (value: string) => `Restored category ${value}`,
  gone: "Nothing to undo: a deleted user or category can be restored for 2 minutes",
  taken: (what: string) => `Cannot restore ${what}: it exists again`,
} as const;

const keyOf = (operatorId: string) => `undo.accounts:${operatorId}`;

async function store(operatorId: string, record: Stored): Promise<AccountUndo> {
  const db = await getDb();
  await db
    .insert(appSettings)
    .values({ key: keyOf(operatorId), value: record })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: record, updatedAt: new Date() } });
  return { id: record.id, kind: record.kind, label: record.label };
}

async function read(operatorId: string): Promise<Stored | null> {
  const db = await getDb();
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, keyOf(operatorId)))
    .limit(1);
  const v = row?.value as Stored | undefined;
  if (!v || typeof v.at !== "string" || Date.now() - Date.parse(v.at) > UNDO_WINDOW_MS) return null;
  return v;
}

const iso = (d: Date) => d.toISOString();

/** Deletes a user as removeUser does, keeping it (and the companions that go with it) for Undo. */
export async function removeUserUndoable(operatorId: string, accountId: string, remove: (id: string) => Promise<unknown> = removeUser): Promise<AccountUndo> {
  const db = await getDb();
  const [row] = /^\d{1,12}$/.test(accountId) ? await db.select().from(users).where(eq(users.accountId, accountId)).limit(1) : [];
  const companions = row
    ? await db
        .select()
        .from(bowlingCompanions)
        .where(or(eq(bowlingCompanions.bowlingId, row.accountId), eq(bowlingCompanions.supplier, row.accountId), eq(bowlingCompanions.consumer, row.accountId)))
    : [];
  await remove(accountId);
  if (!row) throw new AppError(404, "User not found");
  return store(operatorId, {
    id: crypto.randomUUID(),
    kind: "user",
    label: `${row.nick} (${row.accountId})`,
    at: new Date().toISOString(),
    user: { ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) },
    companions: companions.map((c) => ({ ...c, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt) })),
  });
}

/** Deletes a category as deleteCategory does, keeping it for Undo. */
export async function deleteCategoryUndoable(operatorId: string, id: string): Promise<AccountUndo> {
  const gone: { _id: string; value: string } = await deleteCategory(id);
  return store(operatorId, {
    id: crypto.randomUUID(),
    kind: "category",
    label: `category ${gone.value}`,
    at: new Date().toISOString(),
    category: { id: gone._id, value: gone.value, createdAt: new Date().toISOString() },
  });
}

/** The operator's latest delete that can still be undone. */
export async function latestAccountUndo(operatorId: string): Promise<AccountUndo | null> {
  const r = await read(operatorId);
  return r ? { id: r.id, kind: r.kind, label: r.label } : null;
}

/**
 * Puts the delete back; returns the toast text. AppError 404 when there is nothing (left) to
 * undo, 409 when the user or category was created again in the meantime.
 */
export async function undoAccountDeletion(operatorId: string, undoId: string): Promise<{ kind: AccountUndo["kind"]; message: string; accountId?: string }> {
  const r = await read(operatorId);
  if (!r || r.id !== undoId) throw new AppError(404, UNDO_TEXTS.gone);
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    if (r.kind === "user" && r.user) {
      const u = r.user;
      const [back] = await tx
        .insert(users)
        .values({ ...u, createdAt: new Date(u.createdAt), updatedAt: new Date() })
        .onConflictDoNothing()
        .returning({ accountId: users.accountId });
      if (!back) throw new AppError(409, UNDO_TEXTS.taken(u.nick));
      const companions = r.companions ?? [];
      if (companions.length) {
        // Only those whose other accounts are still there (a companion needs all three).
        const ids = [...new Set(companions.flatMap((c) => [c.bowlingId, c.supplier, c.consumer]))];
        const present = new Set((await tx.select({ a: users.accountId }).from(users).where(inArray(users.accountId, ids))).map((x) => x.a));
        const ok = companions.filter((c) => present.has(c.bowlingId) && present.has(c.supplier) && present.has(c.consumer));
        if (ok.length) {
          await tx
            .insert(bowlingCompanions)
            .values(ok.map((c) => ({ ...c, createdAt: new Date(c.createdAt), updatedAt: new Date() })))
            .onConflictDoNothing();
        }
      }
      return { kind: "user" as const, message: UNDO_TEXTS.userRestored(u.nick), accountId: u.accountId };
    }
    if (r.kind === "category" && r.category) {
      const c: Pick<CategoryRow, "id" | "value"> = r.category;
      const [back] = await tx.insert(categories).values({ id: c.id, value: c.value }).onConflictDoNothing().returning({ id: categories.id });
      if (!back) throw new AppError(409, UNDO_TEXTS.taken(`category ${c.value}`));
      return { kind: "category" as const, message: UNDO_TEXTS.categoryRestored(c.value) };
    }
    throw new AppError(404, UNDO_TEXTS.gone);
  });
  await db.delete(appSettings).where(eq(appSettings.key, keyOf(operatorId)));
  return result;
}
