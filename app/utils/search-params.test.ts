import { describe, expect, it } from "vitest";
import { buildSearchParams, flag, keepDataForUrlOnlyParams, oneOf, parseSearchParams, repeated, searchString, text } from "./search-params";

const Schema = { q: text(), kind: oneOf(["a", "b"] as const), all: flag(), open: repeated() };

describe("list state in the URL (CONVENTIONS rule 6)", () => {
  it("parses with defaults; bad or repeated values fall back instead of failing", () => {
    expect(parseSearchParams(Schema, new URLSearchParams())).toEqual({ q: "", kind: undefined, all: false, open: [] });
    expect(parseSearchParams(Schema, new URLSearchParams("q=gr&kind=zzz&all=1&open=x&open=&open=x&open=y"))).toEqual({
      q: "gr",
      kind: undefined,
      all: true,
      open: ["x", "y"],
    });
    expect(parseSearchParams(Schema, new URLSearchParams("q=a&q=b&kind=a&kind=b&all=yes"))).toEqual({ q: "", kind: undefined, all: false, open: [] });
  });

  it("builds in the schema's order, omits defaults, keeps params it does not own", () => {
    const params = buildSearchParams(Schema, { q: "", kind: "b", all: true, open: ["x", "y"] }, "other=1&q=old");
    expect(params.toString()).toBe("other=1&kind=b&all=1&open=x&open=y");
    expect(searchString(buildSearchParams(Schema, { q: "", all: false, open: [] }))).toBe("");
  });

  it("round-trips", () => {
    const value = { q: "gold ring", kind: "a" as const, all: false, open: ["Gold Ring|Clay"] };
    expect(parseSearchParams(Schema, buildSearchParams(Schema, value))).toEqual(value);
  });
});

describe("keepDataForUrlOnlyParams (the shouldRevalidate of Exchange Rates, All Characters, Bowling Bots)", () => {
  const keep = keepDataForUrlOnlyParams(["dialog", "confirm"]);
  const at = (path: string) => new URL(path, "http://x");
  it("keeps the data when only URL-only params change on a GET navigation", () => {
    expect(keep({ currentUrl: at("/gifts"), nextUrl: at("/gifts?dialog=companion"), defaultShouldRevalidate: true })).toBe(false);
    expect(keep({ currentUrl: at("/gifts?dialog=a&summary=all"), nextUrl: at("/gifts?summary=all"), formMethod: "GET", defaultShouldRevalidate: true })).toBe(
      false,
    );
  });
  it("revalidates as Remix would for posts, other params, other paths and the same URL", () => {
    expect(keep({ currentUrl: at("/gifts"), nextUrl: at("/gifts?dialog=a"), formMethod: "POST", defaultShouldRevalidate: true })).toBe(true);
    expect(keep({ currentUrl: at("/gifts"), nextUrl: at("/gifts?summary=all"), defaultShouldRevalidate: true })).toBe(true);
    expect(keep({ currentUrl: at("/gifts"), nextUrl: at("/characters?dialog=a"), defaultShouldRevalidate: true })).toBe(true);
    expect(keep({ currentUrl: at("/gifts?dialog=a"), nextUrl: at("/gifts?dialog=a"), defaultShouldRevalidate: true })).toBe(true);
  });
});
