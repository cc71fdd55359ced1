import { describe, expect, it } from "vitest";
import { SECTIONS } from "~/components/shell/sections";
import { getRememberedSection, rememberedSectionPath, rememberSectionHeader } from "./section.server";

const req = (path: string, cookie?: string) => new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("remembered section (spec 2 Main app shell: 'remembered across visits; the default is exchange-rates')", () => {
  it("lists the six sections in the spec's order with their ids and paths", () => {
    expect(SECTIONS.map((s) => [s.id, s.label, s.path])).toEqual([
      ["exchange-rates", "Exchange Rates", "/exchange-rates"],
      ["gifts", "Bowling Bots", "/gifts"],
      ["characters", "All Characters", "/characters"],
      ["trading-planets", "Trading Planets", "/trading-planets"],
      ["galacord", "GalaCord", "/galacord"],
      ["collections", "Collections", "/collections"],
    ]);
  });

  it("defaults to exchange-rates and ignores unknown values", () => {
    expect(getRememberedSection(req("/"))).toBe("exchange-rates");
    expect(getRememberedSection(req("/", "gt_section=logs"))).toBe("exchange-rates");
    expect(rememberedSectionPath(req("/"))).toBe("/exchange-rates");
  });

  it("sends / to the remembered section", () => {
    expect(rememberedSectionPath(req("/", "gt_section=gifts"))).toBe("/gifts");
    expect(rememberedSectionPath(req("/", "x=1; gt_section=trading-planets"))).toBe("/trading-planets");
  });

  it("remembers a visited section, including its sub-pages", () => {
    expect(rememberSectionHeader(req("/galacord"))).toMatch(/^gt_section=galacord; Path=\/; Max-Age=31536000/);
    expect(rememberSectionHeader(req("/collections/", "gt_section=gifts"))).toMatch(/^gt_section=collections;/);
    expect(rememberSectionHeader(req("/characters/abc?x=1"))).toMatch(/^gt_section=characters;/);
  });

  it("sets nothing when the section is already remembered or the page is not a section", () => {
    expect(rememberSectionHeader(req("/gifts", "gt_section=gifts"))).toBeUndefined();
    expect(rememberSectionHeader(req("/logs", "gt_section=gifts"))).toBeUndefined();
    expect(rememberSectionHeader(req("/settings"))).toBeUndefined();
    expect(rememberSectionHeader(req("/giftsx"))).toBeUndefined();
  });
});
