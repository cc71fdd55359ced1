import { useFetcher } from "@remix-run/react";
import type { SavedAccount } from "#api/galacord";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { LazyConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { useHydrated } from "~/components/ui/use-hydrated";
import { SECTION_PATH } from "./galacord-view";
import { useLast } from "./use-last";

export const DELETE_CONNECTION_TITLE = "Delete Connection";

export function deleteConnectionQuestion(account: Pick<SavedAccount, "nick" | "channelName">): string {
  return `Delete the connection of ${account.nick} to #${account.channelName}? Its saved recovery code is deleted too. This cannot be undone.`;
}

/**
 * Delete Connection (spec 2 §2; CONVENTIONS rule 7): the question at `?confirm=<accountId>`.
 * With JavaScript an alert dialog (loaded on first open) whose Delete posts through a fetcher
 * (the action redirects with the toast); without it the same question inline, from the server,
 * with a plain POST.
 */
export function DeleteConnection({ account, onClose, closeHref }: { account: SavedAccount | null; onClose: () => void; closeHref: string }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const shown = useLast(account);
  if (!hydrated) {
    return account ? (
      <ConfirmPanel
        title={DELETE_CONNECTION_TITLE}
        description={deleteConnectionQuestion(account)}
        confirmLabel="Delete"
        cancelTo={closeHref}
        form={{ action: SECTION_PATH, fields: { intent: "delete", accountId: account.accountId } }}
      />
    ) : null;
  }
  return (
    <LazyConfirmDialog
      open={!!account}
      onOpenChange={(open) => !open && onClose()}
      title={DELETE_CONNECTION_TITLE}
      description={shown ? deleteConnectionQuestion(shown) : ""}
      confirmLabel="Delete"
      pending={fetcher.state !== "idle"}
      onConfirm={() => {
        if (account) fetcher.submit({ intent: "delete", accountId: account.accountId }, { method: "post", action: SECTION_PATH });
      }}
    />
  );
}
