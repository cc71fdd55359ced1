import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Empties sequences, custom planets and ads through the /api (the session cookie of the E2E operator). */
export async function resetTrading(request: APIRequestContext) {
  const seqs = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { _id: string }[] };
  for (const s of seqs.sequences) expect((await request.delete(`/api/planet-sequences/${s._id}`)).status()).toBe(200);
  const planets = (await (await request.get("/api/custom-planets")).json()) as { planets: { _id: string }[] };
  for (const p of planets.planets) expect((await request.delete(`/api/custom-planets/${p._id}`)).status()).toBe(200);
  const ads = (await (await request.get("/api/ads")).json()) as { ads: { _id: string }[] };
  for (const a of ads.ads) expect((await request.delete(`/api/ads/${a._id}`)).status()).toBe(200);
}

export async function seedSequences(request: APIRequestContext, names: string[]) {
  for (const name of names) expect((await request.post("/api/planet-sequences", { data: { name, sequence: [{ planetType: "ring" }] } })).status()).toBe(201);
}

export async function sequenceNames(request: APIRequestContext): Promise<string[]> {
  const body = (await (await request.get("/api/planet-sequences")).json()) as { sequences: { name: string }[] };
  return body.sequences.map((s) => s.name);
}

export const toast = (page: Page, text: string) => page.locator(".gt-toaster").getByText(text, { exact: true });
export const sequenceCard = (page: Page, name: string) => page.getByTestId("sequence").filter({ has: page.getByText(name, { exact: true }) });
export const adRow = (page: Page, text: string) => page.getByTestId("ad").filter({ hasText: text });
