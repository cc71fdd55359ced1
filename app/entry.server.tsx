/**
 * Remix's server entry, plus the one door through which the web process reaches the app's
 * long-lived services (docs/decisions/0007): server.ts imports the Remix build and takes
 * `startServices`, `mountServerRoutes` and `onListening` from `build.entry.module`, so the
 * Express layer (auth gate, queue board, job runtime) and the routes share one copy of
 * every module — one database pool, one Redis registry, one auth context.
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/utils/nonce";
import { scriptErrorAnswer } from "~/http/refusal.server";

export {
  compressionWhereItPays,
  createHttpServer,
  expressErrorHandler,
  guardBuild,
  immutableAssets,
  installLogger,
  mountRequestHygiene,
  mountServerRoutes,
  onListening,
  requestListener,
  requestLogContext,
  startServices,
} from "./boot.server";

/**
 * Errors Remix reports (a loader or action threw something that is not a Response, a
 * request it cannot serve). Its default prints the whole stack for each one: an
 * unauthenticated `?_data=` flood wrote ~960 bytes of stack trace per request to stdout
 * (issue 21). One line each, without the stack; aborted requests (the browser went away)
 * are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A 4xx the router answered itself (a method a route does not serve, an unknown route's
  // data): the caller's mistake, already answered; nothing to log.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const url = new URL(request.url);
  const message = error instanceof Error ? error.message.split("\n", 1)[0]!.slice(0, 200) : String(error).slice(0, 200);
  // Remix's own notices ("Warning: Single fetch-enabled apps should not be making ?_data
  // requests") are about the caller, not a fault of ours.
  if (message.startsWith("Warning:")) return void console.warn(`[remix] ${request.method} ${url.pathname}: ${message}`);
  console.error(`[remix] ${request.method} ${url.pathname}: ${error instanceof Error ? `${error.name}: ` : ""}${message}`);
};

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A script (no Accept: text/html) refused by a page gets { error, message }, not the error page (issue 28).
  const scripted = scriptErrorAnswer(request, responseStatusCode, remixContext.staticHandlerContext);
  if (scripted) return scripted;
  const nonce = typeof loadContext?.cspNonce === "string" ? loadContext.cspNonce : "";
  // Bots (and no-JS crawlers) get the whole document at once; browsers get the shell early.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject and are logged by Remix; later ones only here.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1_000);
  });
}
