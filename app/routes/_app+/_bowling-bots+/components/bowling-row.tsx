import { TrashIcon } from "~/components/ui/icons";
import { StaleMark } from "~/components/ui/refresh-outcome";
import type { BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";
import { statusText } from "~/components/account/account-view";
import { ACCOUNT_PARAM, COLLECTION_TITLE, CONFIRM_PARAM, DIALOG_PARAM, collectionTotal, hrefWith, rowChips } from "./bowling-view";
import { RemoteImage } from "./remote-image";

/** Issue 19 items 9, 10: the companion is named only when there is one; Undo is offered for 2 minutes. */
export function deleteUserQuestion(row: Pick<BowlingRow, "nick" | "account_id" | "companion">) {
  return `Are you sure you want to delete ${row.nick} (${row.account_id})?${row.companion ? " Its companion is removed too." : ""} You can undo this for 2 minutes.`;
}

/** Issue 19 item 8 (A.12 for Bowling Bots): a row whose gifts nothing is loading says so instead of a skeleton that never resolves. */
export const GIFTS_NOT_LOADED = "Gifts not loaded yet";

/*
 * Rows are plain elements carrying Radix Themes' own classes and accent attributes (what
 * <Text>, <Badge>, <Button>, <IconButton> and <Skeleton> render), not the components: the
 * components' prop extraction was a quarter of the server's render time (issue 20; as on
 * /logs, docs/decisions/0020-logs-at-scale.md). Links are plain <a>: the table follows them
 * with one click handler (BowlingScreen), and a row holds no hooks, forms or fetchers.
 */
const TEXT_1 = "rt-Text rt-r-size-1";
const BUTTON_1 = "rt-reset rt-BaseButton rt-r-size-1 rt-Button";

function Skeleton({ width, height, label, testId }: { width: number; height: number; label?: string; testId?: string }) {
  // A label needs a role to be spoken (issue 30 B1: aria-label on a bare span is not allowed).
  return (
    <span
      className="rt-Skeleton gt-skeleton"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-testid={testId}
      style={{ width, height }}
    />
  );
}

/**
 * Spec 1 §2 gift chips: a skeleton while a refresh loads them, "Gifts not loaded yet" when
 * nothing does (issue 19 item 8); the last known chips when the latest gift stats call failed
 * (the row carries the stale mark); 'Failed to load gifts' (spec 1 §8) only when there are
 * none to show.
 */
export function GiftChips({ row, loading }: { row: BowlingRow; loading: boolean }) {
  if (!row.gifts && row.giftsFailed) {
    return (
      <span className={TEXT_1} data-accent-color="red" data-testid="gifts-failed">
        Failed to load gifts
      </span>
    );
  }
  if (!row.gifts && !loading) {
    return (
      <span className={TEXT_1} data-accent-color="gray" data-testid="gifts-not-loaded">
        {GIFTS_NOT_LOADED}
      </span>
    );
  }
  if (!row.gifts) {
    return (
      <span className="gt-chips" aria-label={`Gifts of ${row.nick}: loading`} data-testid="gifts-loading">
        {Array.from({ length: 7 }, (_, i) => (
          <Skeleton key={i} width={36} height={18} />
        ))}
      </span>
    );
  }
  return (
    <ul className="gt-chips" aria-label={`Gifts of ${row.nick}`}>
      {rowChips(row.gifts).map((g) => (
        <li key={g.type} className="gt-chip" data-type={g.type} data-color={g.color} data-special={g.special} title={`${g.name}: ${g.amount}`}>
          {/* Issue 30 B4: the gift's name is in the chip's text, not only in its hover title
              (a phone has no hover); the picture shows it. */}
          {g.img ? <RemoteImage src={g.img} alt="" size={16} /> : null}
          <span className="gt-visually-hidden">{g.name}: </span>
          <span>{g.amount}</span>
        </li>
      ))}
    </ul>
  );
}

function StatusBadge({ row }: { row: BowlingRow }) {
  const text = statusText(row.isOnline, row.room);
  if (text === null) return <Skeleton width={56} height={20} label="Status loading" testId="status-loading" />;
  return (
    <span className="rt-reset rt-Badge rt-r-size-1 rt-variant-soft" data-accent-color={row.isOnline ? "green" : "gray"} data-testid="status-badge">
      {text}
    </span>
  );
}

/**
 * The delete control: without JavaScript a link to the confirmation panel (`?confirm=`);
 * with it a button the screen's one confirmation dialog answers (`data-delete`).
 */
function DeleteControl({ row, search, hydrated, pending }: { row: BowlingRow; search: string; hydrated: boolean; pending: boolean }) {
  const className = "rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-IconButton";
  const label = `Delete ${row.nick}`;
  if (!hydrated) {
    return (
      <a className={className} data-accent-color="red" href={hrefWith(search, { [CONFIRM_PARAM]: row.account_id })} aria-label={label}>
        <TrashIcon />
      </a>
    );
  }
  return (
    <button
      type="button"
      className={className}
      data-accent-color="red"
      aria-label={label}
      data-delete={row.account_id}
      disabled={pending}
      aria-busy={pending || undefined}
    >
      <TrashIcon />
    </button>
  );
}

export type RowContext = {
  /** The page's query string: the row's links keep the page, search and Summary state. */
  search: string;
  canWrite: boolean;
  hydrated: boolean;
  /** A refresh runs: rows without gifts show a skeleton, not "Gifts not loaded yet". */
  loading: boolean;
  /** The account whose delete is being posted. */
  deleting: string | null;
};

export function BowlingRowView({ row, ctx }: { row: BowlingRow; ctx: RowContext }) {
  const c = row.companion;
  const total = collectionTotal(row.collection);
  return (
    <tr data-testid="bowling-row" data-account={row.account_id}>
      <td>
        <div className="gt-bowling-user">
          <RemoteImage src={row.picUrl} alt={`Picture of ${row.nick}`} size={32} initials={row.initials} round />
          <div>
            <div className="rt-Text rt-r-size-2 rt-r-weight-bold">{row.nick}</div>
            <div className={TEXT_1} data-accent-color="gray">
              {row.account_id}
            </div>
            {row.stale ? <StaleMark stale={row.stale} /> : null}
          </div>
        </div>
      </td>
      <td>
        <StatusBadge row={row} />
      </td>
      <td>
        <div className={TEXT_1} data-testid="companion">
          {c ? (
            <>
              Supplier: {c.supplierNick ?? c.supplier} · Consumer: {c.consumerNick ?? c.consumer}
            </>
          ) : (
            <span data-accent-color="gray" className="rt-Text">
              No companion
            </span>
          )}
        </div>
        {ctx.canWrite ? (
          <a
            className={`${BUTTON_1} rt-variant-soft gt-companion-link`}
            href={hrefWith(ctx.search, { [DIALOG_PARAM]: "companion", [ACCOUNT_PARAM]: row.account_id, [CONFIRM_PARAM]: null })}
          >
            {c ? "Update Companion" : "Assign Companion"}
            <span className="gt-visually-hidden"> for {row.nick}</span>
          </a>
        ) : null}
      </td>
      <td>
        <GiftChips row={row} loading={ctx.loading} />
      </td>
      <td>
        {row.collection ? (
          <a
            className={`${BUTTON_1} rt-variant-ghost`}
            href={hrefWith(ctx.search, { [DIALOG_PARAM]: "collection", [ACCOUNT_PARAM]: row.account_id, [CONFIRM_PARAM]: null })}
            aria-label={`${COLLECTION_TITLE} of ${row.nick}: ${total} items`}
          >
            {total} items
          </a>
        ) : row.gifts || row.giftsFailed || !ctx.loading ? (
          <span className={TEXT_1} data-accent-color="gray" aria-label={`${COLLECTION_TITLE} of ${row.nick}: not loaded`}>
            —
          </span>
        ) : (
          <Skeleton width={48} height={18} />
        )}
      </td>
      {ctx.canWrite ? (
        <td>
          <DeleteControl row={row} search={ctx.search} hydrated={ctx.hydrated} pending={ctx.deleting === row.account_id} />
        </td>
      ) : null}
    </tr>
  );
}
