// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { renderRemixStub } from "../../../../../tests/kit/component";
import { UserDialog } from "./user-dialog";

/**
 * Spec 2 §4 "Create-user dialog: idle, creating (inputs disabled), then closed and reset on
 * success"; §2 'Button shows "Creating User..." while working'. The real dialog in a Remix
 * stub whose action waits until the test lets it answer.
 */
afterEach(cleanup);

const categories = [
  { _id: "1", value: "bowling" },
  { _id: "2", value: "stalker" },
];

function setup(answer: { ok: boolean; message: string }) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const posted: Record<string, FormDataEntryValue>[] = [];
  function Page() {
    const [open, setOpen] = useState(true);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
        <p data-testid="open-state">{open ? "open" : "closed"}</p>
        <UserDialog open={open} onClose={() => setOpen(false)} closeHref="/characters" categories={categories} />
      </>
    );
  }
  renderRemixStub([
    {
      path: "/characters",
      Component: Page,
      action: async ({ request }) => {
        posted.push(Object.fromEntries(await request.formData()));
        await gate;
        return answer;
      },
    },
  ]);
  return { release, posted };
}

describe("Create-user dialog (spec 2 §2, §4)", () => {
  it("shows 'Creating User...' with inputs disabled while creating, then closes and resets on success", async () => {
    const { release, posted } = setup({ ok: true, message: "User created successfully" });
    const rc = await screen.findByLabelText("Recovery code");
    fireEvent.change(rc, { target: { value: "ABCDEFGHIJ" } });
    fireEvent.click(screen.getByRole("button", { name: "Create User" }));
    await screen.findByRole("button", { name: "Creating User..." });
    expect(screen.getByLabelText("Recovery code")).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveProperty("disabled", true);
    expect(posted).toEqual([{ intent: "create-user", rc: "ABCDEFGHIJ", type: "bowling" }]);
    release();
    await waitFor(() => expect(screen.getByTestId("open-state").textContent).toBe("closed"));
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    expect(((await screen.findByLabelText("Recovery code")) as HTMLInputElement).value).toBe("");
  });

  it("stays open with what was typed when the server refuses", async () => {
    const { release } = setup({ ok: false, message: "Login failed: Invalid credentials" });
    const rc = await screen.findByLabelText("Recovery code");
    fireEvent.change(rc, { target: { value: "ZZZZZZZZZZ" } });
    fireEvent.click(screen.getByRole("button", { name: "Create User" }));
    await screen.findByRole("button", { name: "Creating User..." });
    release();
    await screen.findByRole("button", { name: "Create User" });
    expect(screen.getByTestId("open-state").textContent).toBe("open");
    expect((screen.getByLabelText("Recovery code") as HTMLInputElement).value).toBe("ZZZZZZZZZZ");
  });
});
