/**
 * `npm start`: builds the app, then serves it on http://localhost:3000 with the embedded
 * defaults (PGlite in ./data, private Redis when none answers, in-process worker).
 * `npm start -- --demo`: also starts the Galaxy simulator, points the app at it and seeds
 * demo data (rates and the other sections' demo rows).
 */
import { spawnSync } from "node:child_process";

const demo = process.argv.includes("--demo") || process.env.DEMO === "1";
const skipBuild = process.argv.includes("--no-build");

process.env.NODE_ENV = "production";

if (!skipBuild) {
  console.log("Building the app…");
  const built = spawnSync("npx", ["remix", "vite:build"], { stdio: ["ignore", "inherit", "inherit"], env: process.env });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

if (demo) {
  const { startDemoEnvironment } = await import("./demo-env");
  await startDemoEnvironment();
}

await import("../server");
