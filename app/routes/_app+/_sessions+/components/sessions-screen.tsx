import { Badge, Button, Code, Flex, Link as RadixLink, Table, Text, TextField } from "@radix-ui/themes";
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import {
  LIST_PURPOSES,
  LIST_STATES,
  PURPOSE_NAMES,
  sessionRef,
  sessionsUrl,
  type BulkAction,
  type SessionListItem,
  type SessionsFilter,
  type SessionsListAnswer,
  type WorkerItem,
} from "#api/operations";
import type { SessionPurpose } from "#api/sessions";
import { useLive } from "~/components/live/live";
import { SessionPhaseBadge, Countdown } from "~/components/session/session-phase";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { EmptyState } from "~/components/ui/empty-state";
import { MixerHorizontalIcon, ReaderIcon } from "~/components/ui/icons";
import { RelativeTime } from "~/components/ui/relative-time";
import { UndoBar } from "~/components/ui/undo-bar";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { WorkersPanel } from "./workers-panel";

/** Pages without a live stream poll this often (docs/live.md). */
const FALLBACK_MS = 5_000;

type Target = { purpose: SessionPurpose; key: string };

export type SessionsScreenProps = {
  filter: SessionsFilter;
  list: SessionsListAnswer;
  workers: WorkerItem[] | null;
  workerChoices: string[];
  confirm: { action: BulkAction; targets: Target[] } | null;
  undo: Target[] | null;
  /** Session refs whose boxes are ticked (after a refused bulk action, without JavaScript too). */
  ticked: string[];
  anySession: boolean;
};

const PHASE_NAMES: Record<(typeof LIST_STATES)[number], string> = {
  waiting: "Waiting for a worker",
  connecting: "Connecting",
  active: "Active",
  retrying: "Retrying",
  stopped: "Stopped",
  failed: "Failed",
};

