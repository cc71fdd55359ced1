/**
 * Under a secret field of a refused form (a recovery code): the page action never sends it back
 * (decision 0033), so the field comes back empty and asks for it again (issue 30 A6).
 */
export const TYPE_SECRET_AGAIN = "Type it again: it is never sent back to the page.";
