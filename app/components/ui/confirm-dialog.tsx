import { AlertDialog, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * "Destructive actions ask first" (CONVENTIONS rule 7): an alert dialog that names what
 * goes and says it cannot be undone. Confirming either calls `onConfirm` or, with
 * `form`, posts that form (a normal navigation: the action redirects with a flash toast).
 *
 * Radix renders dialogs in a portal after hydration, so pages that must also work
 * without JavaScript link the trigger to a `?confirm=…` URL and render <ConfirmPanel>
 * there: the same question, inline, from the server.
 */
export type ConfirmForm = { action?: string; fields: Record<string, string> };

type Common = {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  color?: "red" | "orange" | "blue";
  pending?: boolean;
  form?: ConfirmForm;
  onConfirm?: () => void;
};

export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  color = "red",
  pending = false,
  form,
  onConfirm,
}: Common & { open?: boolean; onOpenChange?: (open: boolean) => void; trigger?: ReactNode }) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialog.Trigger>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Content maxWidth="450px">
        <AlertDialog.Title>{title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{description}</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray" type="button">
              {cancelLabel}
            </Button>
          </AlertDialog.Cancel>
          {form ? (
            <Form method="post" action={form.action} onSubmit={() => onOpenChange?.(false)}>
              {Object.entries(form.fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <Button type="submit" color={color} loading={pending}>
                {confirmLabel}
              </Button>
            </Form>
          ) : (
            <AlertDialog.Action>
              <Button type="button" color={color} loading={pending} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          )}
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

/** The same question as <ConfirmDialog>, rendered inline by the server (no JavaScript). */
export function ConfirmPanel({
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  cancelTo,
  color = "red",
  form,
}: Omit<Common, "onConfirm" | "pending"> & { form: ConfirmForm; cancelTo: string }) {
  return (
    <Card role="alertdialog" aria-labelledby="gt-confirm-title" aria-describedby="gt-confirm-description" mb="4">
      <Flex direction="column" gap="2">
        <Heading as="h2" size="4" id="gt-confirm-title">
          {title}
        </Heading>
        <Text as="p" size="2" id="gt-confirm-description">
          {description}
        </Text>
        <Flex gap="3" mt="2" justify="end" wrap="wrap">
          <Button asChild variant="soft" color="gray">
            <Link to={cancelTo}>{cancelLabel}</Link>
          </Button>
          <Form method="post" action={form.action}>
            {Object.entries(form.fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <Button type="submit" color={color}>
              {confirmLabel}
            </Button>
          </Form>
        </Flex>
      </Flex>
    </Card>
  );
}
