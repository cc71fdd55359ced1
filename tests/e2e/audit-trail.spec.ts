import { expect, test } from "./fixtures";
import { auditJourney } from "./audit-trail-journey";

/**
 * Issue 28 item 2, with JavaScript: the audit trail names what changed (a category by its
 * name), filters by target text from a GET form, and pages older and newer by links.
 */
test("the audit trail filters by target and pages older and newer", async ({ page }) => {
  await auditJourney(page, expect);
});
