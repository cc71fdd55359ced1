import type { ActionFunctionArgs } from "@remix-run/node";
import { backupBodySchema, backupFileName, backupLabel, createBackup } from "~/models/backup.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/http/api.server";
import { auditNote } from "~/utils/audit-context.server";
import { requireApiAuth } from "~/http/auth.server";
import { ADMIN_ONLY } from "~/utils/roles";

/**
 * POST /api/backup {passphrase} → the backup file (docs/decisions/0017), for admins' scripts:
 * the same file as `npm run backup` and the Settings download. Admins only (the gate and
 * apiRoute refuse others, access.server.ts); a read-only token may not (it is a write: it
 * takes every credential out of the app).
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const operator = await requireApiAuth(request);
  if (operator.role !== "admin") return jsonError(403, ADMIN_ONLY);
  const { passphrase } = await readJson(request, backupBodySchema);
  // A passphrase the model refuses is an AppError 400: apiRoute answers it.
  const now = new Date();
  const { text, header } = await createBackup(passphrase, now);
  const name = backupFileName(now);
  auditNote({
    action: "backup.download",
    target: backupLabel(header.createdAt, name),
    details: { rows: Object.values(header.tables).reduce((a, b) => a + b, 0) },
  });
  return new Response(text, { headers: { "Content-Type": "application/octet-stream", "Content-Disposition": `attachment; filename="${name}"` } });
});

export const loader = apiRoute(() => methodNotAllowed(["POST"]));
