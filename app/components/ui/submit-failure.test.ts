// @vitest-environment happy-dom
import type { ClientActionFunctionArgs, ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  flushAnswerToasts,
  isSubmitFailure,
  keepInputOnFailure,
  onAnswerToastQueued,
  reloadUnlessSubmitFailed,
  ROUTER_SETTLE_CAP_MS,
  SUBMIT_FAILURE_TEXTS,
} from "./submit-failure";
import { toast } from "./toast";

/** The form kit's clientAction (issue 19, decision 0019): which failures it keeps on the page, which it passes on. */
afterEach(() => {
  vi.restoreAllMocks();
});

/** What Remix throws for an error status the app answered (the shape `isRouteErrorResponse` recognises). */
const errorResponse = (status: number, statusText: string) => ({ status, statusText, internal: false, data: null });

function args(serverAction: () => Promise<unknown>, form: Record<string, string> = { intent: "ad-create", adsMessage: "typed text" }) {
  const request = new Request("http://localhost/trading-planets", { method: "POST", body: new URLSearchParams(form) });
  return { request, params: {}, serverAction } as unknown as ClientActionFunctionArgs;
}

describe("keepInputOnFailure", () => {
  it("a fetch that cannot reach the server → a toast with the section's title and the reason, and a SubmitFailure as the data", async () => {
    const error = vi.spyOn(toast, "error").mockReturnValue("id");
    const title = vi.fn((fd: FormData | null) => (fd?.get("intent") === "ad-create" ? "Failed to create ad" : undefined));
    const data = await keepInputOnFailure(title)(args(() => Promise.reject(new TypeError("Failed to fetch"))));
    expect(data).toEqual({
      ok: false,
      message: "Failed to create ad",
      reason: SUBMIT_FAILURE_TEXTS.unreachable,
      submitFailed: "unreachable",
      intent: "ad-create",
    });
    expect(isSubmitFailure(data)).toBe(true);
    expect(title.mock.calls[0]![0]!.get("adsMessage")).toBe("typed text");
    expect(error).toHaveBeenCalledExactlyOnceWith("Failed to create ad", { description: SUBMIT_FAILURE_TEXTS.unreachable });
  });

  it("an answer that is not the app's (undecodable 5xx, a thrown error, a 5xx error response) → the server reason; without a title it is the toast's text", async () => {
    const error = vi.spyOn(toast, "error").mockReturnValue("id");
    for (const thrown of [new Error("Unable to decode turbo-stream response"), errorResponse(503, "Service Unavailable")]) {
      const data = await keepInputOnFailure()(args(() => Promise.reject(thrown)));
      expect(data).toMatchObject({ ok: false, message: SUBMIT_FAILURE_TEXTS.serverError, submitFailed: "server" });
    }
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenLastCalledWith(SUBMIT_FAILURE_TEXTS.serverError);
  });

  it("what the app answered passes through: its data, a thrown redirect, a 4xx error response", async () => {
    const error = vi.spyOn(toast, "error").mockReturnValue("id");
    expect(await keepInputOnFailure()(args(() => Promise.resolve({ ok: true })))).toEqual({ ok: true });
    const redirect = new Response(null, { status: 302, headers: { Location: "/login" } });
    await expect(keepInputOnFailure()(args(() => Promise.reject(redirect)))).rejects.toBe(redirect);
    const notFound = errorResponse(404, "Not Found");
    await expect(keepInputOnFailure()(args(() => Promise.reject(notFound)))).rejects.toBe(notFound);
    expect(error).not.toHaveBeenCalled();
  });

  it("the toast an answer carries is shown once, in this tab, as the answer arrives (a 4xx answer's too); an answer without one shows none", async () => {
    const success = vi.spyOn(toast, "success").mockReturnValue("id");
    const error = vi.spyOn(toast, "error").mockReturnValue("id");
    const on = { ok: true, intent: "auto-toggle", toast: { id: "t1", type: "success", message: "Auto on" } };
    expect(await keepInputOnFailure()(args(() => Promise.resolve(on)))).toBe(on);
    expect(success).toHaveBeenCalledExactlyOnceWith("Auto on", undefined);
    const refused = {
      ok: false,
      message: "Choose an account",
      toast: { id: "t2", type: "error", message: "Choose an account", description: "No account is selected" },
    };
    await keepInputOnFailure()(args(() => Promise.resolve(refused)));
    expect(error).toHaveBeenCalledExactlyOnceWith("Choose an account", { description: "No account is selected" });
    await keepInputOnFailure()(args(() => Promise.resolve({ ok: true, message: "no toast field" })));
    await keepInputOnFailure()(args(() => Promise.resolve({ ok: true, toast: { type: "nonsense", message: "x" } })));
    expect(success).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledTimes(1);
  });
});

