/**
 * Operator accounts and API tokens from the command line, for scripted set-ups
 * (docs/auth.md). Uses the same models as the app and the same database settings
 * (DATABASE_URL, else the embedded PGlite under DATA_DIR: through the running app when
 * there is one, else the files directly; docs/decisions/0011).
 *
 *   npm run operator -- create <name>               password: $OPERATOR_PASSWORD or first line of stdin
 *   npm run operator -- set-password <name>         password as for create; ends their sessions
 *   npm run operator -- list
 *   npm run operator -- delete <name>
 *   npm run operator -- token <name> <tokenName>    prints a new API token (shown once)
 *
 * Exit codes: 0 done, 1 failed (message on stderr), 2 wrong usage.
 */
import readline from "node:readline";
import { closeDb, setEmbeddedMode } from "~/db/client.server";
import { createApiToken } from "~/models/api-token.server";
import { logEvent } from "~/models/log.server";
import { createOperator, deleteOperator, findOperatorByName, listOperators, OperatorError, setOperatorPassword } from "~/models/operator.server";

const USAGE = `Usage: npm run operator -- <command>

  create <name>              create an operator
  set-password <name>        set an operator's password (their sessions end)
  list                       list operators
  delete <name>              delete an operator with their sessions and API tokens
  token <name> <tokenName>   create an API token for the operator and print it

The password comes from OPERATOR_PASSWORD, else from the first line of stdin
(typed without echo on a terminal). At least 8 characters.`;

class UsageError extends Error {}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.OPERATOR_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const tty = process.stdin.isTTY;
  const rl = readline.createInterface({ input: process.stdin, output: tty ? process.stderr : undefined, terminal: !!tty });
  if (tty) {
    process.stderr.write("Password: ");
    // Keep the typed password off the screen.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  }
  try {
    const line = await new Promise<string | undefined>((resolve) => {
      let answered = false;
      rl.once("line", (l) => {
        answered = true;
        resolve(l);
      });
      rl.once("close", () => {
        if (!answered) resolve(undefined);
      });
    });
    if (tty) process.stderr.write("\n");
    if (line === undefined || line.replace(/\r$/, "") === "") {
      throw new OperatorError("No password given: set OPERATOR_PASSWORD or pass it on stdin");
    }
    return line.replace(/\r$/, "");
  } finally {
    rl.close();
  }
}

function arg(args: string[], i: number, what: string): string {
  const v = args[i];
  if (!v) throw new UsageError(`Missing ${what}`);
  return v;
}

async function requireOperatorNamed(name: string) {
  const op = await findOperatorByName(name);
  if (!op) throw new OperatorError(`No operator named "${name}"`);
  return op;
}

async function run(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case "create": {
      const name = arg(args, 0, "<name>");
      const op = await createOperator(name, await readPassword());
      await logEvent({ type: "info", source: "system", message: `Operator ${op.name} created (command line)` });
      console.log(`Created operator "${op.name}".`);
      return 0;
    }
    case "set-password": {
      const op = await requireOperatorNamed(arg(args, 0, "<name>"));
      await setOperatorPassword(op.id, await readPassword());
      await logEvent({ type: "info", source: "system", message: `Password of operator ${op.name} set (command line)` });
      console.log(`Password of "${op.name}" changed; their sessions were ended.`);
      return 0;
    }
    case "list": {
      const rows = await listOperators();
      if (!rows.length) console.log("No operators yet.");
      for (const r of rows) console.log(`${r.name}\tcreated ${r.createdAt.toISOString()}`);
      return 0;
    }
    case "delete": {
      const name = arg(args, 0, "<name>");
      if (!(await deleteOperator(name))) throw new OperatorError(`No operator named "${name}"`);
      await logEvent({ type: "info", source: "system", message: `Operator ${name} deleted (command line)` });
      console.log(`Deleted operator "${name}".`);
      return 0;
    }
    case "token": {
      const op = await requireOperatorNamed(arg(args, 0, "<name>"));
      const { token, row } = await createApiToken(op.id, arg(args, 1, "<tokenName>"));
      await logEvent({ type: "info", source: "system", message: `API token "${row.name}" created for ${op.name} (command line)` });
      // The token alone on stdout, so `TOKEN=$(npm run -s operator -- token …)` works.
      console.log(token);
      console.error(`API token "${row.name}" for "${op.name}". It is not stored in clear: keep it now.`);
      return 0;
    }
    case "help":
    case "--help":
    case "-h":
      console.log(USAGE);
      return 0;
    case undefined:
      throw new UsageError("No command given");
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

async function main() {
  setEmbeddedMode("direct");
  let code: number;
  try {
    code = await run(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      code = 2;
    } else if (err instanceof OperatorError) {
      console.error(`Error: ${err.message}`);
      code = 1;
    } else {
      console.error(`Error: ${(err as Error).message}`);
      code = 1;
    }
  }
  await closeDb().catch(() => {});
  process.exit(code);
}

void main();
