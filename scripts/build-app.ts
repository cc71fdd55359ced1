/**
 * The build step of `npm start` (scripts/start.ts): `remix vite:build`, run with this Node,
 * printing warnings and errors only (vite.config.ts drops the known harmless ones), and a clear
 * instruction when the build tools are missing.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";

const require = createRequire(import.meta.url);

/** Said when the build tools are not installed (an install that left out what the build needs). */
export const MISSING_BUILD_TOOLS =
  "Cannot build the app: the build tools (@remix-run/dev, vite) are not installed. " +
  "This install left them out (npm ci --omit=dev, or an old lock file with NODE_ENV=production). " +
  "Run: npm ci --include=dev && npm start";

/** The Remix CLI's entry file, or null when the package is missing. */
export function remixCli(resolve: (id: string) => string = require.resolve): string | null {
  try {
    resolve("vite");
    return resolve("@remix-run/dev/dist/cli.js");
  } catch {
    return null;
  }
}

export function buildApp(): void {
  const cli = remixCli();
  if (!cli) {
    console.error(MISSING_BUILD_TOOLS);
    process.exit(1);
  }
  const started = Date.now();
  console.log("Building the app…");
  const built = spawnSync(process.execPath, [cli, "vite:build", "--logLevel", "warn"], { stdio: ["ignore", "inherit", "inherit"], env: process.env });
  if (built.status !== 0) {
    console.error("The build failed (see above).");
    process.exit(built.status ?? 1);
  }
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Resolves once something accepts connections on 127.0.0.1:`port` (the server listening). */
export async function waitForServer(port: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`Nothing answers on port ${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
