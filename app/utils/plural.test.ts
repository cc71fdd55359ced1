import { describe, expect, it } from "vitest";
import { deletedCompanionsMessage } from "#api/bowling";
import { countOf, nounFor } from "./plural";

describe("issue 19 item 10: counts read right for one", () => {
  it("singular for exactly one, the plural otherwise", () => {
    expect(countOf(1, "users")).toBe("1 user");
    expect(countOf(0, "users")).toBe("0 users");
    expect(countOf(2, "cycles")).toBe("2 cycles");
    expect(countOf(1, "cycles")).toBe("1 cycle");
    expect(countOf(1, "replies")).toBe("1 reply");
    expect(nounFor(1, "unknown-things")).toBe("unknown-things");
  });

  it("spec 1 §8 'Deleted N companions' keeps its pattern for N ≠ 1", () => {
    expect(deletedCompanionsMessage(3)).toBe("Deleted 3 companions");
    expect(deletedCompanionsMessage(0)).toBe("Deleted 0 companions");
    expect(deletedCompanionsMessage(1)).toBe("Deleted 1 companion");
  });
});
