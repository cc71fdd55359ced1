/**
 * "1 user", "2 users" (issue 19 item 10: no "1 users", "1 cycles", "Deleted 1 companions").
 * Where the spec words a count for N ≠ 1 ("Deleted N companions"), that pattern stays and one
 * takes the singular. Client-safe.
 */
const SINGULAR: Record<string, string> = {
  users: "user",
  accounts: "account",
  characters: "character",
  cycles: "cycle",
  replies: "reply",
  posts: "post",
  visits: "visit",
  rounds: "round",
  companions: "companion",
  gifts: "gift",
  items: "item",
  failures: "failure",
};

/** The noun for a count: its singular for exactly 1, else the plural as given. */
export function nounFor(n: number, pluralNoun: string): string {
  return n === 1 ? (SINGULAR[pluralNoun] ?? pluralNoun) : pluralNoun;
}

/** "1 user", "3 users". */
export function countOf(n: number, pluralNoun: string): string {
  return `${n} ${nounFor(n, pluralNoun)}`;
}
