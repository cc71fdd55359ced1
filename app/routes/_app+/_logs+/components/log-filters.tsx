import { Button, Flex, Text } from "@radix-ui/themes";
import { Form, useSubmit } from "@remix-run/react";
import { useId, type ChangeEvent } from "react";
import { LOG_SOURCES, LOG_TYPES } from "#api/logs";
import { useHydrated } from "~/components/ui/use-hydrated";
import { LOGS_AUTO_REFRESH_SECONDS, type LogsPageParams } from "./log-params";

/**
 * The filters of System Logs as a GET form (the URL holds them). Native selects and
 * checkboxes, so it works without JavaScript via "Apply"; with JavaScript every change
 * applies at once and replaces the history entry instead of piling them up.
 */
export function LogFilters({ params }: { params: LogsPageParams }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    // Leave "All types" and friends out of the URL rather than sending `type=`.
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (value !== "") query.append(name, String(value));
    submit(query, { method: "get", action: "/logs", replace: true, preventScrollReset: true });
  };
  // The key resets the uncontrolled fields when the URL changes (Back, "Clear filters").
  const key = `${params.type}|${params.source}|${params.showCleared}|${params.auto}`;

  return (
    <Form method="get" action="/logs" onChange={onChange} className="gt-log-filters" aria-label="Filter logs" key={key}>
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
        <label className="gt-check">
          <input type="checkbox" name="showCleared" value="1" defaultChecked={params.showCleared} />
          <Text size="2">Show cleared</Text>
        </label>
        <label className="gt-check">
          <input type="checkbox" name="auto" value="1" defaultChecked={params.auto} />
          <Text size="2">Auto-refresh ({LOGS_AUTO_REFRESH_SECONDS} s)</Text>
        </label>
        {hydrated ? null : (
          <Button type="submit" variant="soft" size="2" className="gt-touch">
            Apply
          </Button>
        )}
      </Flex>
    </Form>
  );
}
