import { PlusIcon } from "~/components/ui/icons";
import type { MetaFunction } from "@remix-run/node";
import { UpcomingAction, UpcomingSection } from "~/components/shell/upcoming-section";

export const meta: MetaFunction = () => [{ title: "All Characters · Galaxy Toolbox" }];

/** All Characters (spec 2 "All Characters screen"); header: User and Category add buttons. */
export default function CharactersRoute() {
  return (
    <UpcomingSection
      title="All Characters"
      actions={
        <>
          <UpcomingAction label="User" icon={<PlusIcon />} />
          <UpcomingAction label="Category" icon={<PlusIcon />} />
        </>
      }
      description="Characters grouped by category with their gifts and online status, the stalker controls and the 7-day Summary arrive in a later release."
    />
  );
}
