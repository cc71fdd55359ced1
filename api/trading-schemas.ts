/** zod schemas of the Trading Planets /api bodies (spec 2 §5); texts and limits in api/trading.ts. */
import { z } from "zod";
import { isPlanetName, PLANET_NAME_RULE } from "./planet-name";
import { AD_CATEGORIES, CUSTOM_PLANET_TYPES, TRADING_ERRORS, TRADING_LIMITS } from "./trading";

const blank = (v: string) => v.trim() === "";

export const stepSchema = z.object({
  id: z.string().trim().min(1).max(64).optional(),
  planetType: z.string().trim().min(1, TRADING_ERRORS.planetType).max(TRADING_LIMITS.planetNameMax),
  shuffle: z.boolean().optional(),
});

const secondsSchema = z
  .number({ error: TRADING_ERRORS.sequenceSeconds })
  .min(0, TRADING_ERRORS.sequenceSeconds)
  .int(TRADING_ERRORS.sequenceSecondsWhole)
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

/** Required (spec 2 §5), then the platform's planet-name rule (api/planet-name.ts): a name it cannot join is refused. */
const planetName = z
  .string({ error: TRADING_ERRORS.planetName })
  .refine((v) => !blank(v), TRADING_ERRORS.planetName)
  .transform((v) => v.trim())
  .refine(isPlanetName, PLANET_NAME_RULE);
const planetType = z.enum(CUSTOM_PLANET_TYPES, { error: "type must be blacklisted or english" });

export const createCustomPlanetSchema = z.strictObject({ name: planetName, type: planetType });
export const updateCustomPlanetSchema = z
  .strictObject({ name: planetName.optional(), type: planetType.optional(), _id: z.string().optional() })
  .refine((v) => v.name !== undefined || v.type !== undefined, TRADING_ERRORS.planetName);

const adMessage = z
  .string({ error: TRADING_ERRORS.adMessage })
  .max(TRADING_LIMITS.adMax, `An ad message is at most ${TRADING_LIMITS.adMax} characters`)
  .refine((v) => !blank(v), TRADING_ERRORS.adMessage);
const adCategory = z.enum(AD_CATEGORIES, { error: "category must be ads or msg" });

/** Ad text is kept exactly as typed (emoji, symbols, spaces): only checked, never trimmed. */
export const createAdSchema = z.strictObject({ adsMessage: adMessage, category: adCategory.default("ads"), isActive: z.boolean().default(true) });
export const updateAdSchema = z
  .strictObject({ adsMessage: adMessage.optional(), category: adCategory.optional(), isActive: z.boolean().optional(), _id: z.string().optional() })
  .refine((v) => v.adsMessage !== undefined || v.category !== undefined || v.isActive !== undefined, "Nothing to update");
