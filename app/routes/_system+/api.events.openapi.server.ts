import { documented } from "#api/openapi";
import { z } from "zod";

/** The OpenAPI registration of api.events.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/events", "System", {
  GET: {
    summary: "The live-event stream",
    description:
      "Server-sent events (docs/live.md): every change any process publishes arrives within milliseconds, as `data: {topic, …}` lines " +
      "(api/live.ts lists the topics); per-operator events reach only their operator. `since`: the live sequence a page was rendered at " +
      "(its root loader's `liveSeq`); the first `event: ready` then says `missed: true` or `false`, whether anything was published since.",
    query: z.object({ since: z.coerce.number().int().min(0).optional().describe("The live sequence the page's data is as of") }),
    responses: { 200: { description: "An endless event stream", contentType: "text/event-stream", schema: z.string() } },
    errors: { 429: "Too many open streams" },
  },
});
