import { ResetIcon } from "~/components/ui/icons";
import { Button, Callout, Flex } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useFetcherOutcome } from "~/components/ui/use-fetcher-outcome";

/**
 * "Deleted …  [Undo]" above a list (CONVENTIONS rule 7: where the spec allows, offer Undo).
 * The offer comes from the page's loader (the server keeps what was deleted for a short
 * while), so it is there after a no-JavaScript delete's redirect as much as after a
 * fetcher's; Undo is a plain POST form (`fields`, e.g. intent=undo-delete and the undo id),
 * through a fetcher once hydrated. The action answers with the usual flash toast.
 */
export function UndoBar({ message, action, fields, redirectTo }: { message: string; action: string; fields: Record<string, string>; redirectTo?: string }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string }>();
  useFetcherOutcome(fetcher);
  const pending = fetcher.state !== "idle";
  return (
    <Callout.Root color="gray" variant="surface" size="1" className="gt-undo-bar" role="status">
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Callout.Text>{message}</Callout.Text>
        <fetcher.Form method="post" action={action} className="gt-inline-form">
          <HiddenFields fields={fields} />
          <NoJsRedirect to={redirectTo} />
          <Button type="submit" size="1" variant="soft" loading={pending}>
            <ResetIcon /> Undo
          </Button>
        </fetcher.Form>
      </Flex>
    </Callout.Root>
  );
}