export function SessionsScreen({ filter, list, workers, workerChoices, confirm, undo, ticked, anySession }: SessionsScreenProps) {
  // Every session change and every worker lost (or back) re-reads the page (docs/live.md).
  useLive(["session", "workers"], { fallbackMs: FALLBACK_MS });
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const filtered = !!(filter.purpose || filter.state || filter.worker || filter.q);
  const back = sessionsUrl(filter);
  // A viewer is never offered a write (a shared link with ?confirm= or ?undo= included).
  const canWrite = useCanWrite();
  return (
    <>
      <Text as="p" size="2" color="gray" mb="3">
        Every background session of every section, problems first. States are as true as their worker&apos;s heartbeat: a session whose worker stopped beating
        shows &ldquo;Worker lost&rdquo;.
      </Text>

      <WorkersPanel workers={workers} action={here} />

      <SessionFilters filter={filter} workerChoices={workerChoices} filtered={filtered} />

      {confirm && canWrite ? (
        <ConfirmPanel
          title={`${confirm.action === "stop" ? "Stop" : "Restart"} ${confirm.targets.length === 1 ? "1 session" : `${confirm.targets.length} sessions`}?`}
          description={`A trading run among them starts fresh next time: its position in the sequence and its counts are reset. This cannot be undone.`}
          confirmLabel={confirm.action === "stop" ? "Stop" : "Restart"}
          cancelTo={back}
          form={{ action: back, fields: { intent: confirm.action, s: confirm.targets.map(sessionRef).join(","), confirmed: "1" } }}
        />
      ) : null}

      {undo && canWrite ? (
        <UndoBar
          message={`Stopped ${undo.length === 1 ? "1 session" : `${undo.length} sessions`}.`}
          action={back}
          fields={{ intent: "undo", s: undo.map(sessionRef).join(",") }}
          redirectTo={back}
        />
      ) : null}

      {list.sessions.length === 0 ? (
        anySession ? (
          <EmptyState
            icon={<MixerHorizontalIcon width="28" height="28" />}
            title="No sessions match these filters"
            description="Try another purpose, state, worker or search, or clear the filters."
            action={
              <Button asChild variant="soft">
                <Link to="/sessions">Clear filters</Link>
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={<MixerHorizontalIcon width="28" height="28" />}
            title="No sessions yet"
            description="Sessions appear here once a stalker, a trading run, a Collections connection or the GalaCord bot is started."
            action={
              <Button asChild variant="soft">
                <Link to="/characters">Open All Characters</Link>
              </Button>
            }
          />
        )
      ) : (
        <SessionList list={list} action={here} filter={filter} ticked={ticked} />
      )}
    </>
  );
}

/** One of the filters: a plain select (works without JavaScript), "every …" first. */
function FilterSelect({
  label,
  name,
  value,
  every,
  options,
}: {
  label: string;
  name: string;
  value: string | undefined;
  every: string;
  options: [string, string][];
}) {
  return (
    <label className="gt-field">
      <Text size="1" weight="medium" color="gray">
        {label}
      </Text>
      <select name={name} defaultValue={value ?? ""} className="gt-select">
        <option value="">{every}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function SessionFilters({ filter, workerChoices, filtered }: { filter: SessionsFilter; workerChoices: string[]; filtered: boolean }) {
  // The key resets the uncontrolled fields when the URL changes (Back, "Clear filters").
  const key = `${filter.purpose}|${filter.state}|${filter.worker}|${filter.q}`;
  return (
    <Form method="get" action="/sessions" aria-label="Filter sessions" key={key}>
      <Flex gap="3" align="end" wrap="wrap" mb="4">
        <FilterSelect label="Purpose" name="purpose" value={filter.purpose} every="Every purpose" options={LIST_PURPOSES.map((p) => [p, PURPOSE_NAMES[p]])} />
        <FilterSelect label="State" name="state" value={filter.state} every="Every state" options={LIST_STATES.map((st) => [st, PHASE_NAMES[st]])} />
        <FilterSelect label="Worker" name="worker" value={filter.worker} every="Every worker" options={workerChoices.map((w) => [w, w])} />
        <label className="gt-field">
          <Text size="1" weight="medium" color="gray">
            Search
          </Text>
          <TextField.Root type="search" name="q" defaultValue={filter.q ?? ""} placeholder="nick or account id..." maxLength={100} />
        </label>
        <Button type="submit" variant="soft" className="gt-touch">
          <MixerHorizontalIcon aria-hidden /> Apply
        </Button>
        {filtered ? (
          <Button asChild variant="ghost" color="gray" className="gt-touch">
            <Link to="/sessions">Clear filters</Link>
          </Button>
        ) : null}
      </Flex>
    </Form>
  );
}

function SessionList({ list, action, filter, ticked }: { list: SessionsListAnswer; action: string; filter: SessionsFilter; ticked: string[] }) {
  const canWrite = useCanWrite();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const refs = list.sessions.map(sessionRef);
  const tickedSet = new Set(ticked);
  const [picked, setPicked] = useState<Set<string>>(() => new Set(refs.filter((r) => tickedSet.has(r))));
  const form = useRef<HTMLFormElement>(null);
  const all = refs.length > 0 && refs.every((r) => picked.has(r));
  // The row boxes stay plain (uncontrolled) inputs, so the form posts the same with and without
  // JavaScript; "select all" ticks them in the DOM and the count follows.
  const selectAll = (on: boolean) => {
    for (const box of form.current?.querySelectorAll<HTMLInputElement>('input[name="s"]') ?? []) box.checked = on;
    setPicked(on ? new Set(refs) : new Set());
  };
  const pressed = navigation.state === "submitting" && navigation.formAction?.startsWith("/sessions") ? navigation.formData?.get("intent") : null;
  const from = (list.page - 1) * list.page_size + 1;
  const to = from + list.sessions.length - 1;
  return (
    <Form method="post" action={action} aria-label="Sessions" ref={form}>
      {canWrite ? (
        <Flex gap="2" align="center" wrap="wrap" mb="3" className="gt-bulk-bar">
          <Text size="2" color="gray" aria-live="polite">
            {hydrated ? `${picked.size} selected` : "Select sessions, then:"}
          </Text>
          {(["stop", "start", "restart"] as const).map((intent) => (
            <Button
              key={intent}
              type="submit"
              name="intent"
              value={intent}
              variant="soft"
              color={intent === "stop" ? "red" : undefined}
              className="gt-touch"
              disabled={hydrated && picked.size === 0}
              loading={pressed === intent}
            >
              {intent === "stop" ? "Stop" : intent === "start" ? "Start" : "Restart"}
            </Button>
          ))}
        </Flex>
      ) : null}
      <Table.Root variant="surface" size="1" aria-label="Sessions list">
        <Table.Header>
          <Table.Row>
            {canWrite ? (
              <Table.ColumnHeaderCell>
                {/* Without JavaScript the column still has a header, so each row's box is named by it too (axe's td-has-header). */}
                {hydrated ? (
                  <input type="checkbox" aria-label="Select every session on this page" checked={all} onChange={() => selectAll(!all)} />
                ) : (
                  <span className="gt-visually-hidden">Select</span>
                )}
              </Table.ColumnHeaderCell>
            ) : null}
            <Table.ColumnHeaderCell>Purpose</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Account</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>State</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Since</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Worker</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Attempt</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Last error</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Relay</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {list.sessions.map((s) => (
            <SessionRow
              key={sessionRef(s)}
              s={s}
              canWrite={canWrite}
              ticked={tickedSet.has(sessionRef(s))}
              onToggle={(on) =>
                setPicked((prev) => {
                  const next = new Set(prev);
                  if (on) next.add(sessionRef(s));
                  else next.delete(sessionRef(s));
                  return next;
                })
              }
            />
          ))}
        </Table.Body>
      </Table.Root>
      <nav aria-label="Sessions pages">
        <Flex justify="between" align="center" mt="3" gap="3" wrap="wrap">
          {list.page > 1 ? (
            <Button asChild variant="soft" className="gt-touch">
              <Link to={sessionsUrl({ ...filter, page: list.page - 1 })} rel="prev">
                Previous
              </Link>
            </Button>
          ) : (
            <span />
          )}
          <Text size="1" color="gray">
            {`Sessions ${from.toLocaleString("en-US")}–${to.toLocaleString("en-US")} of ${list.total.toLocaleString("en-US")}`}
            {list.page_count > 1 ? ` · page ${list.page} of ${list.page_count}` : ""}
          </Text>
          {list.page < list.page_count ? (
            <Button asChild variant="soft" className="gt-touch">
              <Link to={sessionsUrl({ ...filter, page: list.page + 1 })} rel="next">
                Next
              </Link>
            </Button>
          ) : (
            <span />
          )}
        </Flex>
      </nav>
    </Form>
  );
}

function SessionRow({ s, canWrite, ticked, onToggle }: { s: SessionListItem; canWrite: boolean; ticked: boolean; onToggle: (on: boolean) => void }) {
  const label = s.nick ? `${s.nick} (${s.account_id ?? s.key})` : (s.account_id ?? s.key);
  return (
    <Table.Row data-session={sessionRef(s)} data-phase={s.phase}>
      {canWrite ? (
        <Table.Cell>
          <input
            type="checkbox"
            name="s"
            value={sessionRef(s)}
            defaultChecked={ticked}
            aria-label={`Select ${PURPOSE_NAMES[s.purpose]} of ${label}`}
            onChange={(e) => onToggle(e.currentTarget.checked)}
          />
        </Table.Cell>
      ) : null}
      <Table.Cell>
        <Link to={s.page_url}>{PURPOSE_NAMES[s.purpose]}</Link>
      </Table.Cell>
      <Table.Cell>
        {s.nick ? <Text weight="medium">{s.nick}</Text> : null}
        {s.account_id ? (
          <Text as="div" size="1" color="gray">
            {s.account_id}
          </Text>
        ) : (
          <Text as="div" size="1" color="gray">
            {s.key}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell>
        <SessionPhaseBadge session={{ phase: s.phase, status: s.status, nextRetryAt: s.next_try_at }} />
        {s.phase !== "failed" && s.phase !== "active" && s.status !== PHASE_NAMES[s.phase] ? (
          <Text as="div" size="1" color="gray">
            {s.status}
          </Text>
        ) : null}
        <Text as="div" size="1" color="gray">
          {s.desired === "run" ? "wanted: run" : "wanted: stop"}
        </Text>
        {s.note ? (
          <Text as="div" size="1" color="gray">
            {s.note}
          </Text>
        ) : null}
      </Table.Cell>
      <Table.Cell>{new Date(s.since).getTime() > 0 ? <RelativeTime value={s.since} /> : "—"}</Table.Cell>
      <Table.Cell>
        {s.holder ? (
          <>
            <Code variant="ghost" size="1" style={{ overflowWrap: "anywhere" }}>
              {s.holder}
            </Code>
            {s.holder_alive === false ? (
              <Badge color="red" variant="soft" ml="1">
                lost
              </Badge>
            ) : null}
          </>
        ) : (
          <Text color="gray">—</Text>
        )}
      </Table.Cell>
      <Table.Cell>
        {s.attempt > 0 ? `${s.attempt}` : "—"}
        {s.next_try_at && s.phase === "retrying" ? (
          <Text as="div" size="1" color="gray">
            next try <Countdown at={s.next_try_at} />
          </Text>
        ) : null}
      </Table.Cell>
      <Table.Cell style={{ maxWidth: 280 }}>
        {s.last_error ? (
          <>
            <Text size="1" style={{ overflowWrap: "anywhere" }}>
              {s.last_error}
            </Text>
            <div>
              <RadixLink asChild size="1">
                <Link to={s.logs_url}>
                  <ReaderIcon aria-hidden /> System Logs
                </Link>
              </RadixLink>
            </div>
          </>
        ) : (
          <Text color="gray">—</Text>
        )}
      </Table.Cell>
      <Table.Cell>
        {s.relay ? (
          <Text size="1" as="div" className="gt-relay-counters">
            <div title="Lines relayed from Discord to Galaxy">→ Galaxy {s.relay.to_galaxy}</div>
            <div title="Messages relayed from Galaxy to Discord">→ Discord {s.relay.to_discord}</div>
            <div>
              dropped {s.relay.dropped} · queued {s.relay.queued}
            </div>
            <div>last {s.relay.last_message_at ? <RelativeTime value={s.relay.last_message_at} /> : "never"}</div>
          </Text>
        ) : (
          <Text color="gray">—</Text>
        )}
      </Table.Cell>
    </Table.Row>
  );
}
