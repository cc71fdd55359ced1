import { Badge, Box, Button, Card, Code, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { DestinationView } from "#api/alerts";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { useHydrated } from "~/components/ui/use-hydrated";

const KIND_LABELS: Record<DestinationView["kind"], string> = {
  webhook: "Webhook (HTTPS, JSON, signed)",
  "discord-webhook": "Discord webhook URL",
  "discord-channel": "Discord channel (GalaCord bot)",
};

/** A destination's name on the screen (a Discord webhook's token not shown; api/alerts.ts's rule, without zod in the browser). */
function destinationTarget(d: DestinationView): string {
  if (d.kind === "discord-channel") return `Discord channel ${d.channel_id}`;
  if (d.kind === "discord-webhook") return `Discord webhook ${d.url.replace(/(\/webhooks\/\d+\/).*/, "$1…")}`;
  return `webhook ${d.url}`;
}

const alertErrorId = (name: string) => `gt-alert-${name}-error`;

/**
 * Settings › Alerts (issue 31 item 2, admins): where alerts go, add one, remove one, and
 * "Send a test alert". Plain forms (intents on /settings): the same with and without JavaScript.
 * A webhook's secret is never shown back: "secret set".
 */
export function AlertsPanel({ destinations }: { destinations: DestinationView[] }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  // A refused destination comes back as typed, the reason next to its field; the secret is never
  // sent back: its field asks for it again (issue 30 A6, decision 0033).
  const kept = useKeptForm("alert-add");
  const [kind, setKind] = useState<DestinationView["kind"]>(() => {
    const was = kept.value("kind", "webhook");
    return was in KIND_LABELS ? (was as DestinationView["kind"]) : "webhook";
  });
  const [secret, setSecret] = useState("");
  const secretErrors = kept.secretErrors("secret", secret);
  const field = (name: string) => kept.invalid(name, alertErrorId(name));
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  // Without JavaScript every field shows (the server reads the ones of the chosen kind).
  const show = (k: DestinationView["kind"][]) => !hydrated || k.includes(kind);
  return (
    <Card size="2" asChild>
      <section aria-labelledby="alerts-heading">
        <Flex direction="column" gap="4">
          <Box>
            <Heading as="h2" size="4" id="alerts-heading">
              Alerts
            </Heading>
            <Text as="p" size="2" color="gray" mt="1">
              Where the app tells you when a session fails for good (451, 452 after its retries, 950), a worker is lost or none runs for a minute, an Auto cycle
              fails, a refresh fails for every account, or a backup fails: once per incident, then once &quot;back to normal&quot;. Each alert is also on System
              Logs. A webhook receives JSON signed with <Code>X-Galaxy-Toolbox-Signature: sha256=&lt;HMAC&gt;</Code> when it has a secret.
            </Text>
          </Box>

          {destinations.length === 0 ? (
            <Text size="2" color="gray" role="status">
              Alerts are off: no destinations yet. Add one below.
            </Text>
          ) : (
            <ul aria-label="Alert destinations" style={{ listStyle: "none", margin: 0, padding: 0 }}>
              {destinations.map((d) => (
                <li key={d.id} aria-label={destinationTarget(d)}>
                  <Flex align="center" justify="between" gap="3" wrap="wrap" py="2" style={{ borderTop: "1px solid var(--gray-a5)" }}>
                    <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                      <Text weight="bold" size="2">
                        {KIND_LABELS[d.kind]}{" "}
                        {d.kind === "webhook" && d.secret ? (
                          <Badge color="green" variant="soft">
                            secret set
                          </Badge>
                        ) : null}
                      </Text>
                      <Text size="1" color="gray" style={{ overflowWrap: "anywhere" }}>
                        <Code variant="ghost">
                          {d.kind === "discord-channel"
                            ? d.channel_id
                            : d.kind === "discord-webhook"
                              ? destinationTarget(d).replace(/^Discord webhook /, "")
                              : d.url}
                        </Code>
                      </Text>
                    </Flex>
                    <Form method="post" action="/settings">
                      <input type="hidden" name="intent" value="alert-remove" />
                      <input type="hidden" name="destinationId" value={d.id} />
                      <Button type="submit" color="red" variant="soft" style={{ minHeight: 40 }} aria-label={`Remove ${destinationTarget(d)}`}>
                        Remove
                      </Button>
                    </Form>
                  </Flex>
                </li>
              ))}
            </ul>
          )}

          <Form method="post" action="/settings" aria-label="Add an alert destination">
            <input type="hidden" name="intent" value="alert-add" />
            <Flex direction="column" gap="3" maxWidth="520px">
              <FieldError errors={kept.formErrors} />
              <label className="gt-field">
                <Text size="2" weight="medium">
                  Destination
                </Text>
                <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as DestinationView["kind"])} className="gt-select">
                  {(Object.keys(KIND_LABELS) as DestinationView["kind"][]).map((k) => (
                    <option key={k} value={k}>
                      {KIND_LABELS[k]}
                    </option>
                  ))}
                </select>
              </label>
              {show(["webhook", "discord-webhook"]) ? (
                <label className="gt-field">
                  <Text size="2" weight="medium">
                    URL
                  </Text>
                  <TextField.Root
                    name="url"
                    type="url"
                    inputMode="url"
                    placeholder="https://…"
                    size="3"
                    autoComplete="off"
                    defaultValue={kept.value("url", "")}
                    {...field("url")}
                  />
                </label>
              ) : null}
              {show(["webhook", "discord-webhook"]) ? <FieldError id={alertErrorId("url")} errors={kept.errors("url")} /> : null}
              {show(["webhook"]) ? (
                <label className="gt-field">
                  <Text size="2" weight="medium">
                    Secret (webhook, optional)
                  </Text>
                  <TextField.Root
                    name="secret"
                    type="password"
                    autoComplete="new-password"
                    size="3"
                    value={secret}
                    onChange={(e) => setSecret(e.target.value)}
                    {...(secretErrors ? kept.invalid("secret", alertErrorId("secret")) : {})}
                  />
                </label>
              ) : null}
              {show(["webhook"]) ? <FieldError id={alertErrorId("secret")} errors={secretErrors} /> : null}
              {show(["discord-channel"]) ? (
                <label className="gt-field">
                  <Text size="2" weight="medium">
                    Discord channel id
                  </Text>
                  <TextField.Root
                    name="channelId"
                    inputMode="numeric"
                    placeholder="1180000000000000101"
                    size="3"
                    autoComplete="off"
                    defaultValue={kept.value("channelId", "")}
                    {...field("channelId")}
                  />
                </label>
              ) : null}
              {show(["discord-channel"]) ? <FieldError id={alertErrorId("channelId")} errors={kept.errors("channelId")} /> : null}
              <Flex gap="3" wrap="wrap">
                <Button type="submit" size="3" loading={busy("alert-add")}>
                  Add destination
                </Button>
              </Flex>
            </Flex>
          </Form>

          <Form method="post" action="/settings">
            <input type="hidden" name="intent" value="alert-test" />
            <Button type="submit" size="3" variant="soft" loading={busy("alert-test")} disabled={destinations.length === 0}>
              Send a test alert
            </Button>
          </Form>
        </Flex>
      </section>
    </Card>
  );
}
