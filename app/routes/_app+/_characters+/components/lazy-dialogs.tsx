import { type ComponentProps } from "react";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useOpenedOnce } from "~/components/ui/lazy-confirm-dialog";
import { CategoryDialog as CategoryDialogNow } from "./category-dialog";
import { UserDialog as UserDialogNow } from "./user-dialog";

/**
 * The Add User and Add Category dialogs, loaded on first open (CONVENTIONS rule 15, as
 * /exchange-rates does): Radix Dialog and Select are not part of the first load. On the
 * server they render eagerly, so `?dialog=user|category` (the no-JavaScript path) is in the HTML.
 */
const UserDialogLazy = lazyComponent(() => import("./user-dialog").then((m) => m.UserDialog), {
  server: import.meta.env.SSR ? UserDialogNow : undefined,
});
const CategoryDialogLazy = lazyComponent(() => import("./category-dialog").then((m) => m.CategoryDialog), {
  server: import.meta.env.SSR ? CategoryDialogNow : undefined,
});

export function UserDialog(props: ComponentProps<typeof UserDialogNow>) {
  return useOpenedOnce(props.open) ? <UserDialogLazy {...props} /> : null;
}

export function CategoryDialog(props: ComponentProps<typeof CategoryDialogNow>) {
  return useOpenedOnce(props.open) ? <CategoryDialogLazy {...props} /> : null;
}
