import { describe, expect, it } from "vitest";
import { jsonWithSuccess } from "remix-toast";
import { getFlashToast } from "./toast.server";

/** The cookie pair a response sets (name=value), as the browser sends it back. */
function cookieOf(res: Response): string {
  return (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}
const get = (cookie: string) => new Request("http://app/collections", { headers: { Cookie: cookie } });

describe("the flash toast (root loader)", () => {
  it("is read once: the answer that takes it clears the cookie", async () => {
    const flash = cookieOf(await jsonWithSuccess({ ok: true }, "Auto on"));
    const first = await getFlashToast(get(flash));
    expect(first.toast).toMatchObject({ type: "success", message: "Auto on" });
    expect(first.headers?.get("Set-Cookie")).toMatch(/^toast-session=/);
    const emptied = cookieOf(new Response(null, { headers: first.headers }));
    expect((await getFlashToast(get(emptied))).toast).toBeUndefined();
  });

  it("a load that finds no toast sets no cookie, so it cannot wipe a flash an action set meanwhile (the lost 'Auto on' toast)", async () => {
    // The cookie an earlier read left: an empty toast session.
    const flash = cookieOf(await jsonWithSuccess({ ok: true }, "first"));
    const { headers } = await getFlashToast(get(flash));
    const empty = cookieOf(new Response(null, { headers }));
    // A revalidation sent with that empty cookie answers after an action set a new flash: it must not overwrite it.
    const late = await getFlashToast(get(empty));
    expect(late.toast).toBeUndefined();
    expect(late.headers).toBeUndefined();
  });
});
