import { afterEach, describe, expect, it } from "vitest";
import { currentToasts, DEFAULT_TOAST_DURATION, MAX_VISIBLE_TOASTS, toast, useToast } from "./toast";

afterEach(() => {
  for (const t of currentToasts()) toast.dismiss(t.id);
});

describe("client toasts (spec 1 §9: at most 3 visible, default duration 4000 ms)", () => {
  it("keeps at most 3, dropping the oldest", () => {
    expect(MAX_VISIBLE_TOASTS).toBe(3);
    toast.success("one");
    toast.error("two");
    toast.info("three");
    toast.warning("four");
    expect(currentToasts().map((t) => [t.type, t.message])).toEqual([
      ["error", "two"],
      ["info", "three"],
      ["warning", "four"],
    ]);
  });

  it("defaults to 4000 ms and honours a duration such as 2 s or 5 s", () => {
    expect(DEFAULT_TOAST_DURATION).toBe(4000);
    toast.info("default");
    toast.error("retrying", { duration: 2000 });
    toast.error("gave up", { duration: 5000, description: "Please refresh the page." });
    expect(currentToasts().map((t) => t.duration)).toEqual([4000, 2000, 5000]);
    expect(currentToasts()[2]!.description).toBe("Please refresh the page.");
  });

  it("dismisses by id, and a repeated id replaces instead of stacking", () => {
    const { success } = useToast();
    const id = success("saved", { id: "save" });
    success("saved again", { id: "save" });
    expect(currentToasts().map((t) => t.message)).toEqual(["saved again"]);
    toast.dismiss(id);
    expect(currentToasts()).toEqual([]);
  });
});
