import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Box, Callout, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * The frame of the login, setup and logout pages: one centered card that fits a 375 px
 * phone, outside the app shell (no navigation before the operator is known).
 */
export function AuthCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    // The page's one landmark (issue 30 B1: /login had no <main>).
    <Flex asChild align="center" justify="center" px="4" py="6" style={{ minHeight: "100vh" }}>
      <main>
        <Card size="3" style={{ width: "100%", maxWidth: 420 }}>
          <Flex direction="column" gap="4">
            <Box>
              <Text as="p" size="2" color="gray" mb="1">
                Galaxy Toolbox
              </Text>
              <Heading as="h1" size="6">
                {title}
              </Heading>
              {description ? (
                <Text as="p" size="2" color="gray" mt="2">
                  {description}
                </Text>
              ) : null}
            </Box>
            {children}
          </Flex>
        </Card>
      </main>
    </Flex>
  );
}

/** Form-level errors ("Invalid name or password"), announced to screen readers. */
export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return <div id={id} hidden />;
  return (
    <Callout.Root color="red" role="alert" id={id} size="1">
      {errors.map((e) => (
        <Callout.Text key={e}>{e}</Callout.Text>
      ))}
    </Callout.Root>
  );
}

/** A labelled text/password input wired to a conform field, with its inline error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form schema
export function TextInputField<FormSchema extends Record<string, any>>({
  label,
  field,
  type = "text",
  autoComplete,
  autoFocus,
}: {
  label: string;
  field: FieldMetadata<string, FormSchema, string[]>;
  type?: "text" | "password";
  autoComplete?: string;
  autoFocus?: boolean;
}) {
  const { key, ...inputProps } = getInputProps(field, { type });
  return (
    <Flex direction="column" gap="1">
      <Text as="label" size="2" weight="medium" htmlFor={field.id}>
        {label}
      </Text>
      {/* eslint-disable-next-line jsx-a11y/no-autofocus -- passed through; each caller that sets it says why. */}
      <TextField.Root key={key} {...inputProps} size="3" autoComplete={autoComplete} autoFocus={autoFocus} />
      {field.errors?.length ? (
        <Text id={field.errorId} size="2" color="red" role="alert">
          {field.errors.join(". ")}
        </Text>
      ) : null}
    </Flex>
  );
}
