import { expect, test } from "./fixtures";
import { auditJourney } from "./audit-trail-journey";

/** Issue 28 item 2, without JavaScript: the same filters and pages, all plain forms and links. */
test("the audit trail filters by target and pages older and newer without JavaScript", async ({ page }) => {
  await auditJourney(page, expect);
});
