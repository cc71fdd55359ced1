import { Spinner } from "@radix-ui/themes";
import { Link, useFetcher } from "@remix-run/react";
import { GlobeIcon, MobileIcon, TrashIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { StaleMark } from "~/components/ui/refresh-outcome";
import { SessionDetail } from "~/components/session/session-detail";
import type { CharacterRow as Row } from "~/routes/_app+/_characters+/characters";
import { CONFIRM_PARAM, GIFT_COLUMNS, giftLabel, type GiftAmount } from "./characters-view";

/*
 * Light rows (issue 20): plain elements carrying Radix Themes' own classes and accent
 * attributes (what <Card>, <Badge>, <Avatar>, <Button> and <IconButton> render), not the
 * components — their prop extraction was a quarter of the server's render time, and a page
 * renders up to CHARACTERS_PAGE_SIZE rows. Gift names and pictures are the page's (one
 * `<GiftPictures>` style sheet), so a row carries each gift's type and amount only.
 */
const BADGE = "rt-reset rt-Badge rt-r-size-1";
const SMALL_BUTTON = "rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft";

/** A gift type's name and short label, for the page (from the totals, which cover every type a row can show). */
export type GiftNames = Map<number, { name: string; label: string }>;

export function giftNamesOf(totals: Array<{ type: number; name: string }>): GiftNames {
  return new Map(totals.map((g) => [g.type, { name: g.name, label: giftLabel(g) }]));
}

/** Characters a picture URL may hold inside the style sheet's `url("…")` (anything else is percent-encoded). */
function cssUrl(url: string): string | null {
  if (!/^(https?:\/\/|\/)/i.test(url)) return null;
  return url.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => encodeURIComponent(c));
}

/**
 * Each gift type's picture, written once for the page: the `<i>` of a row's cell of that type
 * shows it (the cells hold no URL; a type without a picture keeps the plain tile).
 */
export function GiftPictures({ totals }: { totals: Array<{ type: number; img: string }> }) {
  const rules = totals
    .map((g) => {
      const url = cssUrl(g.img);
      return url ? `.gt-gift-row>[data-gift="${g.type}"]>i{background-image:url("${url}")}` : "";
    })
    .join("");
  return rules ? <style dangerouslySetInnerHTML={{ __html: rules }} /> : null;
}

/**
 * The 8-column gift grid of one row (spec 2 §2): skeleton while a refresh loads it, "Gifts not
 * loaded yet" when nothing does; the last known gifts when the latest call failed (the row
 * carries the stale mark); "Failed to load gifts" only when there are none to show.
 */
export function GiftGrid({
  gifts,
  failed,
  label,
  loading,
  names,
}: {
  gifts: GiftAmount[] | null;
  failed: boolean;
  label: string;
  loading: boolean;
  names: GiftNames;
}) {
  if (!gifts && failed) {
    return (
      <span className="rt-Text rt-r-size-1" data-accent-color="red" data-testid="gifts-failed">
        Failed to load gifts
      </span>
    );
  }
  // Issue 19 item 8: a skeleton only while something loads them; else say so (Refresh loads them).
  if (!gifts && !loading) {
    return (
      <span className="rt-Text rt-r-size-1" data-accent-color="gray" data-testid="gifts-not-loaded">
        Gifts not loaded yet
      </span>
    );
  }
  if (!gifts) {
    return (
      <div className="gt-gift-grid" aria-label={`${label}: loading`} data-testid="gifts-loading">
        {Array.from({ length: GIFT_COLUMNS }, (_, i) => (
          <span key={i} className="rt-Skeleton gt-gift-skeleton" aria-hidden />
        ))}
      </div>
    );
  }
  return (
    <ul className="gt-gift-grid gt-gift-row" aria-label={label}>
      {gifts.map((g) => {
        const n = names.get(g.type);
        return (
          <li key={g.type} data-gift={g.type}>
            <i role="img" aria-label={n?.name ?? `Gift ${g.type}`} />
            {g.amount}
            <small aria-hidden>{n?.label ?? g.type}</small>
          </li>
        );
      })}
    </ul>
  );
}

function StalkerButton({ row }: { row: Row }) {
  const fetcher = useFetcher();
  const intent = row.active ? "stop-stalker" : "start-stalker";
  // Issue 30 A3: pending at once; once the row shows the new state (a live event, before the
  // action and the loads after it end) the button offers the next action again.
  const busy = fetcher.state !== "idle" && fetcher.formData?.get("intent") === intent;
  return (
    <fetcher.Form method="post" action="/characters">
      <HiddenFields fields={{ intent, accountId: row.account_id }} />
      <NoJsRedirect />
      <button
        type="submit"
        className={`${SMALL_BUTTON} rt-Button`}
        data-accent-color={row.active ? "orange" : "green"}
        // Issue 30 B3: not `disabled` while the post runs: a disabled button loses focus to the
        // page body. The same button stays (its label changes), so focus stays on it.
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        onClick={(e) => {
          if (busy) e.preventDefault();
        }}
      >
        {busy ? <Spinner size="1" /> : null}
        {row.active ? "Stop" : "Start"}
        <span className="gt-visually-hidden"> stalker for {row.nick}</span>
      </button>
    </fetcher.Form>
  );
}

