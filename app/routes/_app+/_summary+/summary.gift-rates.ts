import { type ActionFunctionArgs } from "@remix-run/node";
import { GIFT_RATE_ERRORS } from "#api/summary";
import { requireOperator } from "~/http/auth.server";
import { readFormData } from "~/utils/forms.server";
import { unknownIntentMessage } from "~/utils/intent.server";
import { runPageAction, type PageActionOptions } from "~/http/page-action.server";
import { resourceError } from "~/http/refusal.server";
import { saveGiftRatesForm } from "./gift-rates-form.server";

type Intent = "save";

/** The one intent, through the page-action helper (decision 0023): a refusal or a failure is the error toast, success "Gift rates saved". */
const OPTIONS: PageActionOptions<Intent> = {
  section: "Gift Rates",
  home: "/",
  // The form always posts `redirectTo` (the page it was opened on); without it, back to "/".
  defaultRedirectTo: "/",
  failure: { save: GIFT_RATE_ERRORS.saveFailed },
  intents: { save: saveGiftRatesForm },
};

/**
 * POST /summary/gift-rates: the Gift Rates form's fields posted on their own, for scripts (the
 * dialog without JavaScript posts to its host page instead, docs/decisions/0047). Fields
 * `prize:<gift>` and `fireballs:<gift>` (spec 2 §5: whole numbers ≥ 0, empty = 0; only pairs
 * with both non-zero are saved, as prize / fireballs). Redirects back to the safe `redirectTo`
 * with a flash toast, the error toast on a refusal; unknown intent → 400.
 */
export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  // A resource route's data() reaches a document request as 200: a real 400 instead (issue 28).
  if (intent !== "save") return resourceError(request, 400, unknownIntentMessage(intent));
  return runPageAction<Intent>(formData, operator.id, OPTIONS);
}

export function loader() {
  return new Response("Not Found", { status: 404 });
}
