import { describe, expect, it } from "vitest";
import { callRoute, makeRequest, remixHandler, routeArgs, toastOf } from "#tests/kit";
import { action, loader } from "./resources.theme";
import { loader as indexLoader } from "../_index";

const post = (fields: Record<string, string>) => callRoute(action, makeRequest("/resources/theme", { form: fields }));

describe("dark mode toggle action (spec 2 Main app shell: 'Default is dark and the choice is remembered')", () => {
  it("answers a fetcher with the theme and the remembering cookie", async () => {
    const res = await post({ theme: "light" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ theme: "light" });
    expect(res.headers.get("Set-Cookie")).toMatch(/^gt_theme=light; Path=\//);
  });

  it("sends a no-JavaScript post back to its page, never off the site", async () => {
    const res = await post({ theme: "dark", redirectTo: "/logs?type=error" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/logs?type=error");
    expect(res.headers.get("Set-Cookie")).toMatch(/^gt_theme=dark;/);
    const off = await post({ theme: "dark", redirectTo: "//evil.example/x" });
    expect(off.headers.get("Location")).toBe("/");
  });

  it("refuses an unknown theme with 400 and sets no cookie", async () => {
    const res = await post({ theme: "sepia" });
    expect(res.status).toBe(400);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(res.data).toEqual({ error: "Theme must be dark or light", message: "Theme must be dark or light" });
  });

  it("through Remix, a script's refused theme is a 400 {error, message}, never a 200 with an error body (issue 28); a no-JS form goes back with a toast", async () => {
    const handle = await remixHandler((r) => r.file.includes("resources.theme"));
    const res = await handle(makeRequest("/resources/theme", { form: { theme: "sepia" } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Theme must be dark or light", message: "Theme must be dark or light" });
    const fetcher = await handle(makeRequest("/resources/theme.data", { form: { theme: "sepia" } }));
    expect(fetcher.status).toBe(400);
    await fetcher.arrayBuffer();
    const noJs = await handle(makeRequest("/resources/theme", { form: { theme: "sepia", redirectTo: "/logs" }, headers: { Accept: "text/html" } }));
    expect(noJs.status).toBe(302);
    expect(noJs.headers.get("Location")).toBe("/logs");
    expect(toastOf(noJs)).toMatchObject({ type: "error", message: "Theme must be dark or light" });
  });

  it("a GET of the resource lands on the app", () => {
    expect(loader().headers.get("Location")).toBe("/");
  });
});

describe("/ (spec 2 Routes: main app with a section menu)", () => {
  const get = (cookie?: string) => indexLoader(routeArgs(makeRequest("/", { cookie })));

  it("redirects to exchange-rates by default and to the remembered section otherwise", () => {
    expect(get().headers.get("Location")).toBe("/exchange-rates");
    expect(get("gt_section=collections").headers.get("Location")).toBe("/collections");
    expect(get("gt_section=bogus").headers.get("Location")).toBe("/exchange-rates");
  });
});
