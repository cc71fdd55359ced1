import { z } from "zod";
import { PLANET_NAME_RULE } from "#api/planet-name";
import { TRADING_ERRORS } from "#api/trading";
import { readJson, zodMessage } from "~/http/api.server";
import { AppError } from "~/utils/app-error";

/** Also the platform's planet-name rule, answered as written (api/planet-name.ts). */
const SPEC_TEXTS = new Set<string>([...Object.values(TRADING_ERRORS), PLANET_NAME_RULE]);

/**
 * readJson for the trading routes: the spec 2 §5 validation texts ("Please enter a sequence
 * name", …) are answered exactly as written, without the field prefix other errors get.
 */
export async function readTradingJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const body = await readJson(request, z.unknown());
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0]?.message;
  throw new AppError(400, first && SPEC_TEXTS.has(first) ? first : zodMessage(parsed.error));
}
