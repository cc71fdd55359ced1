import { Button, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useRef } from "react";
import type { Category } from "#api/accounts";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import { TrashIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";

function CategoryItem({ category, redirectTo }: { category: Category; redirectTo: string }) {
  const fetcher = useFetcher();
  return (
    <Flex asChild align="center" justify="between" gap="2" py="1">
      <li>
        <Text size="2">{category.value}</Text>
        <fetcher.Form method="post" action="/characters">
          <HiddenFields fields={{ intent: "delete-category", id: category._id }} />
          <NoJsRedirect to={redirectTo} />
          <IconButton type="submit" size="1" variant="ghost" color="red" aria-label={`Delete category ${category.value}`} loading={fetcher.state !== "idle"}>
            <TrashIcon />
          </IconButton>
        </fetcher.Form>
      </li>
    </Flex>
  );
}

/** Add Category (spec 2 §2): free-text name; the category list scrolls at 200 px (§9). */
export function CategoryDialog({ open, onClose, closeHref, categories }: { open: boolean; onClose: () => void; closeHref: string; categories: Category[] }) {
  const fetcher = useFetcher();
  const form = useRef<HTMLFormElement>(null);
  const adding = fetcher.state !== "idle";
  useFetcherOutcome(fetcher, { onSuccess: () => form.current?.reset() });
  const here = `/characters?dialog=category`;
  return (
    <DialogFrame open={open} onClose={onClose} closeHref={closeHref} title="Add Category" maxWidth="420px">
      <fetcher.Form method="post" action="/characters" ref={form}>
        <HiddenFields fields={{ intent: "add-category" }} />
        <NoJsRedirect to={here} />
        <Flex gap="2" align="end">
          <label style={{ flex: 1 }}>
            <Text as="div" size="2" weight="bold" mb="1">
              Category name
            </Text>
            <TextField.Root name="value" autoComplete="off" disabled={adding} />
          </label>
          <Button type="submit" loading={adding}>
            Add
          </Button>
        </Flex>
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
