import { data } from "@remix-run/node";

/**
 * CONVENTIONS rule 1: several forms on one route post an `intent`; an unknown intent is a
 * 400. A route's action hands its form data and one handler per intent:
 *
 *   return dispatchIntent(formData, {
 *     save: (fd) => save(fd),
 *     delete: (fd) => remove(fd),
 *   });
 *
 * Answers the handler's result, or 400 `{ ok: false, intent: null, message: "Unknown intent: …" }`.
 */
export type UnknownIntent = { ok: false; intent: null; message: string };

export function unknownIntentMessage(intent: unknown): string {
  return `Unknown intent: ${typeof intent === "string" && intent ? intent : "(none)"}`;
}

export async function dispatchIntent<K extends string, R>(formData: FormData, handlers: Record<K, (formData: FormData, intent: K) => R | Promise<R>>) {
  const intent = formData.get("intent");
  if (typeof intent === "string" && Object.prototype.hasOwnProperty.call(handlers, intent)) {
    return await handlers[intent as K](formData, intent as K);
  }
  return data<UnknownIntent>({ ok: false, intent: null, message: unknownIntentMessage(intent) }, { status: 400 });
}
