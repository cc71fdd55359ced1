/**
 * The zod schemas of the Collections /api (spec 2 §7 "Collections"), apart from api/collections.ts
 * so screens that only need its texts and options do not load zod (bench/first-load.ts).
 */
import { z } from "zod";
import { COLLECTIONS_TEXTS, COLLECTIONS_LIMITS, isCollectionSetId, type CollectionSetId } from "./collections";

const ACCOUNT_ID = /^\d{1,12}$/;
const idText = (message: string) =>
  z
    .union([z.string(), z.number()], { error: message })
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(ACCOUNT_ID, { error: message }));

export const clayCredentialsSchema = z.object(
  {
    userID: idText(COLLECTIONS_TEXTS.badUserId),
    password: z.string({ error: COLLECTIONS_TEXTS.badPassword }).min(1, { error: COLLECTIONS_TEXTS.badPassword }).max(200).optional(),
  },
  { error: COLLECTIONS_TEXTS.badBody },
);

const setField = z
  .union([z.number(), z.string()], { error: COLLECTIONS_TEXTS.noSet })
  .refine((v) => String(v).trim() !== "", { error: COLLECTIONS_TEXTS.noSet })
  .transform(Number)
  .refine(isCollectionSetId, { error: COLLECTIONS_TEXTS.badSet })
  .transform((v) => v as CollectionSetId);

export const masticRunSchema = clayCredentialsSchema.extend({
  collectionId: setField,
  numberOfRequests: z
    .number({ error: COLLECTIONS_TEXTS.badRequests })
    .int({ error: COLLECTIONS_TEXTS.badRequests })
    .min(1, { error: COLLECTIONS_TEXTS.badRequests })
    .max(COLLECTIONS_LIMITS.masticRequests, { error: COLLECTIONS_TEXTS.badRequests })
    .default(COLLECTIONS_LIMITS.masticRequests),
});

export const inventorySchema = clayCredentialsSchema.extend({
  /** Ours: which set's pieces to list (default 178). */
  collectionId: setField.optional(),
});

export const sendGiftsSchema = clayCredentialsSchema.extend({
  receiverUserId: z
    .union([z.string(), z.number()], { error: COLLECTIONS_TEXTS.noRecipient })
    .transform((v) => String(v).trim())
    .refine((v) => v !== "", { error: COLLECTIONS_TEXTS.noRecipient })
    .pipe(z.string().regex(ACCOUNT_ID, { error: COLLECTIONS_TEXTS.badRecipient })),
  giftIdsToSend: z
    .array(
      z
        .union([z.string(), z.number()])
        .transform((v) => String(v).trim())
        .pipe(z.string().regex(/^\d{1,15}$/, { error: COLLECTIONS_TEXTS.badGiftIds })),
      {
        error: COLLECTIONS_TEXTS.badGiftIds,
      },
    )
    .min(1, { error: COLLECTIONS_TEXTS.noGifts })
    .max(COLLECTIONS_LIMITS.maxGiftIds, { error: COLLECTIONS_TEXTS.badGiftIds })
    .transform((ids) => [...new Set(ids)]),
});

/**
 * The Collections screen's pickers as posted (spec 2 §5): the set, when the form carries its
 * picker; the recipient ("Other account ID" wins over the picker; empty clears it).
 */
export const pickersFormSchema = z.object({
  collectionId: setField.optional(),
  recipientId: z
    .string()
    .trim()
    .regex(/^(\d{1,12})?$/, { error: COLLECTIONS_TEXTS.recipientNotId })
    .optional(),
});

/** The floating panel's modes (the `panel` intent and its cookie). */
export const panelModeSchema = z.enum(["show", "minimized", "hide"], { error: "Unknown panel mode" });
