import { z } from "zod";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.docs.$file.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/docs/{file}", "System", {
  GET: {
    summary: "A file of the reference page",
    description: "Swagger UI's script, stylesheet and icon, and the page's initializer.",
    // The names docsAsset serves (app/utils/api-docs-page.server.ts); the contract test asks for each.
    params: z.object({ file: z.enum(["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "init.js"]).describe("The file's name") }),
    responses: { 200: { description: "The file", contentType: ["text/javascript", "text/css", "image/png"], schema: z.string() } },
    errors: { 404: "No such file" },
  },
});
