import { Button, Flex, Text } from "@radix-ui/themes";
import { Form, useSubmit } from "@remix-run/react";
import { useId, type ChangeEvent } from "react";
import { LOG_SOURCES, LOG_TYPES } from "#api/logs";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useLiveStatus } from "~/components/live/live";
import { LOGS_AUTO_REFRESH_SECONDS, type LogsPageParams } from "./log-params";

/**
 * The filters of System Logs as a GET form (the URL holds them). Native selects, date fields
 * and checkboxes, so it works without JavaScript via "Apply"; with JavaScript every change
 * applies at once and replaces the history entry instead of piling them up. The search words
 * and the account ride along as hidden fields (their own box is ListSearch).
 *
 * Issue 30 A5: From/To are UTC days (both included); "Go to date" opens the page that starts
 * at the end of a day, so any entry is a few steps away without JavaScript. Auto-refresh is
 * offered only without JavaScript: with it the list follows live events.
 */
export function LogFilters({ params }: { params: LogsPageParams }) {
  const hydrated = useHydrated();
  const status = useLiveStatus();
  const submit = useSubmit();
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    // Leave "All types" and friends out of the URL rather than sending `type=`.
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (value !== "") query.append(name, String(value));
    submit(query, { method: "get", action: "/logs", replace: true, preventScrollReset: true });
  };
  // The key resets the uncontrolled fields when the URL changes (Back, "Clear filters").
  const key = `${params.type}|${params.source}|${params.showCleared}|${params.auto}|${params.from}|${params.to}|${params.q}|${params.account}`;

  return (
    <>
      <Form method="get" action="/logs" onChange={onChange} className="gt-log-filters" aria-label="Filter logs" key={key}>
        {params.q ? <input type="hidden" name="q" value={params.q} /> : null}
        {params.account ? <input type="hidden" name="account" value={params.account} /> : null}
        <Flex gap="3" align="end" wrap="wrap">
          <label className="gt-field" htmlFor={`${id}-type`}>
            <Text size="1" weight="medium" color="gray">
              Type
            </Text>
            <select id={`${id}-type`} name="type" defaultValue={params.type ?? ""} className="gt-select">
              <option value="">All types</option>
              {LOG_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label className="gt-field" htmlFor={`${id}-source`}>
            <Text size="1" weight="medium" color="gray">
              Source
            </Text>
            <select id={`${id}-source`} name="source" defaultValue={params.source ?? ""} className="gt-select">
              <option value="">All sources</option>
              {LOG_SOURCES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="gt-field" htmlFor={`${id}-from`}>
            <Text size="1" weight="medium" color="gray">
              From (UTC)
            </Text>
            <input id={`${id}-from`} type="date" name="from" defaultValue={params.from ?? ""} className="gt-select gt-touch" />
          </label>
          <label className="gt-field" htmlFor={`${id}-to`}>
            <Text size="1" weight="medium" color="gray">
              To (UTC)
            </Text>
            <input id={`${id}-to`} type="date" name="to" defaultValue={params.to ?? ""} className="gt-select gt-touch" />
          </label>
          <label className="gt-check">
            <input type="checkbox" name="showCleared" value="1" defaultChecked={params.showCleared} />
            <Text size="2">Show cleared</Text>
          </label>
          {hydrated ? (
            <Text size="1" color="gray" className="gt-log-live" data-testid="logs-live">
              {status === "up" ? "New entries appear as they happen" : `Checking every ${LOGS_AUTO_REFRESH_SECONDS} s`}
            </Text>
          ) : (
            <label className="gt-check">
              <input type="checkbox" name="auto" value="1" defaultChecked={params.auto} />
              <Text size="2">Auto-refresh ({LOGS_AUTO_REFRESH_SECONDS} s)</Text>
            </label>
          )}
          {hydrated ? null : (
            <Button type="submit" variant="soft" size="2" className="gt-touch">
              Apply
            </Button>
          )}
        </Flex>
      </Form>
      <JumpToDate params={params} />
    </>
  );
}

/**
 * "Go to date": a GET form of its own (the filters stay as hidden fields); the loader answers
 * `jump=<day>` with a redirect to the page of entries up to the end of that UTC day.
 */
function JumpToDate({ params }: { params: LogsPageParams }) {
  const id = useId();
  const kept: [string, string | undefined][] = [
    ["type", params.type],
    ["source", params.source],
    ["account", params.account],
    ["q", params.q || undefined],
    ["from", params.from],
    ["to", params.to],
    ["showCleared", params.showCleared ? "1" : undefined],
    ["auto", params.auto ? "1" : undefined],
  ];
  return (
    <Form method="get" action="/logs" className="gt-log-jump" aria-label="Go to date">
      {kept.map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <Flex gap="2" align="end" wrap="wrap">
        <label className="gt-field" htmlFor={`${id}-jump`}>
          <Text size="1" weight="medium" color="gray">
            Go to date (UTC)
          </Text>
          <input id={`${id}-jump`} type="date" name="jump" required className="gt-select gt-touch" />
        </label>
        <Button type="submit" variant="soft" size="2" className="gt-touch">
          Go
        </Button>
      </Flex>
    </Form>
  );
}
