/**
 * List state in the URL (CONVENTIONS rule 6), one way for every section: a zod object
 * schema names the params a page owns and their defaults; `parseSearchParams` reads them
 * (a bad or missing value falls back to its default, so a stale bookmark still opens the
 * page), `buildSearchParams` writes them back omitting defaults, in the schema's key order,
 * keeping params the schema does not own. Client-safe.
 *
 *   const LogsParams = z.object({ type: z.enum(LOG_TYPES).optional().catch(undefined), auto: flag() });
 *   const p = parseSearchParams(LogsParams, url.searchParams);   // { type?: LogType, auto: boolean }
 *   const href = `/logs${searchString(buildSearchParams(LogsParams, { ...p, auto: true }))}`;
 *
 * Wire form: strings as they are, booleans as `1` (absent = false), arrays as repeated params.
 * Give every field a default (`.catch(…)`, `.optional()`, `flag()`, `repeated()`), since
 * `parseSearchParams(schema, new URLSearchParams())` is what "default" means.
 */
import { z } from "zod";

type Shape = z.ZodRawShape;

/** A boolean param: `1` is true, anything else (or absent) false. */
export function flag() {
  return z.preprocess((v) => v === "1" || v === true, z.boolean());
}

/** A repeated param (`open=a&open=b`) as a list without blanks or repeats; absent = []. */
export function repeated<T extends z.ZodType<string>>(item: T) {
  return z.preprocess((v) => [...new Set((v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((s) => s !== ""))], z.array(item)).catch([]);
}

/** A free-text param, "" when absent. */
export function text() {
  return z.string().catch("");
}

function rawValues<S extends Shape>(schema: z.ZodObject<S>, params: URLSearchParams): Record<string, string | string[] | undefined> {
  const raw: Record<string, string | string[] | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const values = params.getAll(key);
    raw[key] = values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
  }
  return raw;
}

/** The page's state from its URL, every bad or missing value replaced by its default. */
export function parseSearchParams<S extends Shape>(schema: z.ZodObject<S>, params: URLSearchParams): z.output<z.ZodObject<S>> {
  const parsed = schema.safeParse(rawValues(schema, params));
  if (parsed.success) return parsed.data;
  // A field without its own fallback failed: keep the good ones, default the rest.
  const defaults = schema.parse({});
  const out: Record<string, unknown> = { ...defaults };
  const raw = rawValues(schema, params);
  for (const [key, field] of Object.entries(schema.shape)) {
    const one = (field as z.ZodType).safeParse(raw[key]);
    if (one.success) out[key] = one.data;
  }
  return out as z.output<z.ZodObject<S>>;
}

function wire(value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  if (value === true) return ["1"];
  if (Array.isArray(value)) return value.flatMap(wire);
  return [String(value)];
}

/**
 * `value` as search params: fields equal to their default are left out; params the schema
 * does not own are kept from `base` (other widgets' state on the same page).
 */
export function buildSearchParams<S extends Shape>(
  schema: z.ZodObject<S>,
  value: Partial<z.output<z.ZodObject<S>>>,
  base?: URLSearchParams | string,
): URLSearchParams {
  const params = new URLSearchParams(base);
  const defaults = schema.parse({}) as Record<string, unknown>;
  for (const key of Object.keys(schema.shape)) {
    params.delete(key);
    const v = (value as Record<string, unknown>)[key];
    const out = wire(v);
    if (JSON.stringify(out) === JSON.stringify(wire(defaults[key]))) continue;
    for (const item of out) params.append(key, item);
  }
  return params;
}

/** `?a=1&b=2`, or "" when there is nothing to say. */
export function searchString(params: URLSearchParams): string {
  const s = params.toString();
  return s ? `?${s}` : "";
}
