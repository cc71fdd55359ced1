import { z } from "zod";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.openapi[.]json.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/openapi.json", "System", {
  GET: {
    summary: "This document",
    description:
      "The OpenAPI 3.1 document of every /api operation, generated from the zod schemas the routes validate with. " +
      "Built once per process; sent with an `ETag` (a matching `If-None-Match` gets 304). Generate a typed client with " +
      "`npx openapi-typescript openapi.json -o galaxy-toolbox-api.d.ts` (docs/api.md).",
    responses: {
      200: z
        .looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
        .describe("The OpenAPI document"),
    },
  },
});
