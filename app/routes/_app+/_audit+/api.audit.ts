import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseAuditQuery, type AuditListDto } from "#api/audit";
import { listAudit, toAuditDto } from "~/models/audit.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/**
 * GET /api/audit?operator&action&target&from&to&before&after&limit (issues 21, 28;
 * docs/decisions/0016, 0025) → { entries: [{ _id, at, operator, token, action, target, details }],
 * page, limit, hasMore, next, prev }, newest first, keyset-paged (api/audit.ts). Every role may read it.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const parsed = parseAuditQuery(new URL(request.url).searchParams);
  if ("error" in parsed) return jsonError(400, parsed.error);
  const { entries, page, limit, hasMore, next, prev } = await listAudit(parsed.query);
  return Response.json({ entries: entries.map(toAuditDto), page, limit, hasMore, next, prev } satisfies AuditListDto);
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
