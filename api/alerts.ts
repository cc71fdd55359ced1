/**
 * The /api contract of alerts (issue 31 item 2): where alerts go (`GET/PUT /api/alerts`), the
 * test button (`POST /api/alerts/test`), and the JSON body a generic webhook receives.
 *
 * A destination's webhook secret is write-only: answers say `secret: "set"`, never the secret.
 */
import { z } from "zod";

/** Every kind of alert (issue 31 item 2 "Alerts for: …"). */
export const ALERT_EVENTS = ["session.failed", "worker.lost", "worker.none", "auto.failed", "refresh.failed", "backup.failed", "test"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** `critical`: work stopped for good; `warning`: work waits or will be retried; `resolved`: the "back to normal"; `info`: the test. */
export const ALERT_SEVERITIES = ["critical", "warning", "resolved", "info"] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** The JSON a generic webhook receives (signed with `X-Galaxy-Toolbox-Signature: sha256=<hmac>` when a secret is set). */
export const AlertPayloadSchema = z.object({
  event: z.enum(ALERT_EVENTS),
  severity: z.enum(ALERT_SEVERITIES),
  account_id: z.string().optional(),
  nick: z.string().optional(),
  purpose: z.string().optional(),
  message: z.string(),
  /** ISO time the incident began. */
  since: z.string(),
  /** The page that shows it. */
  url: z.string(),
});
export type AlertPayload = z.infer<typeof AlertPayloadSchema>;

export const SIGNATURE_HEADER = "X-Galaxy-Toolbox-Signature";

/** At most this many destinations. */
export const MAX_DESTINATIONS = 10;
export const MAX_SECRET_LENGTH = 256;

export const ALERT_TEXTS = {
  badUrl: "url: must be an http(s) URL",
  badDiscordWebhookUrl: "url: must be a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>)",
  badChannel: "channel_id: must be a Discord channel id (17 to 20 digits)",
  badSecret: `secret: at most ${MAX_SECRET_LENGTH} characters`,
  tooMany: `destinations: at most ${MAX_DESTINATIONS}`,
  duplicate: "destinations: each destination may appear once",
  none: "No alert destinations: add one first",
  saved: (n: number) => (n === 0 ? "Alerts are off: no destinations" : `Alerts go to ${n} destination${n === 1 ? "" : "s"}`),
  botNotRunning: "The GalaCord bot is not running: start it on GalaCord to send alerts to a Discord channel",
  noDiscordToken: "DISCORD_TOKEN is not set: the GalaCord bot cannot post",
  testMessage: "Test alert from Galaxy Toolbox: alerts reach this destination",
} as const;

const httpUrl = z
  .string({ error: ALERT_TEXTS.badUrl })
  .max(2000, ALERT_TEXTS.badUrl)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, ALERT_TEXTS.badUrl);

/** A Discord webhook URL as Discord shows it (`/api/webhooks/<id>/<token>`, optionally versioned). */
export const DISCORD_WEBHOOK_PATH = /\/api(?:\/v\d+)?\/webhooks\/\d{1,20}\/[\w-]{1,100}\/?$/;

export const DestinationInputSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("webhook"),
    url: httpUrl,
    /** Omitted: keep the secret stored for the same URL; "": no secret. */
    secret: z.string({ error: ALERT_TEXTS.badSecret }).max(MAX_SECRET_LENGTH, ALERT_TEXTS.badSecret).optional(),
  }),
  z.strictObject({
    kind: z.literal("discord-webhook"),
    url: httpUrl.refine((v) => DISCORD_WEBHOOK_PATH.test(new URL(v).pathname), ALERT_TEXTS.badDiscordWebhookUrl),
  }),
  z.strictObject({
    kind: z.literal("discord-channel"),
    channel_id: z.string({ error: ALERT_TEXTS.badChannel }).regex(/^\d{17,20}$/, ALERT_TEXTS.badChannel),
  }),
]);
export type DestinationInput = z.infer<typeof DestinationInputSchema>;

/** PUT /api/alerts: the whole list (replaces what was stored). */
export const PutAlertsBodySchema = z.strictObject({
  destinations: z.array(DestinationInputSchema).max(MAX_DESTINATIONS, ALERT_TEXTS.tooMany),
});
export type PutAlertsBody = z.infer<typeof PutAlertsBodySchema>;

/** A destination as answers show it: the secret is only "set". */
export const DestinationViewSchema = z.discriminatedUnion("kind", [
  z.object({ id: z.string(), kind: z.literal("webhook"), url: z.string(), secret: z.literal("set").optional() }),
  z.object({ id: z.string(), kind: z.literal("discord-webhook"), url: z.string() }),
  z.object({ id: z.string(), kind: z.literal("discord-channel"), channel_id: z.string() }),
]);
export type DestinationView = z.infer<typeof DestinationViewSchema>;

/** GET /api/alerts and PUT's answer. */
export const AlertsResponseSchema = z.object({ destinations: z.array(DestinationViewSchema) });
export type AlertsResponse = z.infer<typeof AlertsResponseSchema>;

/** What one destination answered to a send. */
export const DeliveryResultSchema = z.object({
  id: z.string(),
  kind: z.enum(["webhook", "discord-webhook", "discord-channel"]),
  /** The URL (a Discord webhook's token hidden) or the channel id. */
  target: z.string(),
  ok: z.boolean(),
  /** The HTTP status it answered, when it answered. */
  status: z.number().int().nullable(),
  message: z.string(),
});
export type DeliveryResult = z.infer<typeof DeliveryResultSchema>;

/** POST /api/alerts/test → what each destination returned. */
export const TestAlertsResponseSchema = z.object({ results: z.array(DeliveryResultSchema) });
export type TestAlertsResponse = z.infer<typeof TestAlertsResponseSchema>;

/** How a destination is named on screens and in System Logs (a Discord webhook's token is never shown). */
export function destinationTarget(d: { kind: DestinationInput["kind"]; url?: string; channel_id?: string }): string {
  if (d.kind === "discord-channel") return `Discord channel ${d.channel_id ?? ""}`;
  if (d.kind === "discord-webhook") return `Discord webhook ${(d.url ?? "").replace(/(\/webhooks\/\d+\/).*/, "$1…")}`;
  return `webhook ${d.url ?? ""}`;
}
