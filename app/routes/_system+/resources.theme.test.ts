import { describe, expect, it } from "vitest";
import { action, loader } from "./resources.theme";
import { loader as indexLoader } from "../_index";

type DataResult<T = unknown> = { data: T; init: (ResponseInit & { headers?: Record<string, string> }) | null };

function post(fields: Record<string, string>) {
  const request = new Request("http://localhost/resources/theme", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  return action({ request, params: {}, context: {} });
}

describe("dark mode toggle action (spec 2 Main app shell: 'Default is dark and the choice is remembered')", () => {
  it("answers a fetcher with the theme and the remembering cookie", async () => {
    const res = (await post({ theme: "light" })) as unknown as DataResult<{ theme: string }>;
    expect(res.data).toEqual({ theme: "light" });
    expect(res.init?.headers?.["Set-Cookie"]).toMatch(/^gt_theme=light; Path=\//);
  });

  it("sends a no-JavaScript post back to its page, never off the site", async () => {
    const res = (await post({ theme: "dark", redirectTo: "/logs?type=error" })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/logs?type=error");
    expect(res.headers.get("Set-Cookie")).toMatch(/^gt_theme=dark;/);
    const off = (await post({ theme: "dark", redirectTo: "//evil.example/x" })) as Response;
    expect(off.headers.get("Location")).toBe("/");
  });

  it("refuses an unknown theme with 400 and sets no cookie", async () => {
    const res = (await post({ theme: "sepia" })) as unknown as DataResult;
    expect(res.init?.status).toBe(400);
    expect(res.init?.headers).toBeUndefined();
  });

  it("a GET of the resource lands on the app", () => {
    expect(loader().headers.get("Location")).toBe("/");
  });
});

describe("/ (spec 2 Routes: main app with a section menu)", () => {
  const get = (cookie?: string) =>
    indexLoader({ request: new Request("http://localhost/", { headers: cookie ? { cookie } : {} }), params: {}, context: {} });

  it("redirects to exchange-rates by default and to the remembered section otherwise", () => {
    expect(get().headers.get("Location")).toBe("/exchange-rates");
    expect(get("gt_section=collections").headers.get("Location")).toBe("/collections");
    expect(get("gt_section=bogus").headers.get("Location")).toBe("/exchange-rates");
  });
});
