import { Button, Text, TextArea } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { RATE_MESSAGES } from "#api/rates";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { useRatesValidation, type ActionResult } from "./form-helpers";

type Props = {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  /** A no-JavaScript import that failed: its text comes back for another try. */
  failedText?: string;
};

/**
 * Import Exchange Rates (spec 1 §2, §5 "Import"): paste JSON shaped input → output → rate
 * data. The browser checks it with the contract's parser first, so a bad paste gets the
 * §8 toast at once and the dialog stays open; the server checks it again and imports the
 * whole batch in one transaction.
 */
export function ImportDialog({ open, onClose, closeHref, failedText }: Props) {
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      closeHref={closeHref}
      title="Import Exchange Rates"
      description='JSON mapping each input gift to its output gifts and their rate data, e.g. {"Gold Ring": {"Clay": {"rate": "1/2"}}}.'
    >
      {open ? <ImportForm onClose={onClose} closeHref={closeHref} failedText={failedText} /> : null}
    </DialogFrame>
  );
}

function ImportForm({ onClose, closeHref, failedText }: Omit<Props, "open">) {
  const hydrated = useHydrated();
  const validation = useRatesValidation();
  const fetcher = useFetcher<ActionResult>();
  const [text, setText] = useState(failedText ?? "");
  useFetcherOutcome<ActionResult>(fetcher, { onSuccess: onClose });
  const importing = fetcher.state !== "idle";

  return (
    <fetcher.Form
      method="post"
      className="gt-dialog-form"
      onSubmit={(event) => {
        // Before the parser has loaded, the server checks the paste alone (same parser, same toast).
        const parsed = validation?.parseImportText(text);
        if (parsed && !parsed.ok) {
          event.preventDefault();
          // The detail is for whoever debugs a paste; the operator gets the spec's toast.
          console.warn("[import]", parsed.detail);
          toast.error(parsed.error);
        }
      }}
    >
      <HiddenFields fields={{ intent: "import" }} />
      <NoJsRedirect to={closeHref} />
      <label>
        <Text as="div" size="2" weight="medium" mb="1" className="gt-visually-hidden">
          Exchange rates JSON
        </Text>
        <TextArea
          name="data"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          placeholder={RATE_MESSAGES.importPlaceholder}
          rows={12}
          className="gt-import-text"
          spellCheck={false}
          autoComplete="off"
          readOnly={importing}
        />
      </label>
      <DialogButtons>
        <DialogCancel disabled={importing} />
        <Button type="submit" disabled={(hydrated && !text.trim()) || importing}>
          {importing ? RATE_MESSAGES.importing : "Import"}
        </Button>
      </DialogButtons>
    </fetcher.Form>
  );
}
