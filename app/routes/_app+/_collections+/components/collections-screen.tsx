import { Avatar, Badge, Box, Button, Card, Flex, Grid, Heading, IconButton, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import {
  COLLECTION_SETS,
  COLLECTIONS_LIMITS,
  collectionsConnectionState,
  DEFAULT_RECIPIENT_ID,
  INTERVAL_OPTIONS,
  REPEAT_OPTIONS,
  type ActivityStatus,
} from "#api/collections";
import { useLive } from "~/components/live/live";
import { NoJsRedirect } from "~/components/ui/no-js";
import { Cross2Icon, Link2Icon, ReloadIcon, TrashIcon } from "~/components/ui/icons";
import { RelativeTime } from "~/components/ui/relative-time";
import { SectionHeader } from "~/components/ui/section-header";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { CollectionsData } from "../collections";
import { SessionDetail } from "~/components/session/session-detail";
import { newerSession, useLiveSessions } from "~/components/session/live-sessions";
import { SessionPhaseBadge } from "~/components/session/session-phase";
import { TakeOverCheckbox, TakeOverPanel } from "~/components/session/take-over-panel";
import { SecretField } from "~/components/ui/secret-field";
import { useCanWrite } from "~/components/ui/write-only";
import { initialsOf } from "~/components/account/account-view";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { AUTO_FORM, COLLECTIONS_ACTION as ACTION, IntentForm } from "./intent-form";

export { IntentForm };

const STATE_LABEL: Record<string, string> = { disconnected: "Disconnected", connecting: "Connecting", connected: "Connected", error: "Error" };
/** What a viewer finds instead of the login form (issue 21: viewers change nothing). */
export const VIEWER_NOTE = "Viewers can look but not log in, collect or send gifts.";

const STATE_COLOR = { disconnected: "gray", connecting: "blue", connected: "green", error: "red" } as const;
/** An Activity Log entry's badge: a stopped Auto cycle is grey, not a success (issue 30 A7). */
export const ACTIVITY_COLOR = { "in-progress": "blue", success: "green", error: "red", stopped: "gray" } as const satisfies Record<ActivityStatus, string>;

/** Header: the connect/disconnect icon (spec 2 "Main app shell"). */
export function ConnectIcon({ data }: { data: CollectionsData }) {
  if (!data.profile) return null;
  const state = data.connection?.state ?? "disconnected";
  const on = state === "connected" || state === "connecting";
  const label = on ? "Disconnect from Galaxy" : "Connect to Galaxy";
  return (
    <IntentForm intent={on ? "disconnect" : "connect"}>
      {(busy) => (
        <IconButton
          type="submit"
          variant={on ? "solid" : "soft"}
          color={on ? "green" : "gray"}
          aria-label={label}
          title={label}
          loading={busy}
          data-state={state}
        >
          {on ? <Link2Icon /> : <Cross2Icon />}
        </IconButton>
      )}
    </IntentForm>
  );
}

function LoginCard() {
  if (!useCanWrite()) {
    return (
      <Card size="2">
        <Heading as="h2" size="3" mb="2">
          Recovery-code login
        </Heading>
        <Text as="p" size="2" color="gray">
          {VIEWER_NOTE}
        </Text>
      </Card>
    );
  }
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="2">
        Recovery-code login
      </Heading>
      <IntentForm intent="login">{(busy, answer) => <LoginFields busy={busy} answer={answer} />}</IntentForm>
    </Card>
  );
}

const RC_ERROR_ID = "gt-collections-rc-error";

/**
 * The recovery code and Log in. A refused code's reason goes under the field (issue 30 A6,
 * decision 0033): with JavaScript the field still holds what was typed; without, the page
 * comes back with the field empty ("Type it again": the code is never sent back).
 */
function LoginFields({ busy, answer }: { busy: boolean; answer: unknown }) {
  const hydrated = useHydrated();
  const [code, setCode] = useState("");
  const kept = useKeptForm("login", {}, answer);
  const errors = kept.secretErrors("rc", code);
  return (
    <>
      <Flex gap="2" wrap="wrap" align="end">
        <SecretField
          label="Recovery code"
          name="rc"
          autoComplete="off"
          placeholder="Enter recovery code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={64}
          {...(errors ? kept.invalid("rc", RC_ERROR_ID) : {})}
        />
        <Button type="submit" loading={busy} disabled={hydrated && !code.trim()}>
          Log in
        </Button>
        <TakeOverCheckbox disabled={busy} />
      </Flex>
      <FieldError id={RC_ERROR_ID} errors={errors} />
      <FieldError errors={kept.formErrors} />
    </>
  );
}

