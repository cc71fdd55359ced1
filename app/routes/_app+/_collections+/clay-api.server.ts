import type { z } from "zod";
import { ClayError } from "~/models/clay.server";
import { errorText } from "~/utils/errors";
import { requireApiAuth } from "~/utils/auth.server";
import { jsonError } from "~/utils/api.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";

/** The body of an /api/clay call: readJson's checks, then the schema; its message as is (400). */
export function readClayBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return readAccountBody(request, schema);
}

/** The operator making the call (apiRoute already checked there is one). */
export async function clayOperatorId(request: Request): Promise<string> {
  return (await requireApiAuth(request)).id;
}

/**
 * The answer of a failed /api/clay call: a ClayError keeps its status and text; a thrown
 * Response (readJson's 4xx) is answered as is; anything else is a 500 with the spec 2 §8 text.
 */
export function clayFailure(err: unknown, fallback: string): Response {
  if (err instanceof Response) return err;
  if (err instanceof ClayError) return jsonError(err.status, err.message);
  console.warn(`[api/clay] ${fallback}:`, errorText(err));
  return jsonError(500, fallback);
}
