import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Form, Link } from "@remix-run/react";
import type { ConfirmCommon, ConfirmForm } from "./confirm-dialog";

/** The same question as <ConfirmDialog>, rendered inline by the server (no JavaScript). */
export function ConfirmPanel({
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  cancelTo,
  color = "red",
  form,
}: Omit<ConfirmCommon, "onConfirm" | "pending"> & { form: ConfirmForm; cancelTo: string }) {
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
