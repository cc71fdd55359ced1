/**
 * `npm start`: builds the app, then serves it on http://localhost:3000 with the embedded
 * defaults (PGlite in ./data, private Redis when none answers, in-process worker).
 * `npm start -- --demo`: also starts the Galaxy and Discord simulators, points the app at them
 * and, into an empty database, seeds the demo data (scripts/demo-seed.ts).
 */
import { buildApp, waitForServer } from "./build-app";

const demo = process.argv.includes("--demo") || process.env.DEMO === "1";
const skipBuild = process.argv.includes("--no-build");

process.env.NODE_ENV = "production";

if (!skipBuild) {
  buildApp();
}

const env = demo ? await (await import("./demo-env")).startDemoEnvironment() : null;

await import("../server");

if (env) {
  const port = Number(process.env.PORT ?? 3000);
  await waitForServer(port);
  await env.afterListening(`http://localhost:${port}`).catch((err: Error) => {
    console.error(`Demo data: ${err.message}`);
  });
}
