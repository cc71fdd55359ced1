import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { backupFileName, backupLabel, createBackup, MIN_PASSPHRASE_LENGTH } from "~/models/backup.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";
import { auditNote } from "~/utils/audit-context.server";
import { requireApiAuth } from "~/utils/auth.server";
import { ADMIN_ONLY } from "~/utils/roles";
import { documented } from "#api/openapi";

const backupBodySchema = z.object({
  passphrase: z
    .string({ error: "passphrase is required" })
    .min(MIN_PASSPHRASE_LENGTH, `passphrase: at least ${MIN_PASSPHRASE_LENGTH} characters`)
    .max(1024, "passphrase: at most 1024 characters"),
});

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

export const openapi = documented("/api/backup", "Team", {
  POST: {
    summary: "Download a backup",
    description: "Admins only (docs/decisions/0017): the same encrypted file as `npm run backup` and the Settings download, encrypted with `passphrase`.",
    body: backupBodySchema,
    example: { passphrase: "a long backup passphrase" },
    responses: {
      200: {
        description: "The backup file",
        contentType: "application/octet-stream",
        schema: z.string(),
        headers: { "Content-Disposition": "attachment; filename=…" },
      },
    },
  },
});
