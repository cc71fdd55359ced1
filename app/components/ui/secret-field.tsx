import { Button, Flex, Text, TextField } from "@radix-ui/themes";
import { useState, type ComponentProps } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A secret typed into a form (a recovery code): a password field, so it is not shown to whoever
 * looks at the screen, with a Show/Hide button beside it to check what was typed (issue 30 A7).
 * The button needs JavaScript; without it the field stays a plain password field.
 * The button sits outside the `<label>`, so the field's name stays the label's words.
 */
export function SecretField({ label, ...input }: { label: string } & Omit<ComponentProps<typeof TextField.Root>, "type" | "children">) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState(false);
  return (
    <Flex gap="1" align="end">
      <label className="gt-field">
        <Text size="2">{label}</Text>
        <TextField.Root {...input} type={shown ? "text" : "password"} spellCheck={false} autoCapitalize="off" />
      </label>
      {hydrated ? (
        <Button type="button" variant="soft" color="gray" className="gt-touch" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? "Hide" : "Show"}
          <span className="gt-visually-hidden"> {label.toLowerCase()}</span>
        </Button>
      ) : null}
    </Flex>
  );
}
