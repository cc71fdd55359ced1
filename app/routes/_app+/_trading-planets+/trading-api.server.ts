import { z } from "zod";
import { PLANET_NAME_RULE } from "#api/planet-name";
import { TRADING_ERRORS } from "#api/trading";
import { TradingError } from "~/models/planet-sequence.server";
import { jsonError, readJson, zodMessage } from "~/utils/api.server";

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
  throw jsonError(400, first && SPEC_TEXTS.has(first) ? first : zodMessage(parsed.error));
}

/** Answers a model's TradingError with its status and text; anything else is the call's default §8 text (500). */
export function tradingFailure(err: unknown, fallback: string): Response {
  if (err instanceof Response) throw err;
  if (err instanceof TradingError) return jsonError(err.status, err.message);
  console.warn(`[trading] ${fallback}:`, (err as Error)?.name ?? typeof err);
  return jsonError(500, fallback);
}
