import { readFileSync } from "node:fs";
import path from "node:path";

let cached: string | undefined;

/**
 * The app's version as a worker reports it in its beat (issue 31, the Sessions page's Workers
 * panel): `version` of the package.json the process was started from (its working directory:
 * `npm start`, `npm run worker` and the built server all run from the app's folder), so two
 * workers of different deploys show different versions during a rolling update.
 */
export function appVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const pkg = JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version?: unknown };
    cached = typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    cached = "unknown";
  }
  return cached;
}
