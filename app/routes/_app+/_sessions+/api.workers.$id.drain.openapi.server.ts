import { z } from "zod";
import { drainAnswerSchema } from "#api/operations-schemas";
import { documented } from "#api/openapi";

const params = z.object({ id: z.string().max(200).describe("The worker's id, as GET /api/workers lists it") });

/** The OpenAPI registration of api.workers.$id.drain.ts (issues 31, 33; docs/api.md). */
export const openapi = documented("/api/workers/{id}/drain", "System", {
  POST: {
    summary: "Drain a worker: hand its sessions over, then take no new ones",
    description:
      "As on SIGTERM, without exiting: each session logs out (QUIT) and another worker logs it in, so the platform kicks nothing. " +
      "It takes no new sessions until undrained (DELETE) or restarted. Operators and admins.",
    params,
    responses: { 202: drainAnswerSchema },
    errors: { 404: "No live worker has that id" },
  },
  DELETE: {
    summary: "Undrain a worker: it takes sessions again",
    params,
    responses: { 200: drainAnswerSchema },
    errors: { 404: "No live worker has that id" },
  },
});
