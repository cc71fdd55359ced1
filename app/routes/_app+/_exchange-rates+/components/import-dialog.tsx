import { Button, Text, TextArea } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { RATE_MESSAGES } from "#api/rates";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import type { ImportProblems } from "#api/rates-schemas";
import { useRatesValidation, type ActionResult } from "./form-helpers";

const PROBLEMS_ID = "gt-import-problems";

type Props = {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  /** A no-JavaScript import that failed: its text comes back for another try… */
  failedText?: string;
  /** …with the entries that failed and why. */
  failedProblems?: ImportProblems;
};

/**
 * Import Exchange Rates (spec 1 §2, §5 "Import"): paste JSON shaped input → output → rate
 * data. The browser checks it with the contract's parser first, so a bad paste gets the
 * §8 toast at once and the dialog stays open; the server checks it again and imports the
 * whole batch in one transaction.
 */
export function ImportDialog({ open, onClose, closeHref, failedText, failedProblems }: Props) {
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      closeHref={closeHref}
      title="Import Exchange Rates"
      description='JSON mapping each input gift to its output gifts and their rate data, e.g. {"Gold Ring": {"Clay": {"rate": "1/2"}}}.'
    >
      {open ? <ImportForm onClose={onClose} closeHref={closeHref} failedText={failedText} failedProblems={failedProblems} /> : null}
    </DialogFrame>
  );
}

function ImportForm({ onClose, closeHref, failedText, failedProblems }: Omit<Props, "open">) {
  const hydrated = useHydrated();
  const validation = useRatesValidation();
  const fetcher = useFetcher<ActionResult>();
  const [text, setText] = useState(failedText ?? "");
  // Why the last try was refused: the browser's own check, else the server's answer (or, without
  // JavaScript, the page's). Cleared when the text changes, so it never describes other text.
  const [problems, setProblems] = useState<ImportProblems | undefined>(failedProblems);
  useFetcherOutcome<ActionResult>(fetcher, {
    onSuccess: onClose,
    onFailure: (answer) => setProblems(answer.importProblems),
  });
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
          // The spec's toast is the headline; the dialog lists which entries failed and why.
          toast.error(parsed.error);
          setProblems(parsed.problems);
        } else setProblems(undefined);
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
          onChange={(event) => {
            setText(event.currentTarget.value);
            setProblems(undefined);
          }}
          placeholder={RATE_MESSAGES.importPlaceholder}
          rows={12}
          className="gt-import-text"
          spellCheck={false}
          autoComplete="off"
          readOnly={importing}
          aria-invalid={problems ? true : undefined}
          aria-describedby={problems ? PROBLEMS_ID : undefined}
        />
      </label>
      {problems ? <ImportProblemList problems={problems} /> : null}
      <DialogButtons>
        <DialogCancel disabled={importing} />
        <Button type="submit" disabled={(hydrated && !text.trim()) || importing}>
          {importing ? RATE_MESSAGES.importing : "Import"}
        </Button>
      </DialogButtons>
    </fetcher.Form>
  );
}

/**
 * Under the textarea: the spec's headline, then which entries failed and why, the first 20
 * with the count (issue 30 A2). Announced when it appears.
 */
export function ImportProblemList({ problems }: { problems: ImportProblems }) {
  return (
    <div id={PROBLEMS_ID} role="alert" className="gt-import-problems">
      <Text as="p" size="2" weight="medium" color="red">
        {RATE_MESSAGES.importFailed}
      </Text>
      <Text as="p" size="2" color="red">
        {RATE_MESSAGES.importFailedCount(problems.count, problems.shown.length)}
      </Text>
      <ul>
        {problems.shown.map((problem, index) => (
          <li key={index}>
            <Text size="2">{problem}</Text>
          </li>
        ))}
      </ul>
    </div>
  );
}
