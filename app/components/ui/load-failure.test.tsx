// @vitest-environment happy-dom
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderRemixStub } from "../../../tests/kit/component";
import { useLoadRetry, type LoadRetryPolicy } from "./load-failure";
import { toast } from "./toast";

/**
 * Spec 1 §4 "Loading": a failed load is retried after 1 s and then 2 s, each announced, then
 * given up with its toast (here the same policy on a shorter clock). The flaky journey
 * exchange-rates.spec.ts "three failed attempts" gave up after 2.8 s: the live stream's
 * catch-up revalidated the page while the first retry waited, and that failure was counted
 * as the second attempt.
 */
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const POLICY: LoadRetryPolicy = {
  attempts: 3,
  delaysMs: [300, 600],
  retryingMessage: (n) => `Retrying... (${n}/3)`,
  retryToastMs: 2000,
  gaveUpMessage: "Gave up",
  gaveUpToastMs: 5000,
};

describe("useLoadRetry", () => {
  it("a revalidation nobody scheduled, failing while a retry waits, is not an attempt: the retries keep their delays", async () => {
    const errors = vi.spyOn(toast, "error").mockImplementation(() => "id");
    const loads: number[] = [];
    function Page() {
      const { failure } = useLoaderData<{ failure: number }>();
      const revalidator = useRevalidator();
      useLoadRetry(failure, POLICY);
      return (
        <button type="button" onClick={() => revalidator.revalidate()}>
          another revalidation
        </button>
      );
    }
    renderRemixStub([{ path: "/", Component: Page, loader: () => ({ failure: loads.push(Date.now()) }) }]);
    const extra = await screen.findByRole("button", { name: "another revalidation" });
    const started = loads[0]!;
    // The hook's effect runs after the render that put the button on screen.
    await waitFor(() => expect(errors.mock.calls.map((c) => c[0])).toEqual(["Retrying... (1/3)"]));

    // The stream's catch-up (or any other revalidation) fails too, before the first retry is due.
    await act(async () => extra.click());
    await waitFor(() => expect(loads).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(errors.mock.calls.map((c) => c[0])).toEqual(["Retrying... (1/3)"]);

    // The scheduled retries still run, 300 ms and then 600 ms apart, and only then it gives up.
    await waitFor(() => expect(errors.mock.calls.map((c) => c[0])).toEqual(["Retrying... (1/3)", "Retrying... (2/3)", "Gave up"]), {
      timeout: 5000,
    });
    expect(loads).toHaveLength(4);
    expect(loads[2]! - started).toBeGreaterThanOrEqual(300);
    expect(loads[3]! - loads[2]!).toBeGreaterThanOrEqual(600);
  });

  it("a good load in between ends the retries and starts the count over", async () => {
    const errors = vi.spyOn(toast, "error").mockImplementation(() => "id");
    let fail = true;
    let loads = 0;
    function Page() {
      const { failure } = useLoaderData<{ failure: number | null }>();
      const revalidator = useRevalidator();
      useLoadRetry(failure, POLICY);
      return (
        <button type="button" onClick={() => revalidator.revalidate()}>
          {failure == null ? "loaded" : "failed"}
        </button>
      );
    }
    renderRemixStub([{ path: "/", Component: Page, loader: () => ({ failure: fail ? ++loads : null }) }]);
    await screen.findByRole("button", { name: "failed" });
    await waitFor(() => expect(errors).toHaveBeenCalledTimes(1));
    fail = false;
    await act(async () => screen.getByRole("button").click());
    await screen.findByRole("button", { name: "loaded" });
    await new Promise((r) => setTimeout(r, 1000));
    // No retry ran after the good load, and nothing more was announced.
    expect(loads).toBe(1);
    expect(errors.mock.calls.map((c) => c[0])).toEqual(["Retrying... (1/3)"]);
  });
});
