// @vitest-environment happy-dom
import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { READ_ONLY_HINT } from "~/utils/roles";
import { renderRemixStub } from "../../../tests/kit/component";
import { AppHeader } from "./app-header";

/** Issue 21 item 1: a viewer is told the screens are read-only ("a gentle hint"); others are not. */
afterEach(cleanup);

const jobs = { redis: "up", worker: "running" } as const;

function header(role: "admin" | "operator" | "viewer", canWrite: boolean) {
  renderRemixStub([{ path: "/", Component: () => <AppHeader operatorName="sam" role={role} canWrite={canWrite} jobs={jobs} /> }]);
}

describe("the header's role hint", () => {
  it("a viewer sees their role and Read-only, with the reason", async () => {
    header("viewer", false);
    expect(await screen.findByText("Viewer")).toBeTruthy();
    const badge = screen.getByText("Read-only");
    expect(badge.getAttribute("title")).toBe(READ_ONLY_HINT("viewer"));
    expect(READ_ONLY_HINT("viewer")).toBe("Your role is viewer: you can look at everything but not change anything");
  });

  it("an operator and an admin see no Read-only", async () => {
    header("operator", true);
    expect(await screen.findByText("sam")).toBeTruthy();
    expect(screen.queryByText("Read-only")).toBeNull();
    cleanup();
    header("admin", true);
    expect(await screen.findByText("Admin")).toBeTruthy();
    expect(screen.queryByText("Read-only")).toBeNull();
  });
});

describe("the header's job badges (issue 31)", () => {
  it("the worker badge opens the Sessions page", async () => {
    header("viewer", false);
    const label = await screen.findByText("Jobs online");
    expect(label.closest("a")?.getAttribute("href")).toBe("/sessions");
  });
});
