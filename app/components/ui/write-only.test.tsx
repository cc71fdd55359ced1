// @vitest-environment happy-dom
import { Outlet } from "@remix-run/react";
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderRemixStub } from "../../../tests/kit/component";
import { SHELL_ROUTE_ID, useCanWrite, WriteOnly } from "./write-only";

/**
 * Issue 21: screens learn from the shell's loader whether the operator may write. A viewer
 * does not get the write controls rendered (no JavaScript needed: the server renders the same).
 */
afterEach(cleanup);

function Screen() {
  const canWrite = useCanWrite();
  return (
    <>
      <p>{canWrite ? "may write" : "read only"}</p>
      <WriteOnly fallback={<span>Viewers cannot add rates</span>}>
        <button type="button">Add rate</button>
      </WriteOnly>
    </>
  );
}

function shell(role: string, canWrite: boolean) {
  return renderRemixStub([
    {
      id: SHELL_ROUTE_ID,
      path: "/",
      loader: () => ({ operator: { name: "x", role, canWrite } }),
      Component: () => <Outlet />,
      children: [{ index: true, Component: Screen }],
    },
  ]);
}

describe("useCanWrite / <WriteOnly>", () => {
  it("an operator gets the write controls", async () => {
    shell("operator", true);
    expect(await screen.findByText("may write")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add rate" })).toBeTruthy();
  });

  it("a viewer gets the fallback, not the controls", async () => {
    shell("viewer", false);
    expect(await screen.findByText("read only")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add rate" })).toBeNull();
    expect(screen.getByText("Viewers cannot add rates")).toBeTruthy();
  });
});
