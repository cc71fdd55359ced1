// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lazyValidation } from "./lazy-validation";

/**
 * Issue 32 item 4 ("code for an action loads when the action starts"): a form's schema
 * module is not fetched while nobody touches the page, and is as soon as someone does.
 */
afterEach(cleanup);

function setup() {
  const load = vi.fn(async () => ({ schema: "loaded" }));
  const useValidation = lazyValidation(load);
  function Form() {
    const v = useValidation();
    return (
      <form>
        <input aria-label="Name" />
        <output data-testid="state">{v ? v.schema : "waiting"}</output>
      </form>
    );
  }
  return { load, Form };
}

describe("lazyValidation", () => {
  it("loads nothing after hydration alone; a focus in the page loads the schema", async () => {
    const { load, Form } = setup();
    render(<Form />);
    await new Promise((r) => setTimeout(r, 200));
    expect(load).not.toHaveBeenCalled();
    expect(screen.getByTestId("state").textContent).toBe("waiting");
    act(() => screen.getByLabelText("Name").focus());
    await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("loaded"));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("a press or a key anywhere on the page is an action too", async () => {
    for (const fire of [
      () => document.body.dispatchEvent(new Event("pointerdown", { bubbles: true })),
      () => document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true })),
    ]) {
      const { load, Form } = setup();
      render(<Form />);
      await new Promise((r) => setTimeout(r, 50));
      expect(load).not.toHaveBeenCalled();
      act(fire);
      await waitFor(() => expect(screen.getByTestId("state").textContent).toBe("loaded"));
      cleanup();
    }
  });
});
