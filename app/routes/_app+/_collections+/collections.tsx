import { Link2Icon } from "~/components/ui/icons";
import type { MetaFunction } from "@remix-run/node";
import { UpcomingAction, UpcomingSection } from "~/components/shell/upcoming-section";

export const meta: MetaFunction = () => [{ title: "Collections · Galaxy Toolbox" }];

/** Collections (spec 2 "Collections screen"); header: a connect/disconnect icon. */
export default function CollectionsRoute() {
  return (
    <UpcomingSection
      title="Collections"
      actions={<UpcomingAction label="Connect" icon={<Link2Icon />} iconOnly />}
      description="Recovery-code login, saved accounts, collection runs, gift sending and the Auto mode arrive in a later release."
    />
  );
}
