/**
 * The Galaxy simulator as the multi-host test's "sim" host: listens on the sim namespace's
 * private address (tests/hosts/netns.ts; nothing outside reaches it) and prints one JSON line
 * with its URLs when ready. Room on the general planets for every generated stalker.
 *
 *   SIM_HOST=10.229.3.2 SIM_PORT=6680 SIM_EXTRA_ACCOUNTS=100 node --import tsx tests/hosts/sim-host.ts
 */
import { startSimulator } from "#sim/server";

const sim = await startSimulator({
  host: process.env.SIM_HOST ?? "127.0.0.1",
  insideNamespace: true,
  port: Number(process.env.SIM_PORT ?? 6680),
  extraAccounts: Number(process.env.SIM_EXTRA_ACCOUNTS ?? 0),
});
for (const p of sim.world.planets) if (p.kind === "general" && !p.closed && p.capacity >= 60) p.capacity = 5_000;
console.log(JSON.stringify({ ready: true, wsUrl: sim.wsUrl, servicesUrl: sim.servicesUrl, controlUrl: sim.controlUrl, url: sim.url }));
const stop = () => void sim.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
