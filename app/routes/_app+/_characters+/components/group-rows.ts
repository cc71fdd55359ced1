import { compareGroups, groupOf } from "#api/accounts";

/** Groups by type ("unknown" when missing), in spec 2 §2 order; rows keep their order. */
export function groupRows<T extends { type: string | null }>(rows: T[]): { group: string; title: string; rows: T[] }[] {
  const map = new Map<string, T[]>();
  for (const r of rows) {
    const g = groupOf(r.type);
    const list = map.get(g);
    if (list) list.push(r);
    else map.set(g, [r]);
  }
  return [...map.keys()].sort(compareGroups).map((group) => ({ group, title: `${group} Characters`, rows: map.get(group)! }));
}
