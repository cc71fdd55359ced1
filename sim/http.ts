/** HTTP helpers shared by the simulators' control endpoints and servers (sim/control.ts, sim/discord/). */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";

const MAX_BODY = 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** A refused control request; the endpoints answer it with 400. */
export class BadRequest extends Error {}

/** The request body as JSON (empty → `{}`), at most 1 MiB; throws Error for too large or malformed. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("Body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return text ? JSON.parse(text) : {};
}

/** The body checked against `schema`; a bad body throws BadRequest naming the field. */
export async function parseJsonBody<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await readJsonBody(req);
  } catch (e) {
    throw new BadRequest(`Invalid JSON body: ${(e as Error).message}`);
  }
  const r = schema.safeParse(body);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new BadRequest(`${i.path.join(".") || "body"}: ${i.message}`);
  }
  return r.data;
}

/** Listens on `port` (0 = any free one) and `host`; resolves with the port once listening. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