function SavedAccounts({ data }: { data: CollectionsData }) {
  if (!data.profiles.length) return null;
  return (
    <Box>
      <Heading as="h2" size="3" mb="2">
        Saved accounts
      </Heading>
      <ul className="gt-saved-grid" aria-label="Saved accounts">
        {data.profiles.map((p) => (
          <li key={p.id} data-testid="saved-account">
            <Card size="1">
              <Flex gap="2" align="center">
                <Avatar size="2" radius="full" src={p.profilePic ?? undefined} fallback={initialsOf(p.nick)} alt="" />
                <Box className="gt-grow">
                  <Text as="div" weight="bold" size="2">
                    {p.nick}
                  </Text>
                  <Text as="div" size="1" color="gray">
                    {p.accountId} · {p.loginMethod} · <RelativeTime value={p.lastUsed} />
                  </Text>
                </Box>
              </Flex>
              <Flex gap="2" mt="2">
                <IntentForm intent="login-saved" fields={{ profileId: p.id }}>
                  {(busy) => (
                    <Button size="1" type="submit" loading={busy} disabled={data.profile?.id === p.id}>
                      Log in<span className="gt-visually-hidden"> as {p.nick}</span>
                    </Button>
                  )}
                </IntentForm>
                <IntentForm intent="remove-saved" fields={{ profileId: p.id }}>
                  {(busy) => (
                    <IconButton size="1" type="submit" variant="soft" color="red" aria-label={`Remove ${p.nick}`} loading={busy}>
                      <TrashIcon />
                    </IconButton>
                  )}
                </IntentForm>
              </Flex>
            </Card>
          </li>
        ))}
      </ul>
    </Box>
  );
}

function ProfileCard({ data }: { data: CollectionsData }) {
  const p = data.profile!;
  const c = data.connection;
  const state = c?.state ?? "disconnected";
  return (
    <Card size="2" data-testid="profile-card">
      <Flex gap="3" align="center" wrap="wrap">
        <Avatar size="4" radius="full" src={p.profilePic ?? undefined} fallback={initialsOf(p.nick)} alt={`Picture of ${p.nick}`} />
        <Box className="gt-grow">
          <Heading as="h2" size="4">
            {p.nick}
          </Heading>
          <Text as="div" size="2" color="gray">
            ID {p.accountId}
          </Text>
          <Flex gap="2" mt="1" align="center" wrap="wrap">
            {c && state === "connecting" && c.phase === "waiting" ? (
              // Issue 29: one state — waiting for a worker (its worker lost), not "Connecting". A retry
              // is "Connecting" (spec 2 Collections states); the detail line says when the next try is.
              <SessionPhaseBadge session={c} />
            ) : (
              <Badge color={STATE_COLOR[state]} data-testid="connection-state">
                {STATE_LABEL[state]}
              </Badge>
            )}
            {c?.planet && state === "connected" ? <Text size="1">on {c.planet}</Text> : null}
          </Flex>
          {c ? <SessionDetail session={c} announce={c.actual === "failed" ? "alert" : "status"} /> : null}
        </Box>
        <IntentForm intent="logout" fields={{ profileId: p.id }}>
          {(busy) => (
            <Button type="submit" variant="soft" color="gray" loading={busy}>
              {/* Issue 19 item 10: not a second "Log out" beside the app's own. */}
              Log out of Galaxy
            </Button>
          )}
        </IntentForm>
      </Flex>
      <IntentForm intent="change-planet" className="gt-planet-form">
        {(busy, answer) => <PlanetFields busy={busy} answer={answer} />}
      </IntentForm>
    </Card>
  );
}

const PLANET_ERROR_ID = "gt-collections-planet-error";

/** Change planet: a refused planet comes back as typed, the reason under it ("Not connected to Galaxy", issue 30 A6). */
function PlanetFields({ busy, answer }: { busy: boolean; answer: unknown }) {
  const kept = useKeptForm("change-planet", {}, answer);
  return (
    <>
      <Flex gap="2" mt="3" align="end" wrap="wrap">
        <label className="gt-field">
          <Text size="2">Planet</Text>
          <TextField.Root name="planet" maxLength={60} defaultValue={kept.value("planet", "")} {...kept.invalid("planet", PLANET_ERROR_ID)} />
        </label>
        <Button type="submit" variant="soft" loading={busy}>
          Change planet
        </Button>
      </Flex>
      <FieldError id={PLANET_ERROR_ID} errors={kept.errors("planet")} />
      <FieldError errors={kept.formErrors} />
    </>
  );
}

