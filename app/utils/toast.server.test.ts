import { describe, expect, it } from "vitest";
import { getFlashToast, jsonWithError, jsonWithSuccess, redirectWithSuccess } from "./toast.server";

/** The cookie pair a response sets (name=value), as the browser sends it back. */
function cookieOf(res: Response): string {
  return (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}
const get = (cookie: string) => new Request("http://app/collections", { headers: { Cookie: cookie } });

describe("the flash toast (root loader)", () => {
  it("is read once: the answer that takes it clears the cookie", async () => {
    const flash = cookieOf(await redirectWithSuccess("/collections", "Auto on"));
    const first = await getFlashToast(get(flash));
    expect(first.toast).toMatchObject({ type: "success", message: "Auto on" });
    expect(first.headers?.get("Set-Cookie")).toMatch(/^toast-session=/);
    const emptied = cookieOf(new Response(null, { headers: first.headers }));
    expect((await getFlashToast(get(emptied))).toast).toBeUndefined();
  });

  it("a load that finds no toast sets no cookie, so it cannot wipe a flash an action set meanwhile (the lost 'Auto on' toast)", async () => {
    // The cookie an earlier read left: an empty toast session.
    const flash = cookieOf(await redirectWithSuccess("/collections", "first"));
    const { headers } = await getFlashToast(get(flash));
    const empty = cookieOf(new Response(null, { headers }));
    // A revalidation sent with that empty cookie answers after an action set a new flash: it must not overwrite it.
    const late = await getFlashToast(get(empty));
    expect(late.toast).toBeUndefined();
    expect(late.headers).toBeUndefined();
  });
});

describe("a fetcher answer's toast (the acting tab's, not a cookie)", () => {
  it("rides the answer with its own id and sets no flash cookie another tab could take", () => {
    const answer = jsonWithSuccess({ ok: true, intent: "auto-toggle" }, "Auto on");
    expect(answer.data).toMatchObject({ ok: true, intent: "auto-toggle", toast: { type: "success", message: "Auto on" } });
    expect(answer.data.toast.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Headers(answer.init?.headers).get("Set-Cookie")).toBeNull();
    expect(jsonWithSuccess({}, "Auto on").data.toast.id).not.toBe(answer.data.toast.id);
  });

  it("keeps the status and headers given, and a second line", () => {
    const answer = jsonWithError({ ok: false }, { message: "Failed to start", description: "Galaxy refused" }, { status: 409, headers: { "X-Test": "1" } });
    expect(answer.init?.status).toBe(409);
    expect(new Headers(answer.init?.headers).get("X-Test")).toBe("1");
    expect(answer.data.toast).toMatchObject({ type: "error", message: "Failed to start", description: "Galaxy refused" });
  });
});
