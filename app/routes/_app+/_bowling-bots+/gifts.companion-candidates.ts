import type { LoaderFunctionArgs } from "@remix-run/node";
import { logEvent } from "~/models/log.server";
import { companionCandidates } from "~/models/bowling-page.server";
import { requireOperator } from "~/http/auth.server";
import { CANDIDATE_TEXTS } from "./components/bowling-view";

/**
 * GET /gifts/companion-candidates → { suppliers, recipients } (each { _id, account_id, nick }):
 * what the companion dialog offers (spec 1 §3), fetched when it opens (issue 20 "Bounded
 * pages"). The /gifts document carries them only while the dialog is open by URL (without
 * JavaScript), so the page does not grow with the fleet's suppliers and recipients.
 * A failure is a 500 `{ error, message }` the dialog shows, never the page's error screen.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  try {
    return Response.json(await companionCandidates(), { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading suppliers and recipients failed", details: err }).catch(() => {});
    const message = CANDIDATE_TEXTS.failed;
    return Response.json({ error: message, message }, { status: 500 });
  }
}
