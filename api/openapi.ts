/**
 * The /api contract as an OpenAPI 3.1 document (issue 33; docs/api.md, docs/decisions/0038).
 *
 * Every /api resource route `app/routes/…/api.x.ts` has its registration beside it,
 * `api.x.openapi.server.ts`: `export const openapi = documented("/api/…", tag, { GET: {…}, … })`,
 * naming the zod schemas the route parses requests with and the zod schemas of its answers
 * (a file, not an export of the route module: decision 0038). `buildOpenApiDocument` turns those registrations into the document
 * with zod 4's own JSON Schema output (draft 2020-12, which OpenAPI 3.1 uses as it is): no
 * schema is written twice. tests/openapi/contract.test.ts calls every operation against the
 * app and validates each answer against the document with ajv, and fails a route module that
 * has no registration, so the document cannot drift from the code.
 *
 * Plain zod, no server imports: the script that writes the document to a file
 * (scripts/openapi.ts) and the tests load it as well as the route that serves it.
 */
import { z } from "zod";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The body of every /api error: the same human text in both fields (spec 1 reads `error`, spec 2 `message`). */
export const apiErrorSchema = z
  .looseObject({
    error: z.string().describe("What went wrong, in words for a person (the text the screens show)."),
    message: z.string().describe("The same text as `error`."),
  })
  .describe("Every /api error answer. Some carry extra fields (e.g. the stalker's state on a 502).");

/** A 2xx answer: a JSON schema, or another media type (an event stream, a file, a page). */
export type Answer = z.ZodType | { description: string; schema?: z.ZodType; contentType: string | string[]; headers?: Record<string, string> };

export type Operation = {
  /** One line; shown as the operation's title. */
  summary: string;
  /** The spec's text where it gives one (quote it), else what a caller must know. */
  description?: string;
  /** Path parameters (`{id}` in the path), one zod string schema each. */
  params?: z.ZodObject;
  /** Query parameters. */
  query?: z.ZodObject;
  /** The JSON body, parsed by this same schema in the route. */
  body?: z.ZodType;
  /** A valid body (shown in the reference page; the contract test sends it). */
  example?: unknown;
  /** Whether a body is required (default: true when `body` is given). */
  bodyRequired?: boolean;
  /** 2xx answers by status. */
  responses: Partial<Record<200 | 201 | 202 | 204, Answer>>;
  /**
   * Error statuses this operation answers beyond the ones every operation has (400 for bad
   * input, 401, 403 on writes, 413/415 with a body, 500, 503), each with its meaning: e.g.
   * `{ 404: "No pair has that id" }`. All carry `{ error, message }`.
   */
  errors?: Partial<Record<number, string>>;
  /** Readable without credentials (none today: the whole /api needs an operator). */
  public?: boolean;
};

export type RouteDoc = {
  /** OpenAPI path: `/api/rates/{id}` for the route file `api.rates.$id.ts`. */
  path: string;
  /** Section tag (the spec's section name). */
  tag: string;
  operations: Partial<Record<HttpMethod, Operation>>;
  /** Set by `notAnOperation`: why a route module serves nothing to document. */
  reason?: string;
};

/** The registration a route module exports as `openapi`. */
export function documented(path: string, tag: string, operations: Partial<Record<HttpMethod, Operation>>): RouteDoc {
  return { path, tag, operations };
}

/** For a route module that serves no operation of its own (the /api catch-all): why it has none. */
export function notAnOperation(reason: string): RouteDoc {
  return { path: "", tag: "", operations: {}, reason };
}

/** Sections (tags), in the order the reference page lists them. */
export const TAGS: Array<{ name: string; description: string }> = [
  { name: "Exchange rates", description: 'Spec 1 §3–§7 "Rates": gift exchange rates, flat or tiered.' },
  { name: "Bowling", description: 'Spec 1 §7 "Bowling users", "Companions": bowling accounts, companions, statistics.' },
  { name: "Galaxy", description: "Spec 1 §7: user details read from the Galaxy platform, user agents." },
  { name: "Characters", description: 'Spec 2 §7 "Characters": accounts, categories, stalker sessions.' },
  { name: "Summary", description: 'Spec 2 "Summary": gift rates and bowling award totals.' },
  { name: "Trading planets", description: 'Spec 2 §7 "Trading planets": sequences, custom planets, ads, the trader.' },
  { name: "GalaCord", description: 'Spec 2 §7 "GalaCord": the Discord relay bot and its connections.' },
  { name: "Collections", description: 'Spec 2 §7 "Collections": clay collection calls for one account.' },
  { name: "Logs", description: 'Spec 2 §7 "Logs": System Logs.' },
  { name: "Team", description: "Operators' audit trail and backups (issues 21, 28; docs/auth.md)." },
  { name: "System", description: "Health, the job pipeline probe, the live-event stream and this contract." },
];

