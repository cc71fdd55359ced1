import crypto from "node:crypto";
import { createApiToken } from "~/models/api-token.server";
import { createOperator, createSession } from "~/models/operator.server";
import { sessionCookie } from "~/http/auth.server";
import type { Role } from "~/utils/roles";

export type TestOperator = {
  id: string;
  name: string;
  role: Role;
  password: string;
  /** The session row's id (what logout and "keep this session" name). */
  sessionId: string;
  /** The session token the cookie carries (the database keeps only its hash). */
  sessionToken: string;
  /** `gt_session=…`, ready for a Cookie header (or `makeRequest(url, { cookie })`). */
  cookie: string;
};

/**
 * A real operator row with a real session in this test file's database, as a login would
 * leave them. Names are unique unless given, so several calls per file are fine. The role
 * is "operator" unless given (the file's first operator is always an admin, as in the app).
 */
export async function createTestOperator(options: { name?: string; password?: string; role?: Role } = {}): Promise<TestOperator> {
  const name = options.name ?? `op-${crypto.randomBytes(3).toString("hex")}`;
  const password = options.password ?? "correct horse battery";
  const op = await createOperator(name, password, { role: options.role });
  const session = await createSession(op.id);
  return {
    id: op.id,
    name: op.name,
    role: op.role,
    password,
    sessionId: session.id,
    sessionToken: session.token,
    cookie: await sessionCookieFor(session.token),
  };
}

/** The Cookie header value for a session token (`createSession(…).token`). */
export async function sessionCookieFor(sessionToken: string): Promise<string> {
  return (await sessionCookie().serialize(sessionToken)).split(";")[0]!;
}

/** A new API token of the operator (`gtk_…`), for `makeRequest(url, { token })`. */
export async function createTestApiToken(operatorId: string, name = "test", opts: { readOnly?: boolean } = {}): Promise<string> {
  return (await createApiToken(operatorId, name, opts)).token;
}
