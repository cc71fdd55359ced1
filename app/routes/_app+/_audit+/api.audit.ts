import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseAuditQuery, type AuditListDto } from "#api/audit";
import { listAudit, toAuditDto } from "~/models/audit.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/audit?operator&action&from&to&page&limit (issue 21; docs/decisions/0016)
 * → { entries: [{ _id, at, operator, token, action, target, details }], page, limit, hasMore },
 * newest first. Every role may read it.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const parsed = parseAuditQuery(new URL(request.url).searchParams);
  if ("error" in parsed) return jsonError(400, parsed.error);
  const { entries, page, limit, hasMore } = await listAudit(parsed.query);
  return Response.json({ entries: entries.map(toAuditDto), page, limit, hasMore } satisfies AuditListDto);
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
