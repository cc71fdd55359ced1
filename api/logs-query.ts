/**
 * The query of GET /api/logs (see api/logs.ts for the contract). Server-side only in
 * practice: kept apart from api/logs.ts so the /logs page, which needs the contract's
 * values but validates no query itself, loads no zod.
 */
import { z } from "zod";
import { LOG_ERRORS, LOG_SOURCES, LOG_TYPES } from "./logs";

/** An empty parameter (`?type=`) means "any", like a form's "All types" option. */
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const logsQuerySchema = z.object({
  type: z.preprocess(blankToUndefined, z.enum(LOG_TYPES, { error: LOG_ERRORS.badType }).optional()),
  source: z.preprocess(blankToUndefined, z.enum(LOG_SOURCES, { error: LOG_ERRORS.badSource }).optional()),
  /** Entries about one Galaxy account (`details.accountId`): a session's "System Logs" link. */
  account: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^-?\d{1,20}$/, { error: "account must be a Galaxy account id" })
      .optional(),
  ),
  cleared: z.preprocess(
    blankToUndefined,
    z
      .enum(["true", "false"], { error: LOG_ERRORS.badCleared })
      .transform((v) => v === "true")
      .optional(),
  ),
});
export type LogsQuery = z.output<typeof logsQuerySchema>;
