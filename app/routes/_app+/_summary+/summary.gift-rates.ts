import { type ActionFunctionArgs } from "@remix-run/node";
import { GIFT_RATE_ERRORS, GIFT_RATE_NAMES, giftRateInputError, pairsToRates, parseRateInput, type RatePair } from "#api/summary";
import { replaceGiftRates } from "~/models/gift-rates.server";
import { requireOperator, safeRedirect } from "~/utils/auth.server";
import { errorText } from "~/utils/errors";
import { readFormData } from "~/utils/forms.server";
import { resourceError } from "~/utils/refusal.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

/**
 * POST /summary/gift-rates: the no-JavaScript Gift Rates form (app/components/summary/
 * gift-rates-dialog.tsx). Fields `prize:<gift>` and `fireballs:<gift>` (spec 2 §5: whole
 * numbers ≥ 0, empty = 0; only pairs with both non-zero are saved, as prize / fireballs).
 * Redirects back to the safe `redirectTo` with a flash toast; unknown intent → 400.
 */
export async function action({ request }: ActionFunctionArgs) {
  await requireOperator(request);
  const form = await readFormData(request);
  const intent = form.get("intent");
  // A resource route's data() reaches a document request as 200: a real 400 instead (issue 28).
  if (intent !== "save") return resourceError(request, 400, "Unknown intent");
  const back = safeRedirect(form.get("redirectTo"), "/");
  const pairs: Record<string, RatePair> = {};
  for (const name of GIFT_RATE_NAMES) {
    const prizeText = asText(form.get(`prize:${name}`));
    const fireballsText = asText(form.get(`fireballs:${name}`));
    const refused = giftRateInputError(prizeText, fireballsText);
    if (refused) return redirectWithError(back, `${name}: ${refused}`);
    pairs[name] = { prize: parseRateInput(prizeText) ?? 0, fireballs: parseRateInput(fireballsText) ?? 0 };
  }
  try {
    await replaceGiftRates(pairsToRates(pairs));
  } catch (err) {
    console.warn("[summary] gift rates save failed:", errorText(err));
    return redirectWithError(back, GIFT_RATE_ERRORS.saveFailed);
  }
  return redirectWithSuccess(back, GIFT_RATE_ERRORS.saved);
}

function asText(v: FormDataEntryValue | null): string {
  return typeof v === "string" ? v : "";
}

export function loader() {
  return new Response("Not Found", { status: 404 });
}
