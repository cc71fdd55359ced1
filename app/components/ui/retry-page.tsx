import { Button } from "@radix-ui/themes";
import { Link, useLocation } from "@remix-run/react";
import { ExclamationTriangleIcon, ReloadIcon } from "~/components/ui/icons";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionHeader } from "~/components/ui/section-header";

/** A section's "failed" state (its ErrorBoundary): what went wrong in plain words, and Retry. */
export function RetryPage({ section, title, description }: { section: string; title: string; description: string }) {
  const location = useLocation();
  return (
    <>
      <SectionHeader title={section} />
      <EmptyState
        tone="error"
        icon={<ExclamationTriangleIcon width="28" height="28" />}
        title={title}
        description={description}
        action={
          <Button asChild>
            <Link to={location.pathname + location.search} reloadDocument>
              <ReloadIcon aria-hidden /> Retry
            </Link>
          </Button>
        }
      />
    </>
  );
}
