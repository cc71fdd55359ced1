import { Button, Flex, Text } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import type { BowlingCandidate } from "#api/bowling";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";

/**
 * Companion dialog (spec 1 §2): 'Assign Companion' for a bowling user without one, else
 * 'Update Companion'. Choosing one supplier and one recipient enables Assign / Update (with
 * JavaScript; without, the server answers 'Failed to assign companion' for an incomplete one).
 */
export function CompanionDialog({
  open,
  onClose,
  closeHref,
  row,
  suppliers,
  recipients,
}: {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  row: BowlingRow | null;
  suppliers: BowlingCandidate[];
  recipients: BowlingCandidate[];
}) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const existing = row?.companion ?? null;
  const [supplier, setSupplier] = useState(existing?.supplier ?? "");
  const [consumer, setConsumer] = useState(existing?.consumer ?? "");
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
  return (
    <DialogFrame
      open={open && !!row}
      onClose={onClose}
      closeHref={closeHref}
      title={title}
      description={row ? `Bowling account ${row.nick} (${row.account_id})` : undefined}
      maxWidth="420px"
    >
      <fetcher.Form method="post" action="/gifts">
        <HiddenFields
          fields={{ intent: existing ? "update-companion" : "assign-companion", bowling_id: row?.account_id ?? "", ...(existing ? { id: existing._id } : {}) }}
        />
        <NoJsRedirect to={closeHref} />
        <Flex direction="column" gap="3">
          <label>
            <Text as="div" size="2" weight="bold" mb="1">
              Supplier
            </Text>
            <select name="supplier" className="gt-native-select" value={supplier} onChange={(e) => setSupplier(e.target.value)} disabled={saving}>
              <option value="">Choose a supplier</option>
              {suppliers.map((s) => (
                <option key={s._id} value={s.account_id}>
                  {s.nick} ({s.account_id})
                </option>
              ))}
            </select>
          </label>
          <label>
            <Text as="div" size="2" weight="bold" mb="1">
              Recipient
            </Text>
            <select name="consumer" className="gt-native-select" value={consumer} onChange={(e) => setConsumer(e.target.value)} disabled={saving}>
              <option value="">Choose a recipient</option>
              {recipients.map((r) => (
                <option key={r._id} value={r.account_id}>
                  {r.nick} ({r.account_id})
                </option>
              ))}
            </select>
          </label>
        </Flex>
        <DialogButtons>
          <DialogCancel disabled={saving} />
          <Button type="submit" disabled={hydrated && (!complete || saving)}>
            {existing ? "Update" : "Assign"}
          </Button>
        </DialogButtons>
      </fetcher.Form>
    </DialogFrame>
  );
}
