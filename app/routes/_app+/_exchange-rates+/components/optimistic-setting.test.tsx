// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ViewSettings } from "./optimistic-setting";

/**
 * Issue 32 item 4 ("code for an action loads when the action starts"): the View settings
 * popover's code (Radix Popover, Switch) is not fetched while nobody reaches for its button;
 * a press before it is there opens the popover once it arrives.
 */
afterEach(cleanup);

describe("View settings (spec 1 §3 'Local preference')", () => {
  it("the button is there after hydration without the popover's code; pressing it loads the code and opens the popover", async () => {
    render(<ViewSettings />);
    const button = await screen.findByRole("button", { name: "View settings" });
    await new Promise((r) => setTimeout(r, 300));
    // Radix's trigger says it opens a dialog; the plain button before the code does not.
    expect(screen.getByRole("button", { name: "View settings" }).getAttribute("aria-haspopup")).toBeNull();
    act(() => button.click());
    await waitFor(() => expect(screen.getByRole("switch", { name: "Optimistic updates" })).toBeTruthy());
    expect(screen.getByRole("button", { name: "View settings" }).getAttribute("aria-haspopup")).toBe("dialog");
  });
});
