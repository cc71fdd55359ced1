import { useActionData } from "@remix-run/react";
import { TYPE_SECRET_AGAIN } from "~/utils/kept-fields";

/** A refused post's form as the page action answered it (`keepOnRefusal`, app/utils/page-action.server.ts). */
type KeptAnswer = {
  ok: false;
  intent: string | null;
  kept: { fields: Record<string, string>; fieldErrors: Record<string, string[]>; formErrors: string[] };
};

function isKept(value: unknown, intent: string | readonly string[], match: Record<string, string>): value is KeptAnswer {
  if (typeof value !== "object" || value === null || !("kept" in value)) return false;
  const answer = value as KeptAnswer;
  const intents: readonly string[] = typeof intent === "string" ? [intent] : intent;
  return answer.intent !== null && intents.includes(answer.intent) && Object.entries(match).every(([name, v]) => answer.kept.fields[name] === v);
}

/**
 * A form that keeps what was typed when its post is refused (issue 30 A6), with and without
 * JavaScript: the page action answers the posted fields and the reason (`keepOnRefusal`), and
 * the form draws its fields from them instead of the saved values, with the reason next to the
 * field it is about.
 *
 *   const kept = useKeptForm("options", { accountId });
 *   <TextField.Root name="discordName" defaultValue={kept.value("discordName", saved.discordName)} {...kept.invalid("discordName", errorId)} />
 *   <FieldError id={errorId} errors={kept.errors("discordName")} />
 *
 * `match` names fields that must be the same as posted (the row the form edits), so another
 * row's form is not filled in. A fetcher form passes `fetcher.data` as `fetcherData`. A form whose
 * buttons post several intents (Collections' Run, Status, Send) names them all.
 */
export function useKeptForm(intent: string | readonly string[], match: Record<string, string> = {}, fetcherData?: unknown) {
  const actionData: unknown = useActionData();
  // A fetcher form (with JavaScript) reads its fetcher's answer; without JavaScript the same
  // form posted as a plain form and the page's action data holds it.
  const data = isKept(fetcherData, intent, match) ? fetcherData : actionData;
  const kept = isKept(data, intent, match) ? data.kept : null;
  return {
    refused: kept !== null,
    value: (name: string, fallback: string) => kept?.fields[name] ?? fallback,
    errors: (name: string) => kept?.fieldErrors[name],
    /**
     * A secret field's errors: "type it again" only while it is empty (with JavaScript the
     * browser may still hold what was typed; the server never sends it back).
     */
    secretErrors: (name: string, current: string) => {
      const errors = kept?.fieldErrors[name]?.filter((e) => !current || e !== TYPE_SECRET_AGAIN);
      return errors?.length ? errors : undefined;
    },
    formErrors: kept?.formErrors ?? [],
    /** The field's ARIA state: invalid, described by its error text. */
    invalid: (name: string, errorId: string) => (kept?.fieldErrors[name] ? { "aria-invalid": true as const, "aria-describedby": errorId } : {}),
  };
}
