/**
 * The /api contract of Trading Planets (spec 2 §3 "Trading planets", §5, §7, §8, §9).
 * Client-safe: no server imports.
 *
 *   GET    /api/planet-sequences              → { sequences: PlanetSequence[] } (list order)
 *   POST   /api/planet-sequences  SequenceInput → { sequence }
 *   PUT    /api/planet-sequences  { ids, updates: { isActive } } → { sequences } (bulk active)
 *   PUT    /api/planet-sequences/{id} Partial<SequenceInput> → { sequence }
 *   DELETE /api/planet-sequences/{id}         → { success, message }
 *   GET    /api/custom-planets                → { planets: CustomPlanet[] }
 *   POST   /api/custom-planets {name, type}   → { planet }
 *   PUT    /api/custom-planets/{id} {name?, type?} → { planet }
 *   DELETE /api/custom-planets/{id}           → { success, message }
 *   GET    /api/ads                           → { ads: Ad[] }
 *   POST   /api/ads {adsMessage, category?, isActive?} → { ad }
 *   PUT    /api/ads/{id} {adsMessage?, category?, isActive?} → { ad }
 *   DELETE /api/ads/{id}                      → { success, message }
 *
 * Errors: `{ error, message }` with the same text. The zod schemas are in api/trading-schemas.ts
 * (kept apart so the screen, which imports these texts, does not ship zod on first load).
 */

/** Spec 2 §8 "Trading planets": toasts. */
export const TRADING_MESSAGES = {
  loadCustomPlanetsFailed: "Failed to load custom planets",
  customPlanetCreated: "Custom planet created successfully",
  customPlanetUpdated: "Custom planet updated successfully",
  customPlanetDeleted: "Custom planet deleted successfully",
  deleteCustomPlanetFailed: "Failed to delete custom planet",
  loadAdsFailed: "Failed to load ads",
  refreshAdsFailed: "Failed to refresh ads",
  adCreated: "Ad created successfully",
  adUpdated: "Ad updated successfully",
  adDeleted: "Ad deleted successfully",
  deleteAdFailed: "Failed to delete ad",
  selectedAdsDeleted: "Selected ads deleted successfully",
  deleteSelectedAdsFailed: "Failed to delete selected ads",
  updateAdStatusFailed: "Failed to update ad status",
  loadDataFailed: "Failed to load data",
  sequenceCreated: "Sequence created successfully",
  sequenceUpdated: "Sequence updated successfully",
  sequenceDeleted: "Sequence deleted successfully",
  createSequenceFailed: "Failed to create sequence",
  updateSequenceFailed: "Failed to update sequence",
  deleteSequenceFailed: "Failed to delete sequence",
  updateSequenceStatusFailed: "Failed to update sequence status",
  copied: "Text copied to clipboard",
} as const;

/** Spec 2 §8: default messages of failed calls when the server gives no error field. */
export const TRADING_ERRORS = {
  fetchSequences: "Failed to fetch sequences",
  createSequence: "Failed to create sequence",
  updateSequence: "Failed to update sequence",
  deleteSequence: "Failed to delete sequence",
  updateSequences: "Failed to update sequences",
  fetchCustomPlanets: "Failed to fetch custom planets",
  createCustomPlanet: "Failed to create custom planet",
  updateCustomPlanet: "Failed to update custom planet",
  deleteCustomPlanet: "Failed to delete custom planet",
  fetchAds: "Failed to fetch ads",
  createAd: "Failed to create ad",
  deleteAd: "Failed to delete ad",
  // Spec 2 §5 validation texts:
  sequenceName: "Please enter a sequence name",
  sequencePlanets: "Please add at least one planet",
  sequenceSeconds: "Seconds must be a non-negative number",
  planetName: "Please enter a planet name",
  adMessage: "Please enter an ad message",
  // Ours (the spec leaves the server's answers open):
  sequenceNotFound: "Sequence not found",
  customPlanetNotFound: "Custom planet not found",
  customPlanetExists: "A custom planet with this name and type already exists",
  adNotFound: "Ad not found",
  planetType: "Unknown planet type",
  idsRequired: "ids must list at least one sequence id",
} as const;

/** Spec 2 §9 "Sequence defaults", "Sequence list box height", "Drag touch long press", … */
export const TRADING_LIMITS = {
  seconds: 6,
  secondsMax: 999,
  closedPlanetsLevel: 51,
  openPlanetsLevel: 15,
  levelMax: 9999,
  listHeightPx: 400,
  dragTouchDelayMs: 120,
  dragMouseDistancePx: 5,
  deleteLongPressMs: 500,
  clipboardToastMs: 2000,
  nameMax: 100,
  planetNameMax: 60,
  /** Ours: an ad may hold several lines; each line posted is at most 200 characters (issue 11). */
  adLineMax: 200,
  adMax: 2000,
  stepsMax: 50,
} as const;

export const CUSTOM_PLANET_TYPES = ["blacklisted", "english"] as const;
export type CustomPlanetType = (typeof CUSTOM_PLANET_TYPES)[number];
export const AD_CATEGORIES = ["ads", "msg"] as const;
export type AdCategory = (typeof AD_CATEGORIES)[number];

export type SequenceStep = { id: string; planetType: string; shuffle: boolean };
export type PlanetSequence = {
  _id: string;
  name: string;
  sequence: SequenceStep[];
  seconds: number;
  closedPlanetsLevel: number;
  openPlanetsLevel: number;
  isActive: boolean;
};
export type CustomPlanet = { _id: string; name: string; type: CustomPlanetType };
export type Ad = { _id: string; adsMessage: string; category: AdCategory; isActive: boolean };

/** Spec 2 §3: a step's shuffle defaults to true unless its type starts with russian. */
export function defaultShuffle(planetType: string): boolean {
  return !planetType.toLowerCase().startsWith("russian");
}
