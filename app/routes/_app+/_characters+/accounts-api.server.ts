import { AccountHeldError } from "~/models/session.server";
import { UserError } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import { z } from "zod";
import { jsonError, readJson } from "~/utils/api.server";

/**
 * readJson (size cap, content type, malformed JSON, NUL) then the accounts schema, whose
 * messages are the texts the UI shows as they are (no "field: " prefix): 400 with the
 * first issue's message.
 */
export async function readAccountBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const body: unknown = await readJson(request, z.unknown());
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw jsonError(400, parsed.error.issues[0]?.message ?? "Invalid request");
  return parsed.data;
}

/**
 * The answer of a failed accounts call (spec 2 §7 "Characters"): a UserError keeps its
 * status and text; a thrown Response (503 job engine offline, readJson's 4xx) is answered as
 * is; anything else is a 500 with the spec 2 §8 fallback text of the call.
 */
export function accountFailure(err: unknown, fallback: string): Response {
  if (err instanceof Response) return err;
  if (err instanceof AccountHeldError) return heldError(err);
  if (err instanceof UserError) return jsonError(err.status, err.message);
  console.warn(`[api/accounts] ${fallback}:`, errorText(err));
  return jsonError(500, fallback);
}

/** 409 with who holds the account (docs/sessions.md): send `takeover: true` to take it over. */
export function heldError(err: AccountHeldError): Response {
  const { purpose, key, accountId, actual, since } = err.holder;
  return Response.json(
    { error: err.message, message: err.message, holder: { purpose, key, accountId, actual, since } },
    { status: 409, headers: { "Cache-Control": "no-store" } },
  );
}
