// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ComponentType } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { heldModule } from "../../../../../tests/kit/component";
import { viewSettingsWith } from "./optimistic-setting";
import { ViewSettingsPopover } from "./view-settings-popover";

/**
 * Issue 32 item 4 ("code for an action loads when the action starts"): the View settings
 * popover's code (Radix Popover, Switch) is not fetched while nobody reaches for its button;
 * a press before it is there opens the popover once it arrives. Each test has its own store of
 * the popover's code, which arrives when the test says.
 */
afterEach(cleanup);

type PopoverComponent = ComponentType<{ defaultOpen?: boolean }>;

const heldCode = () => heldModule<PopoverComponent>(ViewSettingsPopover);

describe("View settings (spec 1 §3 'Local preference')", () => {
  it("the button is there after hydration without the popover's code; pressing it loads the code and opens the popover", async () => {
    const code = heldCode();
    const ViewSettings = viewSettingsWith(code.store);
    render(<ViewSettings />);
    const button = await screen.findByRole("button", { name: "View settings" });
    expect(code.asked()).toBe(false);
    // Radix's trigger says it opens a dialog; the plain button before the code does not.
    expect(button.getAttribute("aria-haspopup")).toBeNull();
    act(() => button.click());
    expect(code.asked()).toBe(true);
    await code.arrive();
    await waitFor(() => expect(screen.getByRole("switch", { name: "Optimistic updates" })).toBeTruthy());
    expect(screen.getByRole("button", { name: "View settings" }).getAttribute("aria-haspopup")).toBe("dialog");
  });

  it("a press under way when the code arrives keeps its button, so its click opens the popover (a swap between press and click lost it)", async () => {
    const code = heldCode();
    const ViewSettings = viewSettingsWith(code.store);
    render(<ViewSettings />);
    const button = await screen.findByRole("button", { name: "View settings" });
    // The pointer comes over the button (the code starts loading) and presses it.
    fireEvent.pointerOver(button);
    expect(code.asked()).toBe(true);
    fireEvent.pointerDown(button);
    // The code arrives while the button is held: the pressed button stays.
    await code.arrive();
    expect(screen.getByRole("button", { name: "View settings" })).toBe(button);
    // The press ends on the button it started on: its click opens the popover.
    act(() => button.click());
    await waitFor(() => expect(screen.getByRole("switch", { name: "Optimistic updates" })).toBeTruthy());
  });

  it("a press that leaves the button lets the loaded popover take its place, closed", async () => {
    const code = heldCode();
    const ViewSettings = viewSettingsWith(code.store);
    render(<ViewSettings />);
    const button = await screen.findByRole("button", { name: "View settings" });
    fireEvent.pointerOver(button);
    fireEvent.pointerDown(button);
    await code.arrive();
    fireEvent.pointerLeave(button);
    await waitFor(() => expect(screen.getByRole("button", { name: "View settings" }).getAttribute("aria-haspopup")).toBe("dialog"));
    expect(screen.queryByRole("switch", { name: "Optimistic updates" })).toBeNull();
  });
});
