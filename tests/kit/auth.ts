import crypto from "node:crypto";
import { createApiToken } from "~/models/api-token.server";
import { createOperator, createSession } from "~/models/operator.server";
import { sessionCookie } from "~/utils/auth.server";

export type TestOperator = {
  id: string;
  name: string;
  password: string;
  sessionId: string;
  /** `gt_session=…`, ready for a Cookie header (or `makeRequest(url, { cookie })`). */
  cookie: string;
};

/**
 * A real operator row with a real session in this test file's database, as a login would
 * leave them. Names are unique unless given, so several calls per file are fine.
 */
export async function createTestOperator(options: { name?: string; password?: string } = {}): Promise<TestOperator> {
  const name = options.name ?? `op-${crypto.randomBytes(3).toString("hex")}`;
  const password = options.password ?? "correct horse battery";
  const op = await createOperator(name, password);
  const session = await createSession(op.id);
  return { id: op.id, name: op.name, password, sessionId: session.id, cookie: await sessionCookieFor(session.id) };
}

/** The Cookie header value for a session id. */
export async function sessionCookieFor(sessionId: string): Promise<string> {
  return (await sessionCookie().serialize(sessionId)).split(";")[0]!;
}

/** A new API token of the operator (`gtk_…`), for `makeRequest(url, { token })`. */
export async function createTestApiToken(operatorId: string, name = "test"): Promise<string> {
  return (await createApiToken(operatorId, name)).token;
}
