import { Button, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { Link, useFetcher } from "@remix-run/react";
import { useRef, useState } from "react";
import type { Category } from "#api/accounts";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { FieldError } from "~/components/ui/field-error";
import { useKeptForm } from "~/components/ui/kept-form";
import { TrashIcon } from "~/components/ui/icons";
import { LazyConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useHydrated } from "~/components/ui/use-hydrated";
import { CONFIRM_CATEGORY_PARAM, DELETE_TEXTS } from "./characters-view";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";

/**
 * One category with its delete (issue 19 item 9): it asks first (an alert dialog; without
 * JavaScript a link to `?confirmCategory=<id>`, which the screen answers with an inline
 * question), and the delete can be undone from the Undo bar.
 */
function CategoryItem({ category, redirectTo }: { category: Category; redirectTo: string }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const label = `Delete category ${category.value}`;
  return (
    <Flex asChild align="center" justify="between" gap="2" py="1">
      <li>
        <Text size="2">{category.value}</Text>
        {hydrated ? (
          <>
            <IconButton
              type="button"
              size="1"
              variant="ghost"
              color="red"
              aria-label={label}
              title={label}
              onClick={() => setOpen(true)}
              loading={fetcher.state !== "idle"}
            >
              <TrashIcon />
            </IconButton>
            <LazyConfirmDialog
              open={open}
              onOpenChange={setOpen}
              title={DELETE_TEXTS.categoryTitle}
              description={DELETE_TEXTS.category(category.value)}
              confirmLabel="Delete"
              onConfirm={() => fetcher.submit({ intent: "delete-category", id: category._id }, { method: "post", action: "/characters" })}
            />
          </>
        ) : (
          <IconButton asChild size="1" variant="ghost" color="red">
            <Link to={`${redirectTo}&${CONFIRM_CATEGORY_PARAM}=${encodeURIComponent(category._id)}`} aria-label={label} title={label} preventScrollReset>
              <TrashIcon />
            </Link>
          </IconButton>
        )}
      </li>
    </Flex>
  );
}

/** Add Category (spec 2 §2): free-text name; the category list scrolls at 200 px (§9). */
export function CategoryDialog({ open, onClose, closeHref, categories }: { open: boolean; onClose: () => void; closeHref: string; categories: Category[] }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const adding = fetcher.state !== "idle";
  useFetcherOutcome(fetcher, { onSuccess: () => form.current?.reset() });
  const here = `/characters?dialog=category`;
  // A refused name comes back as typed, the reason under it (issue 30 A6). Without JavaScript
  // the form posts to the dialog's own URL, so the refusal renders the dialog open.
  const kept = useKeptForm("add-category", {}, fetcher.data);
  return (
    <DialogFrame open={open} onClose={onClose} closeHref={closeHref} title="Add Category" maxWidth="420px">
      <fetcher.Form method="post" action={hydrated ? "/characters" : here} ref={form}>
        <HiddenFields fields={{ intent: "add-category" }} />
        <NoJsRedirect to={here} />
        <Flex gap="2" align="end">
          <label style={{ flex: 1 }}>
            <Text as="div" size="2" weight="bold" mb="1">
              Category name
            </Text>
            <TextField.Root
              name="value"
              autoComplete="off"
              disabled={adding}
              defaultValue={kept.value("value", "")}
              {...kept.invalid("value", "gt-category-value-error")}
            />
          </label>
          <Button type="submit" loading={adding}>
            Add
          </Button>
        </Flex>
        <FieldError id="gt-category-value-error" errors={kept.errors("value") ?? (kept.formErrors.length ? kept.formErrors : undefined)} />
      </fetcher.Form>
      <ul className="gt-category-list" aria-label="Categories" style={{ marginTop: 12 }}>
        {categories.map((c) => (
          <CategoryItem key={c._id} category={c} redirectTo={here} />
        ))}
      </ul>
      <DialogButtons>
        <DialogCancel>Close</DialogCancel>
      </DialogButtons>
    </DialogFrame>
  );
}
