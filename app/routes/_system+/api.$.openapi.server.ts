import { notAnOperation } from "#api/openapi";

/** The OpenAPI registration of api.$.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = notAnOperation("The /api catch-all: any path no route serves answers 404 `{error, message}`.");
