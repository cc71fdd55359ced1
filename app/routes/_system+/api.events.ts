import type { LoaderFunctionArgs } from "@remix-run/node";
import { liveBusUp, liveSeq, onLive, type LiveMessage } from "~/queue/live.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/http/api.server";
import { requireApiAuth } from "~/http/auth.server";
import { admitLiveStream, onClientGone } from "~/http/stream-limits.server";
import { streamDegraded } from "~/http/degrade.server";

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
  const since = parseSince(new URL(request.url).searchParams.get("since"));
  if (since === undefined) return jsonError(400, SINCE_REFUSED);
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
      // The stream's first `ready`, opened with `since` (the sequence its page was rendered at),
      // says whether any event was published since: the listener is attached by then, so each
      // later event arrives here, and each earlier one is counted (docs/live.md "The first ready").
      let readies = 0;
      const ready = () => {
        if (readies++ > 0 || since === null) return send("ready", { at: Date.now() });
        void liveSeq().then((seq) => {
          if (liveBusUp()) send("ready", { at: Date.now(), missed: seq === null || seq > since });
        });
      };
      const unsubscribe = onLive(
        (message: LiveMessage) => {
          if (message.operatorId && message.operatorId !== operator.id) return;
          if (message.topic === "command") return; // a request's answer, not a page's data
          const { operatorId: _omit, ...event } = message;
          send("live", event);
        },
        (up) => (up ? ready() : send("offline", { at: Date.now() })),
      );
      // Which dependency of this process is down, now and on every change (decision 0029).
      const stopDegraded = streamDegraded(send);
      const heartbeat = setInterval(() => write(`: keepalive ${Date.now()}\n\n`), HEARTBEAT_MS);
      // Reconnect a dropped stream after 2 s (the browser's EventSource honours `retry`).
      write("retry: 2000\n\n");
      // A process's first stream waits for its subscriber to connect: "offline" only if it does not soon.
      let startup: ReturnType<typeof setTimeout> | undefined;
      if (liveBusUp()) ready();
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

const SINCE_REFUSED = "since must be a whole number of at least 0";

/** `?since=N`: the bus's sequence the page was rendered at (the root loader's `liveSeq`); null when absent, undefined when not a count. */
function parseSince(raw: string | null): number | null | undefined {
  if (raw === null) return null;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
