// @vitest-environment happy-dom
import { Theme } from "@radix-ui/themes";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collapseId, DEFAULT_TOAST_DURATION, MAX_VISIBLE_TOASTS, toast, Toaster, useToast, type FlashToastData } from "./toast";

// The real sonner viewport in a DOM, on a fake clock: what is on screen at which millisecond.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLElement;
let root: Root;

async function render(flash?: FlashToastData | null, theme: "dark" | "light" = "dark") {
  await act(async () => {
    root.render(
      <Theme appearance={theme}>
        <Toaster flash={flash} theme={theme} />
      </Theme>,
    );
  });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Toasts on screen, newest first (a leaving toast keeps its node for its exit animation). */
const items = () => [...container.querySelectorAll<HTMLElement>("[data-sonner-toast]:not([data-removed='true'])")];
const shown = () => items().map((li) => li.querySelector(".gt-toast-message")?.textContent);
/** sonner applies a dismissal two animation frames later. */
const FRAMES = 50;
/** Every toast node, leaving ones included. */
const nodes = () => container.querySelectorAll("[data-sonner-toast]").length;

beforeEach(async () => {
  // sonner adds toasts with setTimeout and dismisses them with requestAnimationFrame.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "requestAnimationFrame", "cancelAnimationFrame", "Date"] });
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  await render();
});

afterEach(async () => {
  // Let every toast of the test run out, so the next test starts with an empty screen.
  await advance(10_000);
  expect(nodes()).toBe(0);
  await act(async () => root.unmount());
  container.remove();
  vi.useRealTimers();
});

describe("collapse id", () => {
  it("is the same for the same type and message, different otherwise", () => {
    const id = collapseId("error", "Failed to import exchange rates: Invalid data format");
    expect(collapseId("error", "Failed to import exchange rates: Invalid data format")).toBe(id);
    expect(collapseId("warning", "Failed to import exchange rates: Invalid data format")).not.toBe(id);
    expect(collapseId("error", "Failed to copy exchange rates")).not.toBe(id);
  });
});

describe("client toasts (spec 1 §9: at most 3 visible, default duration 4000 ms)", () => {
  it("keeps at most 3, dropping the oldest", async () => {
    expect(MAX_VISIBLE_TOASTS).toBe(3);
    toast.success("one");
    toast.error("two");
    toast.info("three");
    toast.warning("four");
    await advance(FRAMES);
    expect(shown()).toEqual(["four", "three", "two"]);
    await advance(300);
    expect(nodes()).toBe(3);
  });

  it("lasts 4000 ms by default and honours a duration such as 2 s or 5 s", async () => {
    expect(DEFAULT_TOAST_DURATION).toBe(4000);
    toast.info("default");
    toast.error("retrying", { duration: 2000 });
    toast.error("gave up", { duration: 5000, description: "Please refresh the page." });
    await advance(1999);
    expect(shown()).toEqual(["gave up", "retrying", "default"]);
    expect(items()[0]!.querySelector(".gt-toast-description")?.textContent).toBe("Please refresh the page.");
    await advance(2);
    expect(shown()).toEqual(["gave up", "default"]);
    await advance(1998);
    expect(shown()).toEqual(["gave up", "default"]);
    await advance(2);
    expect(shown()).toEqual(["gave up"]);
    await advance(1000);
    expect(shown()).toEqual([]);
  });

  it("collapses an identical toast into the one on screen and restarts its timer", async () => {
    const message = "Failed to import exchange rates: Invalid data format";
    const first = toast.error(message);
    await advance(3000);
    expect(toast.error(message)).toBe(first);
    await advance(0);
    expect(shown()).toEqual([message]);
    expect(nodes()).toBe(1);
    // 6 s after the first call, 3 s after the second: still there, still one.
    await advance(3000);
    expect(shown()).toEqual([message]);
    await advance(1001);
    expect(shown()).toEqual([]);
  });

  it("does not collapse toasts that differ in type or message", async () => {
    toast.error("Failed to copy exchange rates");
    toast.warning("Failed to copy exchange rates");
    toast.error("Failed to load ads");
    await advance(0);
    expect(shown()).toEqual(["Failed to load ads", "Failed to copy exchange rates", "Failed to copy exchange rates"]);
  });

  it("shows an identical toast that arrives while the first is leaving, once", async () => {
    toast.info("Data refreshed successfully");
    await advance(4000);
    expect(shown()).toEqual([]);
    expect(nodes()).toBe(1); // the first one's exit animation
    toast.info("Data refreshed successfully");
    await advance(300);
    expect(shown()).toEqual(["Data refreshed successfully"]);
    expect(nodes()).toBe(1);
    await advance(3699);
    expect(shown()).toEqual(["Data refreshed successfully"]);
  });

  it("dismisses by id, and a repeated caller id replaces instead of stacking", async () => {
    const { success } = useToast();
    const id = success("saved", { id: "save" });
    expect(id).toBe("save");
    success("saved again", { id: "save" });
    await advance(0);
    expect(shown()).toEqual(["saved again"]);
    toast.dismiss(id);
    await advance(FRAMES);
    expect(shown()).toEqual([]);
    await advance(300);
    expect(nodes()).toBe(0);
  });

  it("announces errors assertively and the rest politely, in the app's theme", async () => {
    toast.error("Failed to save exchange rate: Please try again");
    toast.success("Exchange rate saved successfully");
    toast.warning("Please fix validation errors before saving");
    await advance(0);
    expect(items().map((li) => li.querySelector(".gt-toast-card")?.getAttribute("role"))).toEqual(["status", "status", "alert"]);
    expect(container.querySelector("[data-sonner-toaster]")?.getAttribute("data-sonner-theme")).toBe("dark");
    await render(null, "light");
    expect(container.querySelector("[data-sonner-toaster]")?.getAttribute("data-sonner-theme")).toBe("light");
  });

  it("runs an action once and closes the toast", async () => {
    const undo = vi.fn();
    toast.success("Ad deleted successfully", { action: { label: "Undo", onClick: undo } });
    await advance(0);
    const button = [...container.querySelectorAll("button")].find((b) => b.textContent === "Undo");
    expect(button).toBeDefined();
    await act(async () => button!.click());
    await advance(FRAMES);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(shown()).toEqual([]);
  });

  it("closes with its dismiss button", async () => {
    toast.info("Text copied to clipboard", { duration: 2000 });
    await advance(0);
    await act(async () => container.querySelector<HTMLButtonElement>("button[aria-label='Dismiss notification']")!.click());
    await advance(FRAMES);
    expect(shown()).toEqual([]);
  });
});

describe("flash toasts", () => {
  const flash = (id: string): FlashToastData => ({ id, type: "success", message: "Deleted 3 log entries" });

  it("are in the server HTML inside <noscript>, without buttons", () => {
    const html = renderToString(<Toaster flash={{ ...flash("f0"), duration: 2000 }} />);
    expect(html).toMatch(/^<noscript>.*<\/noscript>$/);
    expect(html).toContain('role="status"');
    expect(html).toContain("Deleted 3 log entries");
    expect(html).toContain("--gt-toast-duration:2000ms");
    expect(html).not.toContain("<button");
    expect(renderToString(<Toaster flash={null} />)).toBe("");
  });

  it("go to sonner after hydration, once per flash id, and collapse like any toast", async () => {
    await render(flash("f1"));
    await advance(0);
    expect(shown()).toEqual(["Deleted 3 log entries"]);
    // A revalidation hands over the same flash again: nothing new.
    await render({ ...flash("f1") });
    await advance(3000);
    expect(shown()).toEqual(["Deleted 3 log entries"]);
    // A new flash with the same text refreshes the one on screen.
    await render(flash("f2"));
    await advance(0);
    expect(nodes()).toBe(1);
    // 6 s after the first flash: the refreshed toast is still there.
    await advance(3000);
    expect(shown()).toEqual(["Deleted 3 log entries"]);
    await advance(1001);
    expect(shown()).toEqual([]);
  });

  it("show as the root's load arrives, though no render hands the flash over (a later load replaced it first)", async () => {
    // The router's updates are React transitions: a live revalidation finishing right after the
    // redirect's load replaced the state that carried the flash before React rendered it.
    const { clientLoader } = await import("~/root");
    const data = await clientLoader({ serverLoader: async () => ({ theme: "dark", toast: flash("f3") }) } as never);
    expect(data).toMatchObject({ toast: { id: "f3" } });
    await advance(0);
    expect(shown()).toEqual(["Deleted 3 log entries"]);
    // The render that carries it after all shows nothing more.
    await render(flash("f3"));
    await advance(0);
    expect(nodes()).toBe(1);
  });
});
