import { z } from "zod";
import { AlertPayloadSchema } from "#api/alerts";
import { HOSTED_PURPOSES } from "#api/sessions";
import type { QueueName, QueuePayloads } from "./queues.server";

/**
 * Every queue's payload as a zod schema, for what comes from outside the code: a job added
 * (or its data edited) on the queue board (issue 28; docs/decisions/0025). The app's own
 * producers are held to the same shapes by TypeScript (`QueuePayloads`); the checks at the
 * bottom fail the build when a schema and its type part ways. Strict objects: a field the
 * processor does not know is refused, not carried.
 */
const id = z.string().trim().min(1).max(40);
const accountId = z.string().regex(/^\d{1,12}$/, "an account id (digits)");

const session = z.strictObject({ kind: z.literal("session"), accountId: z.string().min(1).max(60), reason: z.enum(["start", "restore"]) });

const automation = z.strictObject({
  kind: z.literal("cycle"),
  operatorId: z.uuid(),
  profileId: z.uuid(),
  chain: id,
  accountId,
  collectionId: z.union([z.literal(161), z.literal(178)]),
  recipientId: accountId,
  run: z.int().min(1),
  repeat: z.int().min(0),
  intervalSeconds: z.int().min(5).max(60),
});

const statusRefresh = z.strictObject({
  kind: z.literal("statuses"),
  actingAccountId: accountId,
  accountIds: z.array(accountId).max(1000).optional(),
  force: z.boolean(),
  everything: z.boolean().optional(),
});

const bulkRefresh = z.strictObject({
  kind: z.literal("refresh"),
  section: z.enum(["bowling", "characters"]),
  actingAccountId: accountId.optional(),
  skipCache: z.boolean(),
  requestedAt: z.iso.datetime(),
});

const system = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("probe"), ms: z.int().min(0).max(600_000) }),
  z.strictObject({ kind: z.literal("logs-cleanup") }),
  z.strictObject({ kind: z.literal("backup") }),
  z.strictObject({ kind: z.literal("daily-stats-pull") }),
]);

const alerts = z.strictObject({ kind: z.literal("deliver"), destinationId: id, incident: z.string().min(1).max(200), alert: AlertPayloadSchema });

export const QUEUE_PAYLOAD_SCHEMAS = {
  ...(Object.fromEntries(HOSTED_PURPOSES.map((p) => [p, session])) as Record<(typeof HOSTED_PURPOSES)[number], typeof session>),
  automation,
  "status-refresh": statusRefresh,
  "bulk-refresh": bulkRefresh,
  system,
  alerts,
} satisfies { [Q in QueueName]: z.ZodType<QueuePayloads[Q]> };

// Identical types, not just assignable: a field the schema lacks (even an optional one) or has
// beyond the payload type is a compile error.
type Exact<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : never;
const _same: { [Q in QueueName]: Exact<z.infer<(typeof QUEUE_PAYLOAD_SCHEMAS)[Q]>, QueuePayloads[Q]> } = {
  automation: true,
  stalker: true,
  trader: true,
  collections: true,
  relay: true,
  "status-refresh": true,
  "bulk-refresh": true,
  system: true,
  alerts: true,
};
void _same;

/** The job names (`kind`s) a queue takes. */
export function jobKindsOf(queue: QueueName): string[] {
  const schema = QUEUE_PAYLOAD_SCHEMAS[queue] as z.ZodType;
  if (schema instanceof z.ZodDiscriminatedUnion) return schema.options.map((o) => String((o as z.ZodObject).shape.kind.value));
  return [String(((schema as z.ZodObject).shape.kind as z.ZodLiteral).value)];
}

/** The first problem of a payload for `queue`, in words, or null when it fits. */
export function payloadProblem(queue: QueueName, data: unknown): string | null {
  const parsed = (QUEUE_PAYLOAD_SCHEMAS[queue] as z.ZodType).safeParse(data);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? issue.path.join(".") : "data";
  return `${where}: ${issue.message}`;
}
