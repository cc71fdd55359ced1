/**
 * The one error type from model to edge (issue 19 B.1, docs/decisions/0023): a failure the
 * operator or the API client is meant to read, with the HTTP status it answers with.
 *
 * Models, the jobs layer and the request readers throw it; nothing between them and the edge
 * translates it. The edge maps it once:
 * - `/api` routes: `apiRoute` (app/http/api.server.ts) answers `{ error, message }` with the
 *   same text, the status, the error's headers (e.g. `Retry-After`) and its extra body fields;
 * - page actions: `pageAction` (app/http/page-action.server.ts) answers the fetcher outcome
 *   `{ ok: false, message }` with the status, or the no-JS redirect with an error toast.
 *
 * Anything else thrown is ours: logged, and answered 500 with the route's failure text.
 */
export type AppErrorOptions = {
  /** Response headers of the answer, e.g. `{ "Retry-After": "5" }`. */
  headers?: Record<string, string>;
  /** Extra fields of the /api JSON body next to `error` and `message` (e.g. `holder` of a 409). */
  body?: Record<string, unknown>;
  /** The posted field the refusal is about: a page shows the text next to it (issue 30 A6). */
  field?: string;
};

export class AppError extends Error {
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
  readonly field: string | undefined;

  constructor(
    readonly status: number,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = "AppError";
    this.headers = options.headers ?? {};
    this.body = options.body ?? {};
    this.field = options.field;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
