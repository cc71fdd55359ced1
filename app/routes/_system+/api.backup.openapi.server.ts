import { z } from "zod";
import { documented } from "#api/openapi";
import { backupBodySchema } from "~/models/backup.server";

/** The OpenAPI registration of api.backup.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
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
