/**
 * List state in the URL (CONVENTIONS rule 6), one way for every section: a schema names
 * the params a page owns, each with its default; `parseSearchParams` reads them (a bad,
 * missing or repeated value falls back to its default, so a stale bookmark still opens the
 * page), `buildSearchParams` writes them back leaving defaults out, in the schema's key
 * order, keeping params the schema does not own. Client-safe.
 *
 *   const LogsParams = { type: oneOf(LOG_TYPES), auto: flag() };
 *   const p = parseSearchParams(LogsParams, url.searchParams);   // { type?: LogType, auto: boolean }
 *   const href = `/logs${searchString(buildSearchParams(LogsParams, { ...p, auto: true }))}`;
 *
 * Wire form: strings as they are, booleans as `1` (absent = false), lists as repeated params.
 *
 * Deliberately not zod: this runs on every section's first load, and zod was the largest
 * part of it (bench/README.md "First-load weight": /logs 171 → under 150 kB gzip). The
 * fields below cover what list state needs; forms keep their zod schemas.
 */
export type Field<T> = {
  /** The value from the param's raw values (`getAll`), its default when they do not fit. */
  read(values: string[]): T;
  /** The raw values for a value; [] writes nothing. */
  write(value: T): string[];
};

type Schema = Record<string, Field<unknown>>;
export type ParamsOf<S extends Schema> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** A free-text param: its one value, "" when absent or repeated. */
export function text(): Field<string> {
  return { read: (v) => (v.length === 1 ? v[0]! : ""), write: (v) => (v ? [v] : []) };
}

/** A boolean param: `1` is true, anything else (or absent) false. */
export function flag(): Field<boolean> {
  return { read: (v) => v.length === 1 && v[0] === "1", write: (v) => (v ? ["1"] : []) };
}

/** One of a fixed list of values, undefined when absent, unknown or repeated. */
export function oneOf<V extends string>(values: readonly V[]): Field<V | undefined> {
  return { read: (v) => (v.length === 1 ? values.find((x) => x === v[0]) : undefined), write: (v) => (v ? [v] : []) };
}

/** A repeated param (`open=a&open=b`) as a list without blanks or repeats; absent = []. */
export function repeated(): Field<string[]> {
  return { read: (v) => [...new Set(v.filter((s) => s !== ""))], write: (v) => [...new Set(v.filter((s) => s !== ""))] };
}

/** The page's state from its URL, every bad or missing value replaced by its default. */
export function parseSearchParams<S extends Schema>(schema: S, params: URLSearchParams): ParamsOf<S> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema)) out[key] = field.read(params.getAll(key));
  return out as ParamsOf<S>;
}

/**
 * `value` as search params: fields at their default are left out; params the schema does
 * not own are kept from `base` (other widgets' state on the same page).
 */
export function buildSearchParams<S extends Schema>(schema: S, value: Partial<ParamsOf<S>>, base?: URLSearchParams | string): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const [key, field] of Object.entries(schema)) {
    params.delete(key);
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    for (const item of field.write(v)) params.append(key, item);
  }
  return params;
}

/** `?a=1&b=2`, or "" when there is nothing to say. */
export function searchString(params: URLSearchParams): string {
  const s = params.toString();
  return s ? `?${s}` : "";
}

/**
 * A route's `shouldRevalidate` for URL parameters its loader does not read (dialogs, filters
 * and expanded rows the browser renders from the URL): GET navigations that change only
 * those keep the data; anything else (a post, another path, other parameters) revalidates as
 * Remix would.
 */
export function keepDataForUrlOnlyParams(names: readonly string[]) {
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search);
    for (const name of names) params.delete(name);
    params.sort();
    return params.toString();
  };
  return ({
    currentUrl,
    nextUrl,
    formMethod,
    defaultShouldRevalidate,
  }: {
    currentUrl: URL;
    nextUrl: URL;
    formMethod?: string;
    defaultShouldRevalidate: boolean;
  }): boolean => {
    if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
    if (currentUrl.pathname !== nextUrl.pathname || currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
    return rest(currentUrl) === rest(nextUrl) ? false : defaultShouldRevalidate;
  };
}
