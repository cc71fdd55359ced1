import { UserError } from "~/models/user.server";
import { jsonError } from "./api.server";

/** Answers a model's UserError with its status and text (platform reasons included); else the call's §8 default (500). */
export function relayFailure(err: unknown, fallback: string): Response {
  if (err instanceof Response) throw err;
  if (err instanceof UserError) return jsonError(err.status, err.message);
  console.warn(`[galacord] ${fallback}:`, (err as Error)?.message ?? typeof err);
  return jsonError(500, fallback);
}
