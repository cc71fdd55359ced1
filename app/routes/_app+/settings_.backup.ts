import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { BackupSchema } from "~/components/settings/forms";
import { backupFileName, backupLabel, createBackup } from "~/models/backup.server";
import { logEvent } from "~/models/log.server";
import { auditNote } from "~/utils/audit-context.server";
import { requireRole } from "~/http/auth.server";
import { readFormData } from "~/utils/forms.server";
import { redirectWithError } from "~/utils/toast.server";

/**
 * POST /settings/backup {passphrase, confirmPassphrase}: an admin downloads a backup of all
 * the data, encrypted with the passphrase (docs/decisions/0017). A plain form post (the
 * Settings page posts it with reloadDocument), answered with the file as an attachment;
 * a passphrase problem goes back to /settings with the reason. The gate lets only admins
 * post here (app/http/access.server.ts); the audit trail records who downloaded it.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ["admin"]);
  const submission = parseWithZod(await readFormData(request), { schema: BackupSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? "Invalid request";
    return redirectWithError("/settings", first);
  }
  const now = new Date();
  const { text, header } = await createBackup(submission.value.passphrase, now);
  const name = backupFileName(now);
  const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
  auditNote({ action: "backup.download", target: backupLabel(header.createdAt, name), details: { rows } });
  await logEvent({ type: "info", source: "system", message: `Backup downloaded (${rows} rows)` });
  return new Response(text, {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}

export function loader() {
  return redirect("/settings");
}