describe("a post waits for the router's own loads (React Router's redirect bug, docs/testing.md 'Issue 19 D')", () => {
  /** A stand-in for `window.__remixRouter`: its state and subscribers. */
  function fakeRouter(navigation: string, revalidation: string) {
    const listeners = new Set<() => void>();
    const router = {
      state: { navigation: { state: navigation }, revalidation },
      subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
      set(next: { navigation?: string; revalidation?: string }) {
        router.state = {
          navigation: { state: next.navigation ?? router.state.navigation.state },
          revalidation: next.revalidation ?? router.state.revalidation,
        };
        for (const l of [...listeners]) l();
      },
      listeners,
    };
    vi.stubGlobal("__remixRouter", router);
    return router;
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("a live revalidation under way: the post goes once it has completed, not before", async () => {
    const router = fakeRouter("idle", "loading");
    const serverAction = vi.fn(() => Promise.resolve({ ok: true }));
    const answer = keepInputOnFailure()(args(serverAction));
    await new Promise((r) => setTimeout(r, 0));
    expect(serverAction).not.toHaveBeenCalled();
    router.set({ revalidation: "idle" });
    expect(await answer).toEqual({ ok: true });
    expect(serverAction).toHaveBeenCalledOnce();
    expect(router.listeners.size).toBe(0);
  });

  it("a navigation's loads under way: waited for too; a navigation's own submission is not", async () => {
    const router = fakeRouter("loading", "idle");
    const serverAction = vi.fn(() => Promise.resolve({ ok: true }));
    const answer = keepInputOnFailure()(args(serverAction));
    await new Promise((r) => setTimeout(r, 0));
    expect(serverAction).not.toHaveBeenCalled();
    router.set({ navigation: "idle" });
    await answer;
    expect(serverAction).toHaveBeenCalledOnce();

    fakeRouter("submitting", "loading");
    const own = vi.fn(() => Promise.resolve({ ok: true }));
    await keepInputOnFailure()(args(own));
    expect(own).toHaveBeenCalledOnce();
  });

  it("a load that never ends holds the post at most ROUTER_SETTLE_CAP_MS", async () => {
    vi.useFakeTimers();
    fakeRouter("idle", "loading");
    const serverAction = vi.fn(() => Promise.resolve({ ok: true }));
    const answer = keepInputOnFailure()(args(serverAction));
    await vi.advanceTimersByTimeAsync(ROUTER_SETTLE_CAP_MS - 1);
    expect(serverAction).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toEqual({ ok: true });
  });
});

describe("answer toasts with the root's <AnswerToasts> mounted", () => {
  it("wait for the flush (the router idle again, the page's data reloaded), then show once", async () => {
    const success = vi.spyOn(toast, "success").mockReturnValue("id");
    const woken = vi.fn();
    const off = onAnswerToastQueued(woken);
    try {
      await keepInputOnFailure()(args(() => Promise.resolve({ ok: true, toast: { id: "t3", type: "success", message: "Sent 16 gifts to user 42" } })));
      expect(woken).toHaveBeenCalledTimes(1);
      expect(success).not.toHaveBeenCalled();
      flushAnswerToasts();
      flushAnswerToasts();
      expect(success).toHaveBeenCalledExactlyOnceWith("Sent 16 gifts to user 42", undefined);
    } finally {
      off();
    }
  });
});

describe("reloadUnlessSubmitFailed", () => {
  const base = { currentUrl: new URL("http://x/a"), nextUrl: new URL("http://x/a"), currentParams: {}, nextParams: {}, formMethod: "POST" };
  it("no reload after a SubmitFailure; otherwise the wrapped rule or Remix's default", () => {
    const failure = { ok: false, message: "m", reason: "r", submitFailed: "unreachable", intent: null };
    const wrapped = vi.fn(() => false);
    const at = (actionResult: unknown, defaultShouldRevalidate = true) => ({ ...base, actionResult, defaultShouldRevalidate }) as ShouldRevalidateFunctionArgs;
    expect(reloadUnlessSubmitFailed()(at(failure))).toBe(false);
    expect(reloadUnlessSubmitFailed()(at({ ok: false, message: "refused by the app" }))).toBe(true);
    expect(reloadUnlessSubmitFailed()(at(undefined, false))).toBe(false);
    expect(reloadUnlessSubmitFailed(wrapped)(at({ ok: true }))).toBe(false);
    expect(wrapped).toHaveBeenCalledOnce();
  });
});
