/**
 * The zod schemas of the GalaCord /api (spec 2 §7 "Relay bot"), apart from api/galacord.ts so
 * the screen, which needs only its texts and types, does not load zod (bench/first-load.ts).
 */
import { z } from "zod";
import { RELAY_ERRORS, RELAY_OPTION_LIMITS as L } from "./galacord";
import { PLANET_NAME_PATTERN } from "./planet-name";

const snowflake = z
  .string()
  .trim()
  .regex(/^\d{1,25}$/, "channelId must be a Discord channel id");
const channelId = z.string({ error: RELAY_ERRORS.channelRequired }).trim().min(1, RELAY_ERRORS.channelRequired).pipe(snowflake);

export const accountIdSchema = z.string().regex(/^-?\d{1,20}$/, RELAY_ERRORS.accountNotFound);
/** In a body: the id as the lists give it (a string), or as a plain JSON number (Galaxy ids are whole numbers). */
const bodyAccountId = z.union([z.string(), z.number().int().safe()], { error: "accountId: a Galaxy account id" }).transform(String).pipe(accountIdSchema);

/** Take the account over from the stalker, the trading run or Collections when one holds it (docs/sessions.md). */
const takeover = z.boolean({ error: "takeover: must be true or false" }).optional();
export const connectSchema = z.object({ accountId: bodyAccountId, channelId, takeover });
export const connectNewSchema = z.object({
  channelId,
  recoveryCode: z
    .string({ error: RELAY_ERRORS.recoveryCodeRequired })
    .trim()
    .min(1, RELAY_ERRORS.recoveryCodeRequired)
    .max(64, "recoveryCode: at most 64 characters"),
  takeover,
});
export const updateChannelSchema = z.object({ channelId });
export const planetSchema = z.object({
  planet: z.string({ error: RELAY_ERRORS.planetRequired }).trim().min(1, RELAY_ERRORS.planetRequired).regex(PLANET_NAME_PATTERN, RELAY_ERRORS.planetInvalid),
});

/** `{nick}`, `{planet}` and `{channel}` are the only placeholders; braces are nothing else. */
const nameTemplate = z
  .string({ error: RELAY_ERRORS.nameTemplate })
  .trim()
  .min(1, RELAY_ERRORS.nameTemplate)
  .max(L.nameTemplate, RELAY_ERRORS.nameTemplate)
  .refine((t) => !/[{}]/.test(t.replace(/\{(nick|planet|channel)\}/g, "")), RELAY_ERRORS.nameTemplate);

/** Per-connection relay options (issue 22 B.5; docs/galacord.md "Relay options"): the regex must compile. */
export const relayOptionsSchema = z.object({
  discordName: nameTemplate,
  galaxyName: nameTemplate,
  ignoreNicks: z
    .array(z.string().trim().min(1).max(L.nick, RELAY_ERRORS.ignoreNicks), { error: RELAY_ERRORS.ignoreNicks })
    .max(L.ignoreNicks, RELAY_ERRORS.ignoreNicks)
    .transform((list) => [...new Set(list)]),
  ignoreMessages: z
    .string({ error: RELAY_ERRORS.ignoreMessagesLength })
    .max(L.pattern, RELAY_ERRORS.ignoreMessagesLength)
    .superRefine((p, ctx) => {
      try {
        new RegExp(p, "u");
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          message: RELAY_ERRORS.ignoreMessages(err instanceof Error ? err.message.replace(/^Invalid regular expression: /, "") : String(err)),
        });
      }
    }),
});

/** The form's text: nicks one a line or separated by commas. */
export function splitNicks(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((n) => n.trim())
    .filter(Boolean);
}
