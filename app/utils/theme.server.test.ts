import { describe, expect, it } from "vitest";
import { getTheme, setThemeCookie } from "./theme.server";

const req = (cookie?: string) => new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });

describe("theme cookie (spec 2 Main app shell: 'Default is dark and the choice is remembered')", () => {
  it("defaults to dark without a cookie", () => {
    expect(getTheme(req())).toBe("dark");
  });

  it("reads a remembered light or dark choice among other cookies", () => {
    expect(getTheme(req("a=1; gt_theme=light; toast-session=e30%3D."))).toBe("light");
    expect(getTheme(req("gt_theme=dark"))).toBe("dark");
  });

  it("ignores values it does not know, falling back to dark", () => {
    expect(getTheme(req("gt_theme=blue"))).toBe("dark");
    expect(getTheme(req("gt_theme=%E0%A4%A"))).toBe("dark");
    expect(getTheme(req("xgt_theme=light"))).toBe("dark");
  });

  it("serializes a one-year, site-wide, HttpOnly, SameSite=Lax cookie", () => {
    const header = setThemeCookie("light");
    expect(header).toMatch(/^gt_theme=light; /);
    expect(header).toContain("Path=/");
    expect(header).toContain("Max-Age=31536000");
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    // Round trip: what the browser sends back is read as the same theme.
    expect(getTheme(req(header.split(";")[0]))).toBe("light");
  });
});
