/**
 * `npm run operator` (scripts/operator.ts, the process around it): the commands themselves.
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
import { createApiToken } from "~/models/api-token.server";
import { CLI_ACTOR, recordAudit } from "~/models/audit.server";
import { logEvent } from "~/models/log.server";
import { createOperator, deleteOperator, findOperatorByName, listOperators, setOperatorPassword, setOperatorRole } from "~/models/operator.server";
import { isRole, ROLES, type Role } from "~/utils/roles";
import { readSecretLine } from "./cli-input";

/** Where the command writes and reads: the process's own streams in scripts/operator.ts, buffers in tests. */
export type OperatorCliIo = {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
};

const USAGE = `Usage: npm run operator -- <command>

  create <name> [--role <role>]          create an operator (role: admin, operator or viewer;
                                         default operator; the first operator is always admin)
  set-password <name>                    set an operator's password (their sessions end)
  set-role <name> <role>                 change an operator's role
  list                                   list operators with their roles
  delete <name>                          delete an operator with their sessions and API tokens
  token <name> <tokenName> [--read-only] create an API token for the operator and print it

The password comes from OPERATOR_PASSWORD, else from the first line of stdin
(typed without echo on a terminal). At least 8 characters.`;

class UsageError extends Error {}

async function readPassword(io: OperatorCliIo): Promise<string> {
  const fromEnv = io.env.OPERATOR_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const line = await readSecretLine("Password: ", io.input);
  if (!line) throw new Error("No password given: set OPERATOR_PASSWORD or pass it on stdin");
  return line;
}

function parseRole(value: string | undefined): Role {
  if (!isRole(value)) throw new UsageError(`Role must be one of ${ROLES.join(", ")}`);
  return value;
}

/** `--role viewer`, `--role=viewer`, `--read-only`: flags out, positional arguments in order. */
function splitArgs(args: string[]): { positional: string[]; role?: Role; readOnly: boolean } {
  const positional: string[] = [];
  let role: Role | undefined;
  let readOnly = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--role") role = parseRole(args[++i]);
    else if (a.startsWith("--role=")) role = parseRole(a.slice("--role=".length));
    else if (a === "--read-only") readOnly = true;
    else if (a.startsWith("--")) throw new UsageError(`Unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, role, readOnly };
}

function arg(args: string[], i: number, what: string): string {
  const v = args[i];
  if (!v) throw new UsageError(`Missing ${what}`);
  return v;
}

async function requireOperatorNamed(name: string) {
  const op = await findOperatorByName(name);
  if (!op) throw new Error(`No operator named "${name}"`);
  return op;
}

async function run(argv: string[], io: OperatorCliIo): Promise<number> {
  const [command, ...rest] = argv;
  const { positional: args, role, readOnly } = splitArgs(rest);
  if (role && command !== "create") throw new UsageError("--role goes with create (use set-role to change one)");
  if (readOnly && command !== "token") throw new UsageError("--read-only goes with token");
  switch (command) {
    case "create": {
      const name = arg(args, 0, "<name>");
      const op = await createOperator(name, await readPassword(io), { role });
      await logEvent({ type: "info", source: "system", message: `Operator ${op.name} (${op.role}) created (command line)` });
      await recordAudit(CLI_ACTOR, { action: "operator.create", target: op.name, details: { role: op.role } });
      io.out(`Created operator "${op.name}" (${op.role}).`);
      return 0;
    }
    case "set-password": {
      const op = await requireOperatorNamed(arg(args, 0, "<name>"));
      await setOperatorPassword(op.id, await readPassword(io));
      await logEvent({ type: "info", source: "system", message: `Password of operator ${op.name} set (command line)` });
      await recordAudit(CLI_ACTOR, { action: "operator.reset-password", target: op.name });
      io.out(`Password of "${op.name}" changed; their sessions were ended.`);
      return 0;
    }
    case "set-role": {
      const op = await requireOperatorNamed(arg(args, 0, "<name>"));
      const newRole = parseRole(arg(args, 1, "<role>"));
      const updated = await setOperatorRole(op.id, newRole);
      await recordAudit(CLI_ACTOR, { action: "operator.role", target: op.name, details: { from: op.role, to: updated.role } });
      io.out(`"${op.name}" is now ${updated.role}.`);
      return 0;
    }
    case "list": {
      const rows = await listOperators();
      if (!rows.length) io.out("No operators yet.");
      for (const r of rows) io.out(`${r.name}\t${r.role}\tcreated ${r.createdAt.toISOString()}`);
      return 0;
    }
    case "delete": {
      const name = arg(args, 0, "<name>");
      if (!(await deleteOperator(name))) throw new Error(`No operator named "${name}"`);
      await logEvent({ type: "info", source: "system", message: `Operator ${name} deleted (command line)` });
      await recordAudit(CLI_ACTOR, { action: "operator.delete", target: name });
      io.out(`Deleted operator "${name}".`);
      return 0;
    }
    case "token": {
      const op = await requireOperatorNamed(arg(args, 0, "<name>"));
      const { token, row } = await createApiToken(op.id, arg(args, 1, "<tokenName>"), { readOnly });
      await logEvent({ type: "info", source: "system", message: `API token "${row.name}" created for ${op.name} (command line)` });
      await recordAudit(CLI_ACTOR, { action: "token.create", target: `${op.name}: ${row.name}`, details: { readOnly: row.readOnly } });
      // The token alone on stdout, so `TOKEN=$(npm run -s operator -- token …)` works.
      io.out(token);
      io.err(`API token "${row.name}" for "${op.name}"${row.readOnly ? " (read-only)" : ""}. It is not stored in clear: keep it now.`);
      return 0;
    }
    case "help":
    case "--help":
    case "-h":
      io.out(USAGE);
      return 0;
    case undefined:
      throw new UsageError("No command given");
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** Runs one command; the exit code: 0 done, 1 failed (message on stderr), 2 wrong usage. */
export async function operatorCli(argv: string[], io: OperatorCliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`Error: ${(err as Error).message}`);
    return 1;
  }
}
