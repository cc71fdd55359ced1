import type { LoaderFunctionArgs } from "@remix-run/node";
import { liveBusUp, onLive, type LiveMessage } from "#jobs/live.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { requireApiAuth } from "~/utils/auth.server";
import { admitLiveStream, onClientGone } from "~/utils/stream-limits.server";
import { streamDegraded } from "~/utils/degrade.server";

/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * GET /api/events (api/live.ts; docs/live.md): the live-event stream of one browser tab.
 * Every change published on the Redis bus by any process arrives here within milliseconds;
 * per-operator events only reach their operator. `Cache-Control: no-transform` keeps the
 * compression middleware from buffering it.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireApiAuth(request);
  // HEAD: Remix drops a HEAD answer's body unread, so a stream opened for it would never close.
  if (request.method === "HEAD") return new Response(null, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
  // A slot per stream, released on every way it ends (429 past the caps: stream-limits.server.ts).
  const slot = await admitLiveStream(request);
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const unsubscribe = onLive(
        (message: LiveMessage) => {
          if (message.operatorId && message.operatorId !== operator.id) return;
          const { operatorId: _omit, ...event } = message;
          send("live", event);
        },
        (up) => send(up ? "ready" : "offline", { at: Date.now() }),
      );
      // Which dependency of this process is down, now and on every change (decision 0029).
      const stopDegraded = streamDegraded(send);
      const heartbeat = setInterval(() => write(`: keepalive ${Date.now()}\n\n`), HEARTBEAT_MS);
      // Reconnect a dropped stream after 2 s (the browser's EventSource honours `retry`).
      write("retry: 2000\n\n");
      // A process's first stream waits for its subscriber to connect: "offline" only if it does not soon.
      let startup: ReturnType<typeof setTimeout> | undefined;
      if (liveBusUp()) send("ready", { at: Date.now() });
      else startup = setTimeout(() => liveBusUp() || send("offline", { at: Date.now() }), 1_000);
      const close = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        clearTimeout(startup);
        unsubscribe();
        slot.release();
        stopDegraded();
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      };
      cleanup = close;
      // The socket's close, not only request.signal (which can stop following it): stream-limits.server.ts.
      onClientGone(request, close);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
