import { clayCredentialsSchema } from "#api/collections-schemas";
import { documented } from "#api/openapi";
import { z } from "zod";
import { collectionStatusSchema } from "#api/responses";

/** The OpenAPI registration of api.clay.collection.$id.status.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/clay/collection/{id}/status", "Collections", {
  POST: {
    summary: "A collection's status",
    description: 'Spec 2 §7 "Collections": the set\'s two rows. Header `X-Skip-Cache: true` asks for a fresh platform call.',
    params: z.object({ id: z.string().describe("The collection set id (151, 161 or 178)") }),
    body: clayCredentialsSchema,
    example: { userID: "11111111", password: "secret" },
    responses: { 200: collectionStatusSchema },
    errors: { 404: "Unknown collection set", 429: "Too many calls for this account; try again shortly", 502: "The Galaxy platform refused or failed the call" },
  },
});
