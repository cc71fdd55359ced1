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
 * Errors: `{ error, message }` with the same text.
 */
import { z } from "zod";

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

const blank = (v: string) => v.trim() === "";

export const stepSchema = z.object({
  id: z.string().trim().min(1).max(64).optional(),
  planetType: z.string().trim().min(1, TRADING_ERRORS.planetType).max(TRADING_LIMITS.planetNameMax),
  shuffle: z.boolean().optional(),
});

const secondsSchema = z
  .number({ error: TRADING_ERRORS.sequenceSeconds })
  .int(TRADING_ERRORS.sequenceSeconds)
  .min(0, TRADING_ERRORS.sequenceSeconds)
  .max(TRADING_LIMITS.secondsMax, `Seconds must be at most ${TRADING_LIMITS.secondsMax}`);
const levelSchema = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must not be negative`)
    .max(TRADING_LIMITS.levelMax, `${label} must be at most ${TRADING_LIMITS.levelMax}`);

const sequenceFields = {
  name: z
    .string({ error: TRADING_ERRORS.sequenceName })
    .max(TRADING_LIMITS.nameMax, `Sequence name is at most ${TRADING_LIMITS.nameMax} characters`)
    .refine((v) => !blank(v), TRADING_ERRORS.sequenceName)
    .transform((v) => v.trim()),
  sequence: z
    .array(stepSchema, { error: TRADING_ERRORS.sequencePlanets })
    .min(1, TRADING_ERRORS.sequencePlanets)
    .max(TRADING_LIMITS.stepsMax, `A sequence has at most ${TRADING_LIMITS.stepsMax} planets`),
  seconds: secondsSchema,
  closedPlanetsLevel: levelSchema("Closed planets level"),
  openPlanetsLevel: levelSchema("Open planets level"),
  isActive: z.boolean({ error: "isActive must be true or false" }),
};

/** POST /api/planet-sequences: name and sequence required; the rest default (spec 2 §3, §9). */
export const createSequenceSchema = z.strictObject({
  ...sequenceFields,
  seconds: sequenceFields.seconds.default(TRADING_LIMITS.seconds),
  closedPlanetsLevel: sequenceFields.closedPlanetsLevel.default(TRADING_LIMITS.closedPlanetsLevel),
  openPlanetsLevel: sequenceFields.openPlanetsLevel.default(TRADING_LIMITS.openPlanetsLevel),
  isActive: sequenceFields.isActive.default(true),
  _id: z.string().optional(),
});
export type SequenceInput = z.output<typeof createSequenceSchema>;

/** PUT /api/planet-sequences/{id}: any of the fields. */
export const updateSequenceSchema = z
  .strictObject({
    name: sequenceFields.name.optional(),
    sequence: sequenceFields.sequence.optional(),
    seconds: sequenceFields.seconds.optional(),
    closedPlanetsLevel: sequenceFields.closedPlanetsLevel.optional(),
    openPlanetsLevel: sequenceFields.openPlanetsLevel.optional(),
    isActive: sequenceFields.isActive.optional(),
    _id: z.string().optional(),
  })
  .refine((v) => Object.keys(v).some((k) => k !== "_id"), "Nothing to update");
export type SequenceUpdate = z.output<typeof updateSequenceSchema>;

/** PUT /api/planet-sequences {ids, updates}: bulk active update (spec 2 §4). */
export const bulkSequenceSchema = z.strictObject({
  ids: z.array(z.string().max(64), { error: TRADING_ERRORS.idsRequired }).min(1, TRADING_ERRORS.idsRequired).max(1000),
  updates: z.strictObject({ isActive: z.boolean({ error: "updates.isActive must be true or false" }) }, { error: "updates must be { isActive }" }),
});

const planetName = z
  .string({ error: TRADING_ERRORS.planetName })
  .max(TRADING_LIMITS.planetNameMax, `Planet name is at most ${TRADING_LIMITS.planetNameMax} characters`)
  .refine((v) => !blank(v), TRADING_ERRORS.planetName)
  .transform((v) => v.trim());
const planetType = z.enum(CUSTOM_PLANET_TYPES, { error: "type must be blacklisted or english" });

export const createCustomPlanetSchema = z.strictObject({ name: planetName, type: planetType });
export const updateCustomPlanetSchema = z
  .strictObject({ name: planetName.optional(), type: planetType.optional(), _id: z.string().optional() })
  .refine((v) => v.name !== undefined || v.type !== undefined, TRADING_ERRORS.planetName);

const adMessage = z
  .string({ error: TRADING_ERRORS.adMessage })
  .max(TRADING_LIMITS.adMax, `An ad message is at most ${TRADING_LIMITS.adMax} characters`)
  .refine((v) => !blank(v), TRADING_ERRORS.adMessage)
  .refine((v) => v.split("\n").every((line) => [...line].length <= TRADING_LIMITS.adLineMax), `Each line of an ad is at most ${TRADING_LIMITS.adLineMax} characters`);
const adCategory = z.enum(AD_CATEGORIES, { error: "category must be ads or msg" });

/** Ad text is kept exactly as typed (emoji, symbols, spaces): only checked, never trimmed. */
export const createAdSchema = z.strictObject({ adsMessage: adMessage, category: adCategory.default("ads"), isActive: z.boolean().default(true) });
export const updateAdSchema = z
  .strictObject({ adsMessage: adMessage.optional(), category: adCategory.optional(), isActive: z.boolean().optional(), _id: z.string().optional() })
  .refine((v) => v.adsMessage !== undefined || v.category !== undefined || v.isActive !== undefined, "Nothing to update");
