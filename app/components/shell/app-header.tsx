import { ExitIcon, GearIcon, ReaderIcon } from "~/components/ui/icons";
import { Button, Flex, Text } from "@radix-ui/themes";
import { Form, Link, NavLink, useNavigation } from "@remix-run/react";
import { JobsBadge, type JobsState } from "./jobs-badge";
import { SectionMenu } from "./section-menu";
import { ThemeToggle } from "./theme-toggle";
import { WaitingBadge } from "./waiting-badge";

/**
 * The app header: brand, job engine badge, System Logs, settings, dark mode toggle, the
 * operator and logout; below it the section menu. Labels stay in the accessibility tree
 * on phones, where only the icons show.
 */
export function AppHeader({ operatorName, jobs, waiting = [] }: { operatorName: string; jobs: JobsState; waiting?: string[] }) {
  const navigation = useNavigation();
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/logout";
  return (
    <header className="gt-app-header">
      <Flex align="center" gap="2" className="gt-topbar">
        <Link to="/" className="gt-brand">
          <span className="gt-brand-mark" aria-hidden>
            ✦
          </span>
          <span>Galaxy Toolbox</span>
        </Link>
        <JobsBadge jobs={jobs} />
        <WaitingBadge waiting={waiting} />
        <Flex align="center" gap="1" ml="auto" className="gt-tools">
          <NavLink to="/logs" className="gt-tool-link">
            <ReaderIcon aria-hidden />
            <span className="gt-label">System Logs</span>
          </NavLink>
          <NavLink to="/settings" className="gt-tool-link">
            <GearIcon aria-hidden />
            <span className="gt-label">Settings</span>
          </NavLink>
          <ThemeToggle />
          <Text size="2" color="gray" className="gt-operator" title={`Signed in as ${operatorName}`}>
            {operatorName}
          </Text>
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
