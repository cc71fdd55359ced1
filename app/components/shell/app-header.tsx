import { ClockIcon, ExitIcon, GearIcon, ReaderIcon } from "~/components/ui/icons";
import { Badge, Button, Flex, Text } from "@radix-ui/themes";
import { READ_ONLY_HINT, ROLE_LABELS, type Role } from "~/utils/roles";
import { Form, Link, NavLink, useNavigation, useRevalidator } from "@remix-run/react";
import { JobsBadge, type JobsState } from "./jobs-badge";
import { SectionMenu } from "./section-menu";
import { ThemeToggle } from "./theme-toggle";
import { WaitingBadge } from "./waiting-badge";
import { useLiveEvent } from "~/components/live/live";

/**
 * The app header: brand, job engine badge, System Logs, the audit trail, settings, dark
 * mode toggle, the operator (with their role when it is not "operator", and "Read-only"
 * when they may change nothing) and logout; below
 * it the section menu. Labels stay in the accessibility tree on phones, where only the
 * icons show; the Audit link and the role badge stay there too (issue 30 A7).
 */
export function AppHeader({
  operatorName,
  role = "operator",
  canWrite = true,
  jobs,
  waiting = [],
  waitingText = null,
}: {
  operatorName: string;
  role?: Role;
  /** False for viewers (and read-only tokens): the header says the screens are read-only. */
  canWrite?: boolean;
  jobs: JobsState;
  waiting?: string[];
  /** Why they wait ("all workers are full (N of M)"), issue 29. */
  waitingText?: string | null;
}) {
  const navigation = useNavigation();
  // Issue 29: a worker lost (or back) re-reads the header's counts on every page, live. Only on
  // that event: useLive would also catch up when the stream comes up, i.e. reload every page's
  // loaders once after each page load (and it cut into Exchange Rates' spec 1 §4 retry flow).
  const revalidator = useRevalidator();
  useLiveEvent(["workers"], () => {
    if (revalidator.state === "idle") revalidator.revalidate();
  });
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/logout";
  return (
    <header className="gt-app-header">
      <Flex align="center" gap="2" className="gt-topbar">
        <Link to="/" className="gt-brand">
          <span className="gt-brand-mark" aria-hidden>
            ✦
          </span>
          {/* On phones only the mark shows (issue 30 A7: room for the Audit link and the role). */}
          <span className="gt-label">Galaxy Toolbox</span>
        </Link>
        <JobsBadge jobs={jobs} />
        <WaitingBadge waiting={waiting} text={waitingText} />
        <Flex align="center" gap="1" ml="auto" className="gt-tools">
          <NavLink to="/logs" className="gt-tool-link">
            <ReaderIcon aria-hidden />
            <span className="gt-label">System Logs</span>
          </NavLink>
          <NavLink to="/audit" className="gt-tool-link">
            <ClockIcon aria-hidden />
            <span className="gt-label">Audit</span>
          </NavLink>
          <NavLink to="/settings" className="gt-tool-link">
            <GearIcon aria-hidden />
            <span className="gt-label">Settings</span>
          </NavLink>
          <ThemeToggle />
          <Text size="2" color="gray" className="gt-operator" title={`Signed in as ${operatorName} (${ROLE_LABELS[role]})`}>
            {operatorName}
          </Text>
          {role !== "operator" ? (
            // High contrast: the soft badge's text was 4.28:1 in the light theme (issue 30 B2).
            <Badge color={role === "admin" ? "amber" : "gray"} variant="soft" highContrast className="gt-role-badge">
              {ROLE_LABELS[role]}
            </Badge>
          ) : null}
          {!canWrite ? (
            <Badge color="gray" variant="outline" highContrast className="gt-readonly-badge" title={READ_ONLY_HINT(role)}>
              Read-only
              <span className="gt-visually-hidden">: {READ_ONLY_HINT(role)}</span>
            </Badge>
          ) : null}
          <Form method="post" action="/logout" className="gt-inline-form">
            <Button type="submit" variant="ghost" color="gray" size="2" loading={loggingOut} className="gt-tool-link gt-touch">
              <ExitIcon aria-hidden />
              <span className="gt-label">Log out</span>
            </Button>
          </Form>
        </Flex>
      </Flex>
      <SectionMenu />
    </header>
  );
}
