export type RequestOptions = {
  method?: string;
  /** Cookie header: one `name=value` pair or several (joined with "; "). */
  cookie?: string | string[];
  /** API token, sent as `Authorization: Bearer …`. */
  token?: string;
  headers?: Record<string, string>;
  /** A JSON body (content-type application/json); implies POST unless `method` says otherwise. */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded), as a browser without JavaScript posts it; implies POST. */
  form?: Record<string, string> | URLSearchParams | [string, string][];
  /** Search params added to the URL. */
  query?: Record<string, string> | URLSearchParams;
};

export const TEST_ORIGIN = "http://localhost";

/** A real `Request` for a loader, an action or a request handler: `makeRequest("/logs", { cookie, query: { type: "error" } })`. */
export function makeRequest(pathOrUrl: string, options: RequestOptions = {}): Request {
  const url = new URL(pathOrUrl, TEST_ORIGIN);
  if (options.query) for (const [k, v] of new URLSearchParams(options.query)) url.searchParams.append(k, v);
  const headers = new Headers(options.headers);
  const cookies = [options.cookie ?? []].flat().filter(Boolean);
  if (cookies.length) headers.set("Cookie", cookies.join("; "));
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  } else if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/x-www-form-urlencoded");
  }
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  return new Request(url, { method, headers, body });
}

/** The arguments Remix passes a loader or an action. */
export function routeArgs(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: {} };
}

/** What a loader or action answered, whichever way it answered. */
export type RouteAnswer<T = unknown> = {
  status: number;
  headers: Headers;
  /** `data(...)`/plain return values as they are; a Response's JSON body; else undefined. */
  data: T;
  /** Set when the route answered with (or threw) a Response. */
  response?: Response;
};

/**
 * Calls a loader or action and normalises its answer: a returned or thrown Response
 * (redirects, 4xx), a `data(value, init)` result, or a plain value. Anything else thrown
 * is a real error and propagates.
 */
export async function callRoute<T = unknown>(
  fn: (args: ReturnType<typeof routeArgs>) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<RouteAnswer<T>> {
  let out: unknown;
  try {
    out = await fn(routeArgs(request, params));
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isDataResult(thrown)) throw thrown;
    out = thrown;
  }
  if (out instanceof Response) {
    const isJson = (out.headers.get("content-type") ?? "").includes("json");
    return { status: out.status, headers: out.headers, data: (isJson ? await out.clone().json() : undefined) as T, response: out };
  }
  if (isDataResult(out)) {
    return { status: out.init?.status ?? 200, headers: new Headers(out.init?.headers), data: out.data as T };
  }
  return { status: 200, headers: new Headers(), data: out as T };
}

type DataResult = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
function isDataResult(v: unknown): v is DataResult {
  return !!v && typeof v === "object" && (v as { type?: unknown }).type === "DataWithResponseInit";
}

/**
 * The JSON body of a Response, after checking its status and content type; a mismatch
 * fails with the body in the message, which is what one wants to read first.
 */
export async function readJson<T = unknown>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`Expected status ${status}, got ${res.status}: ${text.slice(0, 500)}`);
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) throw new Error(`Expected a JSON answer, got "${type}": ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** The cookies a response sets, as a Cookie header for the next request. */
export function cookiesOf(res: Response | Headers): string {
  const headers = res instanceof Response ? res.headers : res;
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

/**
 * The toast an answer gives: a fetcher answer's own (`toast` in its data: jsonWithSuccess & co.),
 * else the flash a response sets (remix-toast: base64 JSON in the toast-session cookie), decoded.
 */
export function toastOf(res: Response | Headers | RouteAnswer): { message: string; type: string; description?: string } | undefined {
  if (!(res instanceof Response) && !(res instanceof Headers)) {
    const carried = (res.data as { toast?: { message: string; type: string; description?: string } } | null | undefined)?.toast;
    if (carried && typeof carried === "object") {
      const { message, type, description } = carried;
      return description === undefined ? { message, type } : { message, type, description };
    }
    res = res.headers;
  }
  const headers = res instanceof Response ? res.headers : res;
  const raw = headers.getSetCookie().find((c) => c.startsWith("toast-session="));
  if (!raw) return undefined;
  const value = decodeURIComponent(raw.split(";")[0]!.slice("toast-session=".length)).replace(/\.$/, "");
  return JSON.parse(Buffer.from(value, "base64").toString("utf8")).__flash_flash__?.toast;
}
