import { z } from "zod";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.docs.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/docs", "System", {
  GET: {
    summary: "The reference page",
    description: "This document rendered in the browser (Swagger UI, served by the app itself: no CDN).",
    responses: { 200: { description: "An HTML page", contentType: "text/html", schema: z.string() } },
  },
});
