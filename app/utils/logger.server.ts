/**
 * The process log (issue 31 item 4; docs/deploy.md "Logs"). By default the quiet human log:
 * the `console` lines the code has always written, unchanged. With `LOG_FORMAT=json` every
 * process (web, worker, CLIs that call `installLogger`) writes one JSON object a line through
 * pino: every `console.*` call is routed through it, every System Logs entry is a line too,
 * and each line carries what applies of its context — the request id and operator (the web's
 * requests), the purpose and account (a session's runner) — from an AsyncLocalStorage scope.
 * Values under secret-looking keys are redacted by the audit trail's rule (app/utils/redact.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import util from "node:util";
import pino, { type Logger } from "pino";
import { getEnv } from "./env.server";
import { scrubLogText } from "./errors";
import { redact } from "./redact";
import { remember } from "./remember.server";

export type LogContext = { requestId?: string; operator?: string; purpose?: string; accountId?: string };

const g = remember("process-logger", (): { storage: AsyncLocalStorage<LogContext>; logger: Logger | null } => ({
  storage: new AsyncLocalStorage<LogContext>(),
  logger: null,
}));

/** Runs `fn` with these fields on every log line it (and what it starts) writes. */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return g.storage.run({ ...g.storage.getStore(), ...ctx }, fn);
}

/** Adds fields to the current scope (the operator, once the login gate knows them). */
export function addLogContext(ctx: LogContext): void {
  const store = g.storage.getStore();
  if (store) Object.assign(store, ctx);
}

export function logContext(): LogContext {
  return g.storage.getStore() ?? {};
}

/** Builds the JSON logger (exported for tests: they hand it a stream). */
export function createJsonLogger(stream?: pino.DestinationStream): Logger {
  return pino(
    {
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Every line: its scope's request id, operator, purpose, account (those that apply).
      mixin: () => ({ ...logContext() }),
    },
    stream ?? pino.destination({ dest: 1, sync: true }),
  );
}

type Level = "debug" | "info" | "warn" | "error";

/** One structured line (only with LOG_FORMAT=json; the human log has its console lines already). */
export function structuredLog(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  g.logger?.[level](redact(fields) as Record<string, unknown>, message);
}

/** A console call as one line: the text as console would print it, an Error's name and stack apart. */
function consoleLine(level: Level, args: unknown[]): void {
  const logger = g.logger;
  if (!logger) return;
  const err = args.find((a): a is Error => a instanceof Error);
  const text = scrubLogText(util.format(...args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : a))));
  logger[level](err ? { error: { type: err.name, message: scrubLogText(err.message), stack: err.stack } } : {}, text);
}

/**
 * Routes this process's console through pino when LOG_FORMAT=json (once per process; a no-op
 * otherwise). Call first thing in every entry.
 */
const ORIGINAL = { log: console.log, info: console.info, debug: console.debug, warn: console.warn, error: console.error };

export function installLogger(opts: { stream?: pino.DestinationStream } = {}): void {
  if (getEnv().LOG_FORMAT !== "json" || g.logger) return;
  g.logger = createJsonLogger(opts.stream);
  console.log = (...a: unknown[]) => consoleLine("info", a);
  console.info = (...a: unknown[]) => consoleLine("info", a);
  console.debug = (...a: unknown[]) => consoleLine("debug", a);
  console.warn = (...a: unknown[]) => consoleLine("warn", a);
  console.error = (...a: unknown[]) => consoleLine("error", a);
}

/** Back to the human console (tests). */
export function uninstallLogger(): void {
  g.logger = null;
  Object.assign(console, ORIGINAL);
}

const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Express middleware: a request id (the caller's X-Request-Id when sane, else a new one), answered back and on every line. */
export function requestLogContext() {
  return (req: { headers: Record<string, string | string[] | undefined> }, res: { setHeader(k: string, v: string): void }, next: () => void) => {
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    res.setHeader("X-Request-Id", requestId);
    withLogContext({ requestId }, next);
  };
}
