import { Button, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useFetcher, useLocation } from "@remix-run/react";
import { useRef, useState } from "react";
import type { Category } from "#api/accounts";
import { TakeOverCheckbox } from "~/components/session/take-over-panel";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * Create user (spec 2 §2, §4 "Create-user dialog: idle, creating (inputs disabled), then closed
 * and reset on success"): recovery code and category; no client check (§5), the server decides.
 */
export function UserDialog({ open, onClose, closeHref, categories }: { open: boolean; onClose: () => void; closeHref: string; categories: Category[] }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const location = useLocation();
  const form = useRef<HTMLFormElement>(null);
  // A refused code comes back with the category chosen and the reason under the code's field,
  // which is empty: the code is never sent back (issue 30 A6). Without JavaScript the form posts
  // to the dialog's own URL, so the refusal renders the dialog open.
  const kept = useKeptForm("create-user", {}, fetcher.data);
  const [type, setType] = useState(() => kept.value("type", categories[0]?.value ?? ""));
  const creating = fetcher.state !== "idle";
  useFetcherOutcome(fetcher, {
    onSuccess: () => {
      form.current?.reset();
      setType(categories[0]?.value ?? "");
      onClose();
    },
  });
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      closeHref={closeHref}
      title="Add User"
      description="Creates the character from a recovery code."
      maxWidth="420px"
    >
      <fetcher.Form method="post" action={hydrated ? "/characters" : `${location.pathname}${location.search}`} ref={form}>
        <HiddenFields fields={{ intent: "create-user" }} />
        <NoJsRedirect to={closeHref} />
        <Flex direction="column" gap="3">
          <label>
            <Text as="div" size="2" weight="bold" mb="1">
              Recovery code
            </Text>
            <TextField.Root name="rc" autoComplete="off" disabled={creating} readOnly={creating} {...kept.invalid("rc", "gt-user-rc-error")} />
          </label>
          <FieldError id="gt-user-rc-error" errors={kept.errors("rc")} />
          {kept.formErrors.length ? <FieldError errors={kept.formErrors} /> : null}
          <label>
            <Text as="div" size="2" weight="bold" mb="1">
              Category
            </Text>
            {hydrated ? (
              <>
                <input type="hidden" name="type" value={type} />
                <Select.Root value={type} onValueChange={setType} disabled={creating}>
                  <Select.Trigger aria-label="Category" style={{ width: "100%" }} />
                  <Select.Content>
                    {categories.map((c) => (
                      <Select.Item key={c._id} value={c.value}>
                        {c.value}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select.Root>
              </>
            ) : (
              <select name="type" aria-label="Category" defaultValue={type}>
                {categories.map((c) => (
                  <option key={c._id} value={c.value}>
                    {c.value}
                  </option>
                ))}
              </select>
            )}
          </label>
          <TakeOverCheckbox disabled={creating} />
        </Flex>
        <DialogButtons>
          <DialogCancel disabled={creating} />
          <Button type="submit" disabled={creating}>
            {creating ? "Creating User..." : "Create User"}
          </Button>
        </DialogButtons>
      </fetcher.Form>
    </DialogFrame>
  );
}
