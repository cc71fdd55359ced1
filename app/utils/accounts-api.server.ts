import { UserError } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import { jsonError } from "./api.server";

/**
 * The answer of a failed accounts call (spec 2 §7 "Characters"): a UserError keeps its
 * status and text; a thrown Response (503 job engine offline, readJson's 4xx) is answered as
 * is; anything else is a 500 with the spec 2 §8 fallback text of the call.
 */
export function accountFailure(err: unknown, fallback: string): Response {
  if (err instanceof Response) return err;
  if (err instanceof UserError) return jsonError(err.status, err.message);
  console.warn(`[api/accounts] ${fallback}:`, errorText(err));
  return jsonError(500, fallback);
}
