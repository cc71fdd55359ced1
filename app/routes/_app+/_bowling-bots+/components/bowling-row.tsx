import { Badge, Button, Flex, IconButton, Skeleton, Text } from "@radix-ui/themes";
import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useState } from "react";
import { TrashIcon } from "~/components/ui/icons";
import { LazyConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { StaleMark } from "~/components/ui/refresh-outcome";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import type { BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";
import { ACCOUNT_PARAM, COLLECTION_TITLE, CONFIRM_PARAM, DIALOG_PARAM, collectionTotal, hrefWith, rowChips, statusText } from "./bowling-view";
import { RemoteImage } from "./remote-image";

/** Issue 19 items 9, 10: the companion is named only when there is one; Undo is offered for 2 minutes. */
export function deleteUserQuestion(row: Pick<BowlingRow, "nick" | "account_id" | "companion">) {
  return `Are you sure you want to delete ${row.nick} (${row.account_id})?${row.companion ? " Its companion is removed too." : ""} You can undo this for 2 minutes.`;
}

/**
 * Spec 1 §2 gift chips: a skeleton until loaded; the last known chips when the latest gift
 * stats call failed (the row carries the stale mark); 'Failed to load gifts' (spec 1 §8) only
 * when there are none to show.
 */
export function GiftChips({ row }: { row: BowlingRow }) {
  if (!row.gifts && row.giftsFailed) {
    return (
      <Text size="1" color="red" data-testid="gifts-failed">
        Failed to load gifts
      </Text>
    );
  }
  if (!row.gifts) {
    return (
      <Flex gap="1" aria-label={`Gifts of ${row.nick}: loading`} data-testid="gifts-loading">
        {Array.from({ length: 7 }, (_, i) => (
          <Skeleton key={i} width="36px" height="18px" />
        ))}
      </Flex>
    );
  }
  return (
    <ul className="gt-chips" aria-label={`Gifts of ${row.nick}`}>
      {rowChips(row.gifts).map((g) => (
        <li key={g.type} className="gt-chip" data-type={g.type} data-color={g.color} data-special={g.special} title={`${g.name}: ${g.amount}`}>
          {g.img ? <RemoteImage src={g.img} alt={g.name} size={16} /> : null}
          <span>{g.amount}</span>
        </li>
      ))}
    </ul>
  );
}

function StatusBadge({ row }: { row: BowlingRow }) {
  const text = statusText(row.isOnline, row.room);
  if (text === null) return <Skeleton width="56px" height="20px" data-testid="status-loading" aria-label="Status loading" />;
  return (
    <Badge color={row.isOnline ? "green" : "gray"} variant="soft" data-testid="status-badge">
      {text}
    </Badge>
  );
}

function DeleteButton({ row }: { row: BowlingRow }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher();
  const [open, setOpen] = useState(false);
  const label = `Delete ${row.nick}`;
  if (!hydrated) {
    return (
      <IconButton asChild size="1" variant="soft" color="red">
        <Link to={hrefWith(location.search, { [CONFIRM_PARAM]: row.account_id })} aria-label={label} preventScrollReset>
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
        title="Delete bowling user"
        description={deleteUserQuestion(row)}
        confirmLabel="Delete"
        onConfirm={() => fetcher.submit({ intent: "delete-user", accountId: row.account_id }, { method: "post", action: "/gifts" })}
      />
    </>
  );
}

export function BowlingRowView({ row }: { row: BowlingRow }) {
  const location = useLocation();
  const canWrite = useCanWrite();
  const c = row.companion;
  const total = collectionTotal(row.collection);
  return (
    <tr data-testid="bowling-row" data-account={row.account_id}>
      <td>
        <div className="gt-bowling-user">
          <RemoteImage src={row.picUrl} alt={`Picture of ${row.nick}`} size={32} initials={row.initials} round />
          <div>
            <Text as="div" weight="bold" size="2">
              {row.nick}
            </Text>
            <Text as="div" size="1" color="gray">
              {row.account_id}
            </Text>
            {row.stale ? <StaleMark stale={row.stale} /> : null}
          </div>
        </div>
      </td>
      <td>
        <StatusBadge row={row} />
      </td>
      <td>
        <Text as="div" size="1" data-testid="companion">
          {c ? (
            <>
              Supplier: {c.supplierNick ?? c.supplier} · Consumer: {c.consumerNick ?? c.consumer}
            </>
          ) : (
            <Text color="gray">No companion</Text>
          )}
        </Text>
        {canWrite ? (
          <Button asChild size="1" variant="soft" mt="1">
            <Link to={hrefWith(location.search, { [DIALOG_PARAM]: "companion", [ACCOUNT_PARAM]: row.account_id, [CONFIRM_PARAM]: null })} preventScrollReset>
              {c ? "Update Companion" : "Assign Companion"}
              <span className="gt-visually-hidden"> for {row.nick}</span>
            </Link>
          </Button>
        ) : null}
      </td>
      <td>
        <GiftChips row={row} />
      </td>
      <td>
        {row.collection ? (
          <Button asChild size="1" variant="ghost">
            <Link
              to={hrefWith(location.search, { [DIALOG_PARAM]: "collection", [ACCOUNT_PARAM]: row.account_id, [CONFIRM_PARAM]: null })}
              preventScrollReset
              aria-label={`${COLLECTION_TITLE} of ${row.nick}: ${total} items`}
            >
              {total} items
            </Link>
          </Button>
        ) : row.gifts || row.giftsFailed ? (
          <Text size="1" color="gray" aria-label={`${COLLECTION_TITLE} of ${row.nick}: not loaded`}>
            —
          </Text>
        ) : (
          <Skeleton width="48px" height="18px" />
        )}
      </td>
      {canWrite ? (
        <td>
          <DeleteButton row={row} />
        </td>
      ) : null}
    </tr>
  );
}
