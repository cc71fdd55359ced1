import type { z } from "zod";
import { requireApiAuth } from "~/http/auth.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";

/** The body of an /api/clay call: readJson's checks, then the schema; its message as is (400). */
export function readClayBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return readAccountBody(request, schema);
}

/** The operator making the call (apiRoute already checked there is one). */
export async function clayOperatorId(request: Request): Promise<string> {
  return (await requireApiAuth(request)).id;
}
