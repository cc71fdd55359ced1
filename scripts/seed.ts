/**
 * `npm run seed` fills the database with demo data for a first look.
 *
 *   npm run seed                 every section's demo data
 *   npm run seed -- rates        only the named seeders
 *   npm run seed -- --list       what there is
 *
 * Each seeder is idempotent (running it twice gives the same data). Uses the database the
 * app uses (DATABASE_URL, else the embedded PGlite in DATA_DIR: through the running app
 * when there is one, else the files directly; docs/decisions/0011).
 *
 * Sections add themselves to SEEDERS: a name, what it fills, and a function that returns a
 * one-line summary.
 */
import { pathToFileURL } from "node:url";

export type Seeder = { name: string; description: string; run: () => Promise<string> };

export const SEEDERS: Seeder[] = [
  {
    name: "rates",
    description: "Exchange Rates: flat, tiered and disabled pairs between catalogue gifts",
    run: async () => {
      const { seedDemoRates } = await import("~/models/rate.seed.server");
      return `${await seedDemoRates()} exchange rates`;
    },
  },
];

/** Runs the named seeders (all when none is named), in SEEDERS order. */
export async function runSeeders(names: string[] = [], log: (line: string) => void = console.log): Promise<void> {
  const unknown = names.filter((n) => !SEEDERS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`Unknown seeder: ${unknown.join(", ")} (have: ${SEEDERS.map((s) => s.name).join(", ")})`);
  for (const seeder of SEEDERS.filter((s) => names.length === 0 || names.includes(s.name))) {
    log(`seed ${seeder.name}: ${await seeder.run()}`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--list") || args.includes("--help")) {
    for (const s of SEEDERS) console.log(`${s.name.padEnd(12)} ${s.description}`);
    return;
  }
  const { dbKind, dbVia, closeDb, setEmbeddedMode } = await import("~/db/client.server");
  setEmbeddedMode("direct");
  try {
    const via = (await dbVia()) === "socket" ? " (through the running app)" : "";
    console.log(`Seeding the ${await dbKind()} database${via}…`);
    await runSeeders(args.filter((a) => !a.startsWith("-")));
    // The models announce their writes on the live bus (open pages follow them): hand those over first.
    await (await import("~/queue/live.server")).liveFlushed();
  } finally {
    await closeDb();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Exits when done: the live bus's Redis connection (the models publish their writes) would keep it running.
  main().then(
    () => process.exit(0),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