/**
 * Spec 2 §2 "recipient picker" (§3: default an 8-digit id; the characters listed): the
 * characters, the chosen id and the default id; any other account id goes in "Other account ID".
 */
function recipientOptions(data: CollectionsData) {
  const options = data.characters.map((c) => ({ id: c.accountId, label: `${c.nick} (${c.accountId})` }));
  for (const id of [data.recipientId, DEFAULT_RECIPIENT_ID]) if (id && !options.some((o) => o.id === id)) options.unshift({ id, label: id });
  return options;
}

/** The controls' intents: a refusal of any of them keeps the set, recipient and Other account ID (issue 30 A6). */
const CONTROL_INTENTS = ["run", "status", "inventory", "send"] as const;
const controlErrorId = (name: string) => `gt-collections-${name}-error`;

function Controls({ data }: { data: CollectionsData }) {
  const hydrated = useHydrated();
  const canWrite = useCanWrite();
  const fetcher = useFetcher();
  // A refused Run, Status, refresh or Send comes back with what was picked and typed, the reason
  // next to its field (spec 2 §8's toast too, with JavaScript).
  const kept = useKeptForm(CONTROL_INTENTS, {}, fetcher.data);
  const [recipient, setRecipient] = useState(() => kept.value("recipientId", data.recipientId));
  const [other, setOther] = useState(() => kept.value("recipientOther", ""));
  // A recipient saved (here or in another tab) becomes the pick, and Other account ID is emptied.
  const [savedRecipient, setSavedRecipient] = useState(data.recipientId);
  if (savedRecipient !== data.recipientId) {
    setSavedRecipient(data.recipientId);
    setRecipient(data.recipientId);
    setOther("");
  }
  const n = data.giftIds?.length ?? 0;
  const busy = fetcher.state !== "idle" ? String(fetcher.formData?.get("intent") ?? "") : "";
  const field = (name: string) => kept.invalid(name, controlErrorId(name));
  if (!canWrite) return null;
  return (
    <Card size="2">
      <fetcher.Form method="post" action={ACTION} aria-label="Collection controls">
        <NoJsRedirect />
        <Flex gap="3" wrap="wrap" align="end">
          <label className="gt-field">
            <Text size="2">Collection set</Text>
            <select
              name="collectionId"
              defaultValue={kept.value("collectionId", String(data.collectionId))}
              className="gt-select"
              key={data.collectionId}
              {...field("collectionId")}
            >
              {COLLECTION_SETS.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label className="gt-field">
            <Text size="2">Recipient</Text>
            <select name="recipientId" className="gt-select" value={recipient} onChange={(e) => setRecipient(e.target.value)} {...field("recipientId")}>
              <option value="">Choose a recipient</option>
              {recipientOptions(data).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <label className="gt-field">
            <Text size="2">Other account ID</Text>
            <input
              name="recipientOther"
              className="gt-select"
              inputMode="numeric"
              placeholder="Account ID"
              value={other}
              onChange={(e) => setOther(e.target.value)}
              maxLength={12}
              {...field("recipientOther")}
            />
          </label>
        </Flex>
        {["collectionId", "recipientId", "recipientOther"].map((name) => (
          <FieldError key={name} id={controlErrorId(name)} errors={kept.errors(name)} />
        ))}
        <Flex gap="2" mt="3" wrap="wrap">
          <Button type="submit" name="intent" value="run" loading={busy === "run"}>
            Run
          </Button>
          <Button type="submit" name="intent" value="status" variant="soft" loading={busy === "status"}>
            Status
          </Button>
          <IconButton
            type="submit"
            name="intent"
            value="inventory"
            variant="soft"
            aria-label="Refresh gift inventory"
            title="Refresh gift inventory"
            loading={busy === "inventory"}
          >
            <ReloadIcon />
          </IconButton>
          <Button
            type="submit"
            name="intent"
            value="send"
            color="green"
            loading={busy === "send"}
            disabled={hydrated && (n === 0 || !(other.trim() || recipient))}
          >
            Send ({n})
          </Button>
        </Flex>
        <FieldError errors={kept.formErrors} />
      </fetcher.Form>
    </Card>
  );
}

function ItemsGrid({ data }: { data: CollectionsData }) {
  const items = data.items;
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="2">
        {COLLECTION_SETS.find((s) => s.id === data.collectionId)?.name ?? "Collection"}
      </Heading>
      {items ? (
        <ul className="gt-items-grid" aria-label="Collection items">
          {items.map((it) => (
            <li key={it.index} data-testid="collection-item" data-count={it.count} className={it.count === 0 ? "gt-item-zero" : undefined}>
              {it.imageUrl ? <img src={it.imageUrl} alt={`Item ${it.index}`} width={40} height={40} loading="lazy" /> : null}
              <Text size="2" weight="bold" color={it.count === 0 ? "red" : undefined}>
                {it.count}
              </Text>
            </li>
          ))}
        </ul>
      ) : (
        <>
          {/* Spec 2 §2: the 4×4 grid of 16 items is there before the first read; counts come with Status. */}
          <ul className="gt-items-grid" aria-label="Collection items">
            {Array.from({ length: COLLECTIONS_LIMITS.gridItems }, (_, i) => (
              <li key={i} data-testid="collection-item-placeholder">
                <Text size="2" color="gray">
                  –
                </Text>
              </li>
            ))}
          </ul>
          <Text as="p" size="2" color="gray" mt="2">
            Press Status to read the collection.
          </Text>
        </>
      )}
    </Card>
  );
}

function AutoCard({ data }: { data: CollectionsData }) {
  const a = data.auto;
  if (!useCanWrite()) {
    return (
      <Card size="2">
        <Text size="2" data-testid="run-counter">
          Auto {a.on ? "on" : "off"} · Runs: {a.runCount}
          {a.repeat ? ` / ${a.repeat}` : " / ∞"}
          {a.on && a.step ? ` · ${a.step}` : ""}
        </Text>
      </Card>
    );
  }
  return (
    <Card size="2">
      <IntentForm intent={a.on ? "auto-off" : "auto-on"} fields={a.on ? {} : { form: AUTO_FORM }} label="Auto mode">
        {(busy, answer) => <AutoFields auto={a} busy={busy} answer={answer} />}
      </IntentForm>
    </Card>
  );
}

const autoErrorId = (name: string) => `gt-collections-${name}-error`;

/** Repeat, Interval and the Auto switch: a refused Auto on keeps the chosen repeat and interval, the reason beside them (issue 30 A6). */
function AutoFields({ auto: a, busy, answer }: { auto: CollectionsData["auto"]; busy: boolean; answer: unknown }) {
  const kept = useKeptForm("auto-on", {}, answer);
  return (
    <>
      <Flex gap="3" align="end" wrap="wrap">
        <label className="gt-field">
          <Text size="2">Repeat</Text>
          <select
            name="repeat"
            defaultValue={kept.value("repeat", String(a.repeat))}
            className="gt-select"
            disabled={a.on}
            key={`r${a.repeat}`}
            {...kept.invalid("repeat", autoErrorId("repeat"))}
          >
            {REPEAT_OPTIONS.map((r) => (
              <option key={r} value={r}>
                {r === 0 ? "∞" : r}
              </option>
            ))}
          </select>
        </label>
        <label className="gt-field">
          <Text size="2">Interval</Text>
          <select
            name="intervalSeconds"
            defaultValue={kept.value("intervalSeconds", String(a.intervalSeconds))}
            className="gt-select"
            disabled={a.on}
            key={`i${a.intervalSeconds}`}
            {...kept.invalid("intervalSeconds", autoErrorId("intervalSeconds"))}
          >
            {INTERVAL_OPTIONS.map((s) => (
              <option key={s} value={s}>
                {s} s
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" role="switch" aria-checked={a.on} color={a.on ? "green" : "gray"} variant={a.on ? "solid" : "soft"} loading={busy}>
          Auto {a.on ? "on" : "off"}
        </Button>
        <Text size="2" data-testid="run-counter">
          Runs: {a.runCount}
          {a.repeat ? ` / ${a.repeat}` : " / ∞"}
          {a.on && a.step ? ` · ${a.step}` : ""}
        </Text>
      </Flex>
      {["repeat", "intervalSeconds"].map((name) => (
        <FieldError key={name} id={autoErrorId(name)} errors={kept.errors(name)} />
      ))}
      <FieldError errors={kept.formErrors} />
    </>
  );
}

function ActivityLog({ data }: { data: CollectionsData }) {
  return (
    <Card size="2">
      <Flex justify="between" align="center" mb="2">
        <Heading as="h2" size="3">
          Activity Log
        </Heading>
        <IntentForm intent="clear-activity">
          {(busy) => (
            <Button size="1" type="submit" variant="soft" color="gray" loading={busy} disabled={!data.activity.length}>
              Clear
            </Button>
          )}
        </IntentForm>
      </Flex>
      {data.activity.length ? (
        <ol className="gt-activity" aria-label="Activity Log">
          {data.activity.map((e) => (
            <li key={e.id} data-status={e.status}>
              <Badge color={ACTIVITY_COLOR[e.status]}>{e.status}</Badge> <Text size="2">{e.message}</Text>
              {/* Issue 19 item 11: when, and with which account. */}
              <Text as="div" size="1" color="gray" data-testid="activity-meta">
                <RelativeTime value={e.at} />
                {e.accountId ? ` · ID ${e.accountId}` : ""}
              </Text>
            </li>
          ))}
        </ol>
      ) : (
        <Text size="2" color="gray">
          No activity yet.
        </Text>
      )}
    </Card>
  );
}

function PanelToggle({ data }: { data: CollectionsData }) {
  const shown = data.panel !== "hide";
  return (
    <IntentForm intent="panel" fields={{ mode: shown ? "hide" : "show" }}>
      {(busy) => (
        <Button size="1" type="submit" variant="soft" color="gray" loading={busy}>
          {shown ? "Hide floating panel" : "Show floating panel"}
        </Button>
      )}
    </IntentForm>
  );
}

/** While the live stream is down and Auto runs, the screen re-reads its data this often. */
const AUTO_FALLBACK_MS = 2_000;

/**
 * The page's one live subscription (issue 18 "Live pages"): Auto cycles, the Activity Log and
 * the screen's state (`collections:<operatorId>`, published by every write of them, from the
 * web process or a worker) and the account's connection session (`session:collections:<id>`).
 * Without JavaScript the page shows the state as of its render.
 */
function useCollectionsLive(data: CollectionsData) {
  const patterns = [`collections:${data.operatorId}`];
  if (data.profile) patterns.push(`session:collections:${data.profile.accountId}`);
  useLive(patterns, { fallbackMs: data.auto.on ? AUTO_FALLBACK_MS : null });
}

export function CollectionsScreen({ data: loaded }: { data: CollectionsData }) {
  useCollectionsLive(loaded);
  // Issue 30 A3: the connection's new state shows as soon as its live event arrives, not after
  // the clicked connect/disconnect's post and the loads after it.
  const live = newerSession(useLiveSessions("collections"), loaded.profile?.accountId, loaded.connection?.since ?? null);
  const data: CollectionsData =
    live && loaded.profile
      ? {
          ...loaded,
          connection: { ...live, accountId: loaded.profile.accountId, state: collectionsConnectionState(live) } as unknown as CollectionsData["connection"],
        }
      : loaded;
  return (
    <>
      <SectionHeader title="Collections" actions={<ConnectIcon data={data} />} />
      {data.takeover ? <TakeOverPanel notice={data.takeover} /> : null}
      {data.profile ? (
        // Issue 19 item 12: on a phone (one column) the controls come right after the profile,
        // before the saved accounts. DOM order, so the keyboard follows it; from md up the
        // grid puts them side by side: profile | controls, then saved accounts | the rest.
        <Grid columns={{ initial: "1", md: "2" }} gap="4" align="start" className="gt-collections">
          <ProfileCard data={data} />
          <Controls data={data} />
          <Flex direction="column" gap="4">
            <SavedAccounts data={data} />
            <PanelToggle data={data} />
          </Flex>
          <Flex direction="column" gap="4">
            <ItemsGrid data={data} />
            <AutoCard data={data} />
            <ActivityLog data={data} />
          </Flex>
        </Grid>
      ) : (
        <Grid columns={{ initial: "1", md: "2" }} gap="4" className="gt-collections">
          <Flex direction="column" gap="4">
            <LoginCard />
            <SavedAccounts data={data} />
          </Flex>
          <ActivityLog data={data} />
        </Grid>
      )}
    </>
  );
}
