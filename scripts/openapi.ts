/**
 * npm run openapi -- [file]    the /api's OpenAPI 3.1 document (docs/api.md), without a running app
 *
 * Writes the same document GET /api/openapi.json serves (built from the routes' registrations
 * and zod schemas) to <file>, or to stdout. Then, for a typed client:
 *   npx openapi-typescript openapi.json -o galaxy-toolbox-api.d.ts
 */
import fs from "node:fs";
import { apiRouteModulesFromTable } from "~/utils/openapi-modules.server";
import { openApiDocumentOf } from "~/utils/openapi.server";

const file = process.argv[2];
const routes = await apiRouteModulesFromTable();
const text = JSON.stringify(openApiDocumentOf(Object.fromEntries(routes.map((r) => [r.file, r.module]))), null, 2) + "\n";
if (file) {
  fs.writeFileSync(file, text);
  console.log(`Wrote ${file}`);
} else process.stdout.write(text);
process.exit(0);