const STANDARD_ERRORS: Record<number, string> = {
  400: "Bad input: the text names the field and the rule (nothing changed)",
  401: "No valid session cookie or API token",
  403: "A viewer, or a read-only token, cannot change anything",
  413: "The body is larger than this route accepts",
  415: "The body is not `application/json`",
  500: "Something failed that should not have (the text is the route's own failure text)",
  503: "The database (or, for job routes, Redis) cannot be reached; `Retry-After` may say when to try again",
};

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** `post /api/rates/{id}` → `postRatesById`. */
export function operationId(method: HttpMethod, path: string): string {
  const words = path
    .replace(/^\/api\/?/, "")
    .split("/")
    .filter(Boolean)
    .flatMap((part) => (/^\{.+\}$/.test(part) ? ["by", part.slice(1, -1)] : part.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  return method.toLowerCase() + (words.length ? words.map(cap).join("") : "Root");
}

function parameters(op: Operation): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ["path", op.params],
    ["query", op.query],
  ] as const) {
    if (!schema) continue;
    const s = jsonSchema(schema, "input") as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === "path" || (s.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

function answer(a: Answer, status: number): Record<string, unknown> {
  if (a instanceof z.ZodType) {
    const schema = jsonSchema(a, "output");
    return {
      description: (schema.description as string | undefined) ?? (status === 201 ? "Created" : status === 202 ? "Accepted" : "OK"),
      content: { "application/json": { schema } },
    };
  }
  return {
    description: a.description,
    content: Object.fromEntries([a.contentType].flat().map((type) => [type, a.schema ? { schema: jsonSchema(a.schema, "output") } : {}])),
    ...(a.headers ? { headers: Object.fromEntries(Object.entries(a.headers).map(([k, d]) => [k, { description: d, schema: { type: "string" } }])) } : {}),
  };
}

/** The OpenAPI 3.1 document of these route registrations (sorted by path, so it is stable). */
export function buildOpenApiDocument(routes: RouteDoc[], info: { version: string }): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    if (!route.path) continue;
    if (paths[route.path]) throw new Error(`OpenAPI: ${route.path} is registered twice`);
    const item: Record<string, unknown> = {};
    for (const method of HTTP_METHODS) {
      const op = route.operations[method];
      if (!op) continue;
      const write = method !== "GET";
      const errors: Record<number, string | undefined> = {
        ...(op.body || op.query || op.params ? { 400: STANDARD_ERRORS[400]! } : {}),
        ...(op.public ? {} : { 401: STANDARD_ERRORS[401]! }),
        ...(write && !op.public ? { 403: STANDARD_ERRORS[403]! } : {}),
        ...(op.body ? { 413: STANDARD_ERRORS[413]!, 415: STANDARD_ERRORS[415]! } : {}),
        500: STANDARD_ERRORS[500]!,
        503: STANDARD_ERRORS[503]!,
      };
      for (const [status, text] of Object.entries(op.errors ?? {})) errors[Number(status)] = text;
      const responses: Record<string, unknown> = {};
      for (const [status, a] of Object.entries(op.responses)) responses[status] = answer(a as Answer, Number(status));
      for (const [status, text] of Object.entries(errors)
        .filter(([, t]) => t)
        .sort(([a], [b]) => Number(a) - Number(b))) {
        responses[status] = { description: text, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
      }
      const params = parameters(op);
      item[method.toLowerCase()] = {
        operationId: operationId(method, route.path),
        tags: [route.tag],
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        ...(params.length ? { parameters: params } : {}),
        ...(op.body
          ? {
              requestBody: {
                required: op.bodyRequired ?? true,
                content: { "application/json": { schema: jsonSchema(op.body, "input"), ...(op.example !== undefined ? { example: op.example } : {}) } },
              },
            }
          : {}),
        responses,
        ...(op.public ? { security: [] } : {}),
      };
    }
    paths[route.path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Galaxy Toolbox API",
      version: info.version,
      summary: "The /api of Galaxy Toolbox: the specs' contract, roles, tokens, audit, backup and the live stream.",
      description: [
        "Every call needs an operator: the browser's session cookie (`gt_session`) or an API token",
        "(`Authorization: Bearer gtk_…`, made on Settings → API tokens or with `npm run operator -- token`).",
        "A viewer or a read-only token may read but not write (403).",
        "Every error answer is JSON `{ error, message }` with the same human text in both fields.",
        "See docs/api.md for generating a typed client.",
      ].join(" "),
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/", description: "This Galaxy Toolbox" }],
    security: [{ sessionCookie: [] }, { bearerToken: [] }],
    tags: TAGS,
    paths,
    components: {
      schemas: { Error: jsonSchema(apiErrorSchema, "output") },
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "gt_session", description: "The session of an operator signed in through /login." },
        bearerToken: { type: "http", scheme: "bearer", bearerFormat: "gtk_…", description: "An API token (`gtk_…`) from Settings → API tokens." },
      },
    },
  };
}
