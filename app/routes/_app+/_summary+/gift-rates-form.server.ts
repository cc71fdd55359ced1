import { GIFT_RATE_ERRORS, GIFT_RATE_NAMES } from "#api/summary";
import { giftRatesFormSchema } from "#api/summary-schemas";
import { replaceGiftRates } from "~/models/gift-rates.server";
import type { FormFields } from "~/http/page-action.server";
import { AppError } from "~/utils/app-error";

/**
 * The Gift Rates form without JavaScript (spec 2 §5): fields `prize:<gift>` and
 * `fireballs:<gift>`, whole numbers ≥ 0, empty = 0; only pairs with both non-zero are saved, as
 * prize / fireballs. A refused value is an AppError naming its field, "Gift rates saved" on success.
 *
 * One handler for every place the form posts to (docs/decisions/0047): the pages that host the
 * Summary panel (All Characters, Bowling Bots) take it as their intent `GIFT_RATES_INTENT` and
 * keep the form on a refusal (`keepOnRefusal`), and the resource route /summary/gift-rates
 * (intent `save`) answers a refusal with a redirect and the error toast, as before.
 */
export async function saveGiftRatesForm({ form }: { form: FormFields }): Promise<string> {
  const fields: Record<string, string> = {};
  for (const name of GIFT_RATE_NAMES) {
    fields[`prize:${name}`] = form.string(`prize:${name}`);
    fields[`fireballs:${name}`] = form.string(`fireballs:${name}`);
  }
  const parsed = giftRatesFormSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(400, issue?.message ?? GIFT_RATE_ERRORS.saveFailed, { field: issue?.path[0] === undefined ? undefined : String(issue.path[0]) });
  }
  await replaceGiftRates(parsed.data);
  return GIFT_RATE_ERRORS.saved;
}
