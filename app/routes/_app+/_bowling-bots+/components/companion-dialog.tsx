import { Button, Flex, Text } from "@radix-ui/themes";
import { useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { BowlingCandidate } from "#api/bowling";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";
import { CANDIDATE_TEXTS } from "./bowling-view";

/**
 * Companion dialog (spec 1 §2): 'Assign Companion' for a bowling user without one, else
 * 'Update Companion'. Choosing one supplier and one recipient enables Assign / Update (with
 * JavaScript; without, the server answers 'Failed to assign companion' for an incomplete one,
 * next to the missing field, the dialog open with what was chosen: issue 30 A6).
 */
export function CompanionDialog({
  open,
  onClose,
  closeHref,
  row,
  candidates,
  candidatesFailed = false,
}: {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  row: BowlingRow | null;
  /** From the page when it was rendered with the dialog open (no JavaScript); else fetched here. */
  candidates: Candidates | null;
  /** The page's load of them failed (rendered with the dialog open). */
  candidatesFailed?: boolean;
}) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const location = useLocation();
  const loaded = useCandidates(open && !!row && hydrated, candidates, candidatesFailed);
  const { suppliers, recipients } = loaded.list ?? { suppliers: [], recipients: [] };
  const waiting = loaded.list === null;
  const existing = row?.companion ?? null;
  // A refused companion comes back with what was chosen, spec 1 §8's text next to the field it is
  // about (issue 30 A6). Without JavaScript the form posts to the dialog's own URL, so the refusal
  // renders the dialog open.
  const kept = useKeptForm(["assign-companion", "update-companion"], { bowling_id: row?.account_id ?? "" }, fetcher.data);
  const [supplier, setSupplier] = useState(() => kept.value("supplier", existing?.supplier ?? ""));
  const [consumer, setConsumer] = useState(() => kept.value("consumer", existing?.consumer ?? ""));
  const [forRow, setForRow] = useState(row?.account_id);
  if (row?.account_id !== forRow) {
    setForRow(row?.account_id);
    setSupplier(row?.companion?.supplier ?? "");
    setConsumer(row?.companion?.consumer ?? "");
  }
  const saving = fetcher.state !== "idle";
  useFetcherOutcome(fetcher, { onSuccess: onClose });
  const title = existing ? "Update Companion" : "Assign Companion";
  const complete = supplier !== "" && consumer !== "";
  const status = loaded.failed ? CANDIDATE_TEXTS.failed : waiting ? CANDIDATE_TEXTS.loading : null;
  return (
    <DialogFrame
      open={open && !!row}
      onClose={onClose}
      closeHref={closeHref}
      title={title}
      description={row ? `Bowling account ${row.nick} (${row.account_id})` : undefined}
      maxWidth="420px"
    >
      <fetcher.Form method="post" action={hydrated ? "/gifts" : `${location.pathname}${location.search}`}>
        <HiddenFields
          fields={{ intent: existing ? "update-companion" : "assign-companion", bowling_id: row?.account_id ?? "", ...(existing ? { id: existing._id } : {}) }}
        />
        <NoJsRedirect to={closeHref} />
        <Flex direction="column" gap="3">
          {status ? (
            <Text as="p" size="2" color={loaded.failed ? "red" : "gray"} role={loaded.failed ? "alert" : "status"} data-testid="companion-candidates-status">
              {status}
              {loaded.failed && hydrated ? (
                <>
                  {" "}
                  <Button type="button" size="1" variant="soft" onClick={loaded.retry}>
                    Retry
                  </Button>
                </>
              ) : null}
            </Text>
          ) : null}
          <label>
            <Text as="div" size="2" weight="bold" mb="1">
              Supplier
            </Text>
            <select
              name="supplier"
              className="gt-native-select"
              value={supplier}
              onChange={(e) => setSupplier(e.target.value)}
              disabled={saving || waiting}
              {...kept.invalid("supplier", SUPPLIER_ERROR_ID)}
            >
              <option value="">Choose a supplier</option>
              {suppliers.map((s) => (
                <option key={s._id} value={s.account_id}>
                  {s.nick} ({s.account_id})
                </option>
              ))}
            </select>
          </label>
          <FieldError id={SUPPLIER_ERROR_ID} errors={kept.errors("supplier")} />
          <label>
            <Text as="div" size="2" weight="bold" mb="1">
              Recipient
            </Text>
            <select
              name="consumer"
              className="gt-native-select"
              value={consumer}
              onChange={(e) => setConsumer(e.target.value)}
              disabled={saving || waiting}
              {...kept.invalid("consumer", CONSUMER_ERROR_ID)}
            >
              <option value="">Choose a recipient</option>
              {recipients.map((r) => (
                <option key={r._id} value={r.account_id}>
                  {r.nick} ({r.account_id})
                </option>
              ))}
            </select>
          </label>
          <FieldError id={CONSUMER_ERROR_ID} errors={kept.errors("consumer")} />
          <FieldError errors={kept.formErrors} />
        </Flex>
        <DialogButtons>
          <DialogCancel disabled={saving} />
          <Button type="submit" disabled={hydrated && (!complete || saving || waiting)}>
            {existing ? "Update" : "Assign"}
          </Button>
        </DialogButtons>
      </fetcher.Form>
    </DialogFrame>
  );
}

const SUPPLIER_ERROR_ID = "gt-companion-supplier-error";
const CONSUMER_ERROR_ID = "gt-companion-consumer-error";

type Candidates = { suppliers: BowlingCandidate[]; recipients: BowlingCandidate[] };

/** Where the dialog fetches its choices (a resource route: the page's own data stays bounded). */
export const CANDIDATES_URL = "/gifts/companion-candidates";

/**
 * The suppliers and recipients: the page's when it carried them, else fetched each time the
 * dialog opens (a plain fetch, so a failure stays in the dialog with a Retry instead of taking
 * the page to its error screen). `list` is null while loading or after a failure.
 */
function useCandidates(active: boolean, given: Candidates | null, failedOnServer: boolean): { list: Candidates | null; failed: boolean; retry: () => void } {
  const [fetched, setFetched] = useState<Candidates | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!active || given) return;
    const abort = new AbortController();
    setFetched(null);
    setFailed(false);
    fetch(CANDIDATES_URL, { headers: { Accept: "application/json" }, signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as Candidates;
        if (!Array.isArray(body.suppliers) || !Array.isArray(body.recipients)) throw new Error("unexpected answer");
        setFetched(body);
      })
      .catch(() => {
        if (!abort.signal.aborted) setFailed(true);
      });
    return () => abort.abort();
  }, [active, given, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  if (given) return { list: given, failed: false, retry };
  // Before hydration (the server's HTML, no JavaScript): the page's own load of them failed.
  if (!active) return { list: fetched, failed: failedOnServer && !fetched, retry };
  return { list: fetched, failed, retry };
}
