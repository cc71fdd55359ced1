import { Avatar, Badge, Box, Button, Card, Flex, IconButton, Skeleton, Text } from "@radix-ui/themes";
import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useState } from "react";
import { GlobeIcon, MobileIcon, TrashIcon } from "~/components/ui/icons";
import { LazyConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { StaleMark } from "~/components/ui/refresh-outcome";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import type { CharacterRow as Row } from "~/routes/_app+/_characters+/characters";
import { CONFIRM_PARAM, DELETE_TEXTS, GIFT_COLUMNS, giftLabel, type GiftCell } from "./characters-view";

/**
 * The 8-column gift grid of one row (spec 2 §2): skeleton while a refresh loads it, "Gifts not
 * loaded yet" when nothing does; the last known gifts
 * when the latest call failed (the row carries the stale mark); "Failed to load gifts" only
 * when there are none to show.
 */
export function GiftGrid({ gifts, failed, label, loading }: { gifts: GiftCell[] | null; failed: boolean; label: string; loading: boolean }) {
  if (!gifts && failed) {
    return (
      <Text size="1" color="red" data-testid="gifts-failed">
        Failed to load gifts
      </Text>
    );
  }
  // Issue 19 item 8: a skeleton only while something loads them; else say so (Refresh loads them).
  if (!gifts && !loading) {
    return (
      <Text size="1" color="gray" data-testid="gifts-not-loaded">
        Gifts not loaded yet
      </Text>
    );
  }
  if (!gifts) {
    return (
      <div className="gt-gift-grid" aria-label={`${label}: loading`} data-testid="gifts-loading">
        {Array.from({ length: GIFT_COLUMNS }, (_, i) => (
          <Skeleton key={i} height="20px" />
        ))}
      </div>
    );
  }
  return (
    <ul className="gt-gift-grid" aria-label={label}>
      {gifts.map((g) => (
        <li key={g.type} className="gt-gift-cell" title={`${g.name}: ${g.amount}`}>
          {g.img ? <img src={g.img} alt={g.name} width={20} height={20} loading="lazy" /> : null}
          <Text size="1">{g.amount}</Text>
          <span className="gt-gift-name" aria-hidden>
            {giftLabel(g)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function StalkerButton({ row }: { row: Row }) {
  const fetcher = useFetcher();
  const intent = row.active ? "stop-stalker" : "start-stalker";
  return (
    <fetcher.Form method="post" action="/characters">
      <HiddenFields fields={{ intent, accountId: row.account_id }} />
      <NoJsRedirect />
      <Button size="1" type="submit" variant="soft" color={row.active ? "orange" : "green"} loading={fetcher.state !== "idle"}>
        {row.active ? "Stop" : "Start"}
        <span className="gt-visually-hidden"> stalker for {row.nick}</span>
      </Button>
    </fetcher.Form>
  );
}

function DeleteButton({ row }: { row: Row }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher();
  const [open, setOpen] = useState(false);
  const label = `Delete ${row.nick}`;
  if (!hydrated) {
    const params = new URLSearchParams(location.search);
    params.set(CONFIRM_PARAM, row.account_id);
    return (
      <IconButton asChild size="1" variant="soft" color="red">
        <Link to={`?${params}`} aria-label={label} preventScrollReset>
          <TrashIcon />
        </Link>
      </IconButton>
    );
  }
  return (
    <>
      <IconButton size="1" variant="soft" color="red" aria-label={label} onClick={() => setOpen(true)} loading={fetcher.state !== "idle"}>
        <TrashIcon />
      </IconButton>
      <LazyConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={DELETE_TEXTS.userTitle}
        description={DELETE_TEXTS.user(row)}
        confirmLabel="Delete"
        onConfirm={() => fetcher.submit({ intent: "delete-user", accountId: row.account_id }, { method: "post", action: "/characters" })}
      />
    </>
  );
}

export function CharacterRowView({ row, refreshing }: { row: Row; refreshing: boolean }) {
  const canWrite = useCanWrite();
  const status = row.isOnline === null ? null : row.isOnline ? "online" : "offline";
  return (
    <Card asChild size="1">
      <li data-testid="character-row" data-account={row.account_id}>
        <Flex gap="3" align="start" wrap="wrap">
          <Avatar size="3" radius="full" src={row.picUrl ?? undefined} fallback={row.initials} alt="" />
          <Box className="gt-character-main">
            <Flex gap="2" align="center" wrap="wrap">
              <Text weight="bold" className="gt-character-nick">
                {row.nick}
              </Text>
              {row.active ? (
                <Badge color={row.stalkerState === "active" ? "green" : "blue"} data-testid="active-badge">
                  Active
                </Badge>
              ) : row.stalkerError ? (
                <Badge color="red" variant="soft" title={row.stalkerError} data-testid="stalker-failed-badge" className="gt-badge-wrap">
                  Stalker stopped: {row.stalkerError} ·{" "}
                  <Link to={`/logs?account=${row.account_id}`} aria-label={`System Logs of ${row.nick}`}>
                    Logs
                  </Link>
                </Badge>
              ) : null}
              {status ? (
                <Badge color={status === "online" ? "green" : "gray"} variant="soft">
                  {status}
                  {row.room ? ` · ${row.room}` : ""}
                </Badge>
              ) : null}
              {row.device === "android" ? <MobileIcon aria-label="Android" role="img" /> : <GlobeIcon aria-label="Web" role="img" />}
              <Text size="1" color="gray">
                {row.account_id}
              </Text>
              {row.stale ? <StaleMark stale={row.stale} /> : null}
            </Flex>
            <Box mt="2">
              <GiftGrid gifts={row.gifts} failed={row.giftsFailed} label={`Gifts of ${row.nick}`} loading={refreshing} />
            </Box>
          </Box>
          {canWrite ? (
            <Flex gap="2" align="center" ml="auto">
              {row.isStalker ? <StalkerButton row={row} /> : null}
              <DeleteButton row={row} />
            </Flex>
          ) : null}
        </Flex>
      </li>
    </Card>
  );
}
