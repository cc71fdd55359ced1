// @vitest-environment happy-dom
import { Button } from "@radix-ui/themes";
import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { renderRemixStub } from "../../../tests/kit/component";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * CONVENTIONS rule 7 "Destructive actions ask first": the dialog names what goes and says it
 * cannot be undone; Cancel (or Escape) posts nothing; confirming posts the form's fields to
 * the route action. A component test: the real component in a Remix route stub (real
 * <Form>, real action call) in happy-dom; the journeys in Chromium stay in tests/e2e.
 */
afterEach(cleanup);

function setup() {
  const posted: Record<string, FormDataEntryValue>[] = [];
  function Page() {
    const [open, setOpen] = useState(false);
    const result = useActionData<{ deleted: number }>();
    return (
      <>
        {result ? <p role="status">Deleted {result.deleted} entries</p> : null}
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          trigger={<Button>Clean up logs</Button>}
          title="Clean up logs?"
          description="Entries older than 14 days will be deleted. This cannot be undone."
          confirmLabel="Delete old entries"
          form={{ fields: { intent: "cleanup" } }}
        />
      </>
    );
  }
  renderRemixStub([
    {
      path: "/logs",
      Component: Page,
      action: async ({ request }: ActionFunctionArgs) => {
        posted.push(Object.fromEntries(await request.formData()));
        return { deleted: 3 };
      },
    },
  ]);
  return { posted };
}

describe("<ConfirmDialog>", () => {
  it("asks first, naming what goes; Cancel and Escape post nothing", async () => {
    const { posted } = setup();
    expect(screen.queryByRole("alertdialog")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Clean up logs" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Clean up logs?" });
    expect(dialog.textContent).toContain("This cannot be undone.");

    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());

    fireEvent.click(screen.getByRole("button", { name: "Clean up logs" }));
    fireEvent.keyDown(await screen.findByRole("alertdialog"), { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(posted).toEqual([]);
  });

  it("confirming posts the form's fields to the route action and closes the dialog", async () => {
    const { posted } = setup();
    fireEvent.click(screen.getByRole("button", { name: "Clean up logs" }));
    fireEvent.click(await screen.findByRole("button", { name: "Delete old entries" }));

    expect((await screen.findByRole("status")).textContent).toBe("Deleted 3 entries");
    expect(posted).toEqual([{ intent: "cleanup" }]);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});
