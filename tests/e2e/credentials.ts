/** The operator every e2e run creates through the first-run setup page. */
export const E2E_OPERATOR = { name: "operator", password: "correct horse battery staple" };
