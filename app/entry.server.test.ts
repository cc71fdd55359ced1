import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "./entry.server";

/**
 * Issue 21 item 5: an unauthenticated `?_data=` request made Remix print ~960 bytes of stack
 * trace each ("Warning: Single fetch-enabled apps should not be making ?_data requests").
 * handleError logs one line, without the stack; aborted requests are not logged at all.
 */
describe("handleError", () => {
  afterEach(() => vi.restoreAllMocks());
  const args = (url: string, signal?: AbortSignal) => ({ request: new Request(url, { signal }), params: {}, context: {} });

  it("one line for Remix's ?_data notice, no stack", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const err = new Error("Warning: Single fetch-enabled apps should not be making ?_data requests, this is likely to break in the future");
    handleError(err, args("http://localhost/login?_data=root"));
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).toBe("[remix] GET /login: Warning: Single fetch-enabled apps should not be making ?_data requests, this is likely to break in the future");
    expect(line).not.toContain("\n");
    expect(warn.mock.calls[0]).toHaveLength(1);
  });

  it("nothing for a request the client abandoned", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const ctl = new AbortController();
    ctl.abort();
    handleError(new Error("aborted"), args("http://localhost/x", ctl.signal));
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("handleError and the router's own 4xx", () => {
  it("logs nothing for a 405 the router answered (OPTIONS on a page)", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    // The shape of the router's ErrorResponse (what isRouteErrorResponse recognises).
    const routerAnswer = { status: 405, statusText: "Method Not Allowed", internal: true, data: null };
    handleError(routerAnswer, { request: new Request("http://localhost/login", { method: "OPTIONS" }), params: {}, context: {} });
    expect(warn).not.toHaveBeenCalled();
  });
});
