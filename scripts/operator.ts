/**
 * Operator accounts and API tokens from the command line, for scripted set-ups
 * (docs/auth.md). Uses the same models as the app and the same database settings
 * (DATABASE_URL, else the embedded PGlite under DATA_DIR: through the running app when
 * there is one, else the files directly; docs/decisions/0011).
 *
 *   npm run operator -- create <name> [--role admin|operator|viewer]   password: $OPERATOR_PASSWORD or first line of stdin
 *   npm run operator -- set-password <name>         password as for create; ends their sessions
 *   npm run operator -- set-role <name> <role>
 *   npm run operator -- list
 *   npm run operator -- delete <name>
 *   npm run operator -- token <name> <tokenName> [--read-only]   prints a new API token (shown once)
 *
 * Every change is on the audit trail as "(command line)" (docs/decisions/0016).
 * Exit codes: 0 done, 1 failed (message on stderr), 2 wrong usage.
 */
import { closeDb, setEmbeddedMode } from "~/db/client.server";
import { operatorCli } from "./operator-cli";

async function main() {
  setEmbeddedMode("direct");
  const code = await operatorCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    env: process.env,
    input: process.stdin,
  });
  await closeDb().catch(() => {});
  process.exit(code);
}

void main();
