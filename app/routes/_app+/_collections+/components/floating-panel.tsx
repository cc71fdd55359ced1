import { Badge, Button, Flex, IconButton, Text } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { useLive } from "~/components/live/live";
import { SessionDetail } from "~/components/session/session-detail";
import { SessionPhaseBadge } from "~/components/session/session-phase";
import { Cross2Icon, ReloadIcon } from "~/components/ui/icons";
import type { FloatingPanelData } from "~/models/collections-panel.server";
import { IntentForm } from "./intent-form";

/**
 * The Collections panel floating over the other sections while connected (spec 2 "Main app
 * shell"). Server-rendered from the shell's loader (the cookie), so it shows as it was left,
 * without a flash; minimized it is one bar. Its buttons post to the Collections action.
 */
export function CollectionsFloatingPanel({ panel }: { panel: FloatingPanelData }) {
  const location = useLocation();
  const onScreen = location.pathname === "/collections"; // the screen itself is there, with its own subscription
  // The panel is part of the shell, so it follows its own data on every section (issue 18
  // "Live pages"): Auto cycles, the Activity Log and the connection live, polling only while the stream is down.
  useLive([`collections:${panel.operatorId}`, `session:collections:${panel.accountId}`], {
    enabled: !onScreen,
    fallbackMs: panel.auto || panel.state === "connecting" ? 3_000 : null,
  });
  if (onScreen) return null;
  const minimized = panel.mode === "minimized";
  return (
    <aside className="gt-floating-panel" aria-label="Collections panel" data-mode={panel.mode}>
      <Flex align="center" gap="2" justify="between" className="gt-fp-head">
        <Text size="2" weight="bold" className="gt-fp-title">
          Collections · {panel.nick}
        </Text>
        <Flex gap="1" className="gt-fp-window">
          <IntentForm intent="panel" fields={{ mode: minimized ? "show" : "minimized" }}>
            {(busy) => (
              <Button size="1" variant="ghost" type="submit" loading={busy}>
                {minimized ? "Expand" : "Minimize"}
              </Button>
            )}
          </IntentForm>
          <IntentForm intent="panel" fields={{ mode: "hide" }}>
            {(busy) => (
              <IconButton size="1" variant="ghost" color="gray" type="submit" aria-label="Close Collections panel" loading={busy}>
                <Cross2Icon />
              </IconButton>
            )}
          </IntentForm>
        </Flex>
      </Flex>
      {minimized ? null : (
        <>
          <Flex gap="2" mt="2" align="center" wrap="wrap" className="gt-fp-status">
            {panel.state === "connecting" && panel.session.phase === "waiting" ? (
              // Issue 29: one state — waiting for a worker (its worker lost), not "Connecting" (a retry is
              // "Connecting", as on the card; the detail line says when the next try is).
              <SessionPhaseBadge session={panel.session} />
            ) : (
              <Badge color={panel.state === "connected" ? "green" : panel.state === "error" ? "red" : "blue"} data-testid="panel-connection">
                {panel.state === "connected" ? "Connected" : panel.state === "error" ? "Error" : "Connecting"}
              </Badge>
            )}
            <Text size="1" data-testid="panel-runs">
              Auto {panel.auto ? "on" : "off"} · Runs: {panel.runCount} / {panel.repeat ? panel.repeat : "∞"}
            </Text>
          </Flex>
          <div className="gt-fp-detail">
            <SessionDetail session={panel.session} />
          </div>
          <Flex gap="2" mt="2" wrap="wrap" className="gt-fp-actions">
            <IntentForm intent="run">
              {(busy) => (
                <Button size="1" type="submit" loading={busy}>
                  Run
                </Button>
              )}
            </IntentForm>
            <IntentForm intent="inventory">
              {(busy) => (
                <IconButton size="1" variant="soft" type="submit" aria-label="Refresh gift inventory" loading={busy}>
                  <ReloadIcon />
                </IconButton>
              )}
            </IntentForm>
            <IntentForm intent="send">
              {(busy) => (
                <Button size="1" color="green" type="submit" loading={busy} disabled={panel.giftCount === 0}>
                  Send ({panel.giftCount})
                </Button>
              )}
            </IntentForm>
            <IntentForm
              intent={panel.auto ? "auto-off" : "auto-on"}
              fields={panel.auto ? {} : { repeat: String(panel.repeat), intervalSeconds: String(panel.intervalSeconds) }}
            >
              {(busy) => (
                <Button
                  size="1"
                  variant={panel.auto ? "solid" : "soft"}
                  color={panel.auto ? "green" : "gray"}
                  type="submit"
                  role="switch"
                  aria-checked={panel.auto}
                  loading={busy}
                >
                  Auto {panel.auto ? "on" : "off"}
                </Button>
              )}
            </IntentForm>
          </Flex>
          {panel.lastActivity ? (
            <Text as="p" size="1" mt="2" color={panel.lastActivity.status === "error" ? "red" : "gray"} className="gt-fp-activity">
              {panel.lastActivity.message}
            </Text>
          ) : null}
        </>
      )}
    </aside>
  );
}
