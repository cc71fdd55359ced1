// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ComponentType, ReactElement, ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { heldModule } from "../../../tests/kit/component";
import { hintWith } from "./hint";
import { HintTooltip } from "./hint-tooltip";

/**
 * Hint's tooltip code loads when a hint is first wanted (the pointer over its trigger, focus, a
 * press), and then takes the trigger's place (a remount). Each test has its own store of the
 * code, which arrives when the test says.
 */
afterEach(cleanup);

type TooltipComponent = ComponentType<{ content: ReactNode; children: ReactElement; open: boolean }>;

const heldCode = () => heldModule<TooltipComponent>(HintTooltip);

/** A hinted Refresh button over a store of the tooltip's code that arrives when the test says. */
function renderHeld(onClick: () => void = () => {}) {
  const code = heldCode();
  render(<Refresh Hint={hintWith(code.store)} onClick={onClick} />);
  return { code, button: screen.getByRole("button", { name: "Refresh" }) };
}

function Refresh({ onClick, Hint }: { onClick: () => void; Hint: ReturnType<typeof hintWith> }) {
  return (
    <Hint content="Click to refresh data">
      <button type="button" title="Click to refresh data" onClick={onClick}>
        Refresh
      </button>
    </Hint>
  );
}

describe("Hint (the tooltip's code loaded on demand)", () => {
  it("a press under way when the code arrives keeps its trigger, so its click acts (a swap between press and click lost it: a CI run's refresh never started)", async () => {
    let clicks = 0;
    const { code, button } = renderHeld(() => clicks++);
    fireEvent.pointerOver(button);
    expect(code.asked()).toBe(true);
    fireEvent.pointerDown(button);
    await code.arrive();
    // Still the pressed element: the release and the click land where the press began.
    expect(screen.getByRole("button", { name: "Refresh" })).toBe(button);
    fireEvent.pointerUp(button);
    act(() => button.click());
    expect(clicks).toBe(1);
    // After the click the tooltip takes over (a new trigger element, Radix's).
    await waitFor(() => expect(screen.getByRole("button", { name: "Refresh" })).not.toBe(button));
    act(() => screen.getByRole("button", { name: "Refresh" }).click());
    expect(clicks).toBe(2);
  });

  it("a submit button pressed while the code arrives still submits its form (the swap waits until the click's default action has run)", async () => {
    const code = heldCode();
    const Hint = hintWith(code.store);
    let submits = 0;
    render(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submits++;
        }}
      >
        <Hint content="Click to refresh data">
          <button type="submit">Refresh</button>
        </Hint>
      </form>,
    );
    const button = screen.getByRole("button", { name: "Refresh" });
    fireEvent.pointerOver(button);
    fireEvent.pointerDown(button);
    await code.arrive();
    fireEvent.pointerUp(button);
    act(() => button.click());
    expect(submits).toBe(1);
    await waitFor(() => expect(screen.getByRole("button", { name: "Refresh" })).not.toBe(button));
  });

  it("without a press the code takes the trigger's place as soon as it arrives", async () => {
    const { code, button } = renderHeld();
    fireEvent.pointerOver(button);
    await code.arrive();
    await waitFor(() => expect(screen.getByRole("button", { name: "Refresh" })).not.toBe(button));
  });

  it("a press that ends without a click (a disabled trigger, a pointer that left) lets the code in", async () => {
    const { code, button } = renderHeld();
    fireEvent.pointerDown(button);
    await code.arrive();
    expect(screen.getByRole("button", { name: "Refresh" })).toBe(button);
    fireEvent.pointerUp(button);
    await waitFor(() => expect(screen.getByRole("button", { name: "Refresh" })).not.toBe(button));
  });
});
