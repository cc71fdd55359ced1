/**
 * The transport of alerts (issue 31 item 2): one HTTP POST to one destination, answering what
 * it returned. No retries here: the `alerts` queue retries with backoff (jobs/processors/alerts.ts),
 * the test button shows the first answer.
 *
 * - generic webhook: the JSON body of `AlertPayload`, `X-Galaxy-Toolbox-Signature: sha256=<hex
 *   HMAC-SHA256 of the exact body bytes>` when a secret is set;
 * - Discord webhook URL: Execute Webhook with the alert as text (mentions off);
 * - Discord channel: Create Message as the GalaCord bot (its token, its REST base).
 */
import crypto from "node:crypto";
import { ALERT_TEXTS, SIGNATURE_HEADER, destinationTarget, type AlertPayload, type DeliveryResult } from "#api/alerts";
import { errorText } from "./errors";

/** A destination as stored, with its secret decrypted (server-side only). */
export type Destination =
  | { id: string; kind: "webhook"; url: string; secret: string | null }
  | { id: string; kind: "discord-webhook"; url: string }
  | { id: string; kind: "discord-channel"; channelId: string };

/** How long one destination may take to answer. */
export const ALERT_SEND_TIMEOUT_MS = 5_000;
const DISCORD_MAX = 2000;

export function signBody(body: string, secret: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
}

const SEVERITY_MARK: Record<AlertPayload["severity"], string> = {
  critical: "🔴",
  warning: "🟠",
  resolved: "🟢",
  info: "🔵",
};

/** The alert as one Discord message: what, which account, since when, the link. */
export function discordText(alert: AlertPayload): string {
  const since = alert.since.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");
  const text = `${SEVERITY_MARK[alert.severity]} **${alert.message}**\nSince ${since} · ${alert.url}`;
  return text.length > DISCORD_MAX ? `${text.slice(0, DISCORD_MAX - 1)}…` : text;
}

export type DiscordBot = { token: string | null; apiUrl: string; running: boolean };

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "User-Agent": "GalaxyToolbox-Alerts/1", ...headers },
    redirect: "manual",
    signal: AbortSignal.timeout(ALERT_SEND_TIMEOUT_MS),
  });
  const text = await res.text().catch(() => "");
  return { status: res.status, text };
}

/** A short reason from an answer's body (Discord's `message`, else the first line). */
function reasonOf(status: number, text: string): string {
  let reason = "";
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    reason = typeof body.message === "string" ? body.message : typeof body.error === "string" ? body.error : "";
  } catch {
    reason = text.split("\n")[0] ?? "";
  }
  reason = reason.slice(0, 200);
  return `HTTP ${status}${reason ? `: ${reason}` : ""}`;
}

/** Sends one alert to one destination; never throws (a failure is `ok: false` with the reason). */
export async function sendAlert(dest: Destination, alert: AlertPayload, bot: DiscordBot): Promise<DeliveryResult> {
  const target = destinationTarget(dest.kind === "discord-channel" ? { kind: dest.kind, channel_id: dest.channelId } : { kind: dest.kind, url: dest.url });
  const result = (ok: boolean, status: number | null, message: string): DeliveryResult => ({ id: dest.id, kind: dest.kind, target, ok, status, message });
  try {
    let answer: { status: number; text: string };
    if (dest.kind === "webhook") {
      const body = JSON.stringify(alert);
      answer = await post(dest.url, body, dest.secret ? { [SIGNATURE_HEADER]: signBody(body, dest.secret) } : {});
    } else if (dest.kind === "discord-webhook") {
      answer = await post(dest.url, JSON.stringify({ content: discordText(alert), allowed_mentions: { parse: [] } }), {});
    } else {
      if (!bot.token) return result(false, null, ALERT_TEXTS.noDiscordToken);
      if (!bot.running) return result(false, null, ALERT_TEXTS.botNotRunning);
      const url = `${bot.apiUrl.replace(/\/+$/, "")}/v10/channels/${dest.channelId}/messages`;
      answer = await post(url, JSON.stringify({ content: discordText(alert), allowed_mentions: { parse: [] } }), { Authorization: `Bot ${bot.token}` });
    }
    if (answer.status >= 200 && answer.status < 300) return result(true, answer.status, `Delivered (HTTP ${answer.status})`);
    return result(false, answer.status, reasonOf(answer.status, answer.text));
  } catch (err) {
    const e = err as Error;
    const why = e.name === "TimeoutError" ? `no answer within ${ALERT_SEND_TIMEOUT_MS / 1000} s` : errorText((e as { cause?: unknown }).cause ?? e);
    return result(false, null, `Could not reach it: ${why}`);
  }
}