/**
 * Delete: without JavaScript a link to the page's confirmation (`?confirm=<account id>`, the
 * page and filters kept); with JavaScript a button that opens the screen's one dialog.
 */
function DeleteButton({ row, search, onDelete, busy }: { row: Row; search: string; onDelete: ((row: Row) => void) | null; busy: boolean }) {
  const label = `Delete ${row.nick}`;
  const className = `${SMALL_BUTTON} rt-IconButton`;
  if (!onDelete) {
    const params = new URLSearchParams(search);
    params.set(CONFIRM_PARAM, row.account_id);
    return (
      <Link to={`?${params}`} aria-label={label} preventScrollReset className={className} data-accent-color="red">
        <TrashIcon />
      </Link>
    );
  }
  return (
    <button
      type="button"
      className={className}
      data-accent-color="red"
      aria-label={label}
      onClick={() => onDelete(row)}
      disabled={busy}
      aria-busy={busy || undefined}
    >
      <TrashIcon />
    </button>
  );
}

export type RowContext = {
  /** A refresh runs: rows without gifts show the skeleton. */
  refreshing: boolean;
  canWrite: boolean;
  /** The page's search string (the no-JavaScript delete link keeps it). */
  search: string;
  names: GiftNames;
  /** Opens the delete question (after hydration); null before (the link). */
  onDelete: ((row: Row) => void) | null;
  /** The account a delete is on its way for. */
  deleting: string | null;
};

export function CharacterRowView({ row, ctx }: { row: Row; ctx: RowContext }) {
  const status = row.isOnline === null ? null : row.isOnline ? "online" : "offline";
  return (
    <li className="rt-reset rt-BaseCard rt-Card rt-r-size-1 rt-variant-surface gt-character-row" data-testid="character-row" data-account={row.account_id}>
      <span className="rt-reset rt-AvatarRoot rt-r-size-3 rt-variant-soft gt-avatar" data-radius="full">
        <span className={`rt-AvatarFallback ${row.initials.length === 2 ? "rt-two-letters" : "rt-one-letter"}`}>{row.initials}</span>
        {row.picUrl ? <img className="rt-AvatarImage" src={row.picUrl} alt="" loading="lazy" /> : null}
      </span>
      <div className="gt-character-main">
        <div className="gt-character-head">
          <span className="rt-Text rt-r-weight-bold gt-character-nick">{row.nick}</span>
          {row.active && row.stalkerPhase && row.stalkerPhase !== "active" && row.stalkerPhase !== "connecting" ? (
            // Issue 29: one state per badge — waiting for a worker (worker lost, all full) or retrying, never "Active".
            <span className={`${BADGE} rt-variant-soft`} data-accent-color="amber" data-testid="stalker-phase-badge" data-phase={row.stalkerPhase}>
              {row.stalkerPhase === "retrying" ? "Stalker retrying" : row.stalkerStatus}
            </span>
          ) : row.active ? (
            <span
              className={`${BADGE} rt-variant-soft`}
              data-accent-color={row.stalkerState === "active" ? "green" : "blue"}
              data-testid="active-badge"
              data-phase={row.stalkerPhase ?? undefined}
            >
              {row.stalkerPhase === "connecting" ? "Connecting" : "Active"}
            </span>
          ) : row.stalkerError ? (
            <span className={`${BADGE} rt-variant-soft gt-badge-wrap`} data-accent-color="red" title={row.stalkerError} data-testid="stalker-failed-badge">
              Stalker stopped: {row.stalkerError} ·{" "}
              <Link to={`/logs?account=${row.account_id}`} aria-label={`System Logs of ${row.nick}`}>
                Logs
              </Link>
            </span>
          ) : null}
          {status ? (
            <span className={`${BADGE} rt-variant-soft`} data-accent-color={status === "online" ? "green" : "gray"}>
              {status}
              {row.room ? ` · ${row.room}` : ""}
            </span>
          ) : null}
          {row.device === "android" ? <MobileIcon aria-label="Android" role="img" /> : <GlobeIcon aria-label="Web" role="img" />}
          <span className="rt-Text rt-r-size-1" data-accent-color="gray">
            {row.account_id}
          </span>
          {row.stale ? <StaleMark stale={row.stale} /> : null}
        </div>
        {/* Issue 30 A4: a stalker retrying, reconnecting or waiting says why in its own row, like the card. */}
        {row.stalkerSession ? <SessionDetail session={row.stalkerSession} /> : null}
        <GiftGrid gifts={row.gifts} failed={row.giftsFailed} label={`Gifts of ${row.nick}`} loading={ctx.refreshing} names={ctx.names} />
      </div>
      {ctx.canWrite ? (
        <div className="gt-character-actions">
          {row.isStalker ? <StalkerButton row={row} /> : null}
          <DeleteButton row={row} search={ctx.search} onDelete={ctx.onDelete} busy={ctx.deleting === row.account_id} />
        </div>
      ) : null}
    </li>
  );
}
