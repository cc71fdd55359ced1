import { Text } from "@radix-ui/themes";

/**
 * A field's error text under it, announced when it appears. `id` is the field's
 * `errorId` (conform), which the field names in `aria-describedby`. Repeated texts show once.
 */
export function FieldError({ errors, id }: { errors?: readonly string[] | null; id?: string }) {
  if (!errors?.length) return null;
  return (
    <Text as="p" size="1" color="red" id={id} role="alert" className="gt-field-error">
      {[...new Set(errors)].join(" ")}
    </Text>
  );
}
