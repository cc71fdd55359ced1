/**
 * The piece of the Collections screen that the floating panel also uses. Kept apart from
 * collections-screen.tsx so the shell (which renders the panel on every section) does not
 * load the screen and its zod schemas (bench/first-load.ts).
 */
import type { ComponentProps } from "react";
import { IntentForm as KitIntentForm } from "~/components/ui/intent-form";

export const COLLECTIONS_ACTION = "/collections";

/** The `form` field of the Auto card (Repeat, Interval): its refusal keeps them, not the floating panel's switch (issue 30 A6). */
export const AUTO_FORM = "auto";

/** The kit's IntentForm (app/components/ui/intent-form.tsx) posting to the Collections action. */
export function IntentForm(props: Omit<ComponentProps<typeof KitIntentForm>, "action">) {
  return <KitIntentForm action={COLLECTIONS_ACTION} {...props} />;
}
