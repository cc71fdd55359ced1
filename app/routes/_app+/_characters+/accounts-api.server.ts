import { z } from "zod";
import { readJson } from "~/http/api.server";
import { AppError } from "~/utils/app-error";

/**
 * readJson (size cap, content type, malformed JSON, NUL) then the accounts schema, whose
 * messages are the texts the UI shows as they are (no "field: " prefix): 400 with the
 * first issue's message.
 */
export async function readAccountBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const body: unknown = await readJson(request, z.unknown());
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? "Invalid request");
  return parsed.data;
}
