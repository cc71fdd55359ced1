import { Badge, Button, Callout, Code, Flex, Table, Text, TextField } from "@radix-ui/themes";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useLive } from "~/components/live/live";
import { parseAuditQuery } from "#api/audit";
import { EmptyState } from "~/components/ui/empty-state";
import { ClockIcon, MixerHorizontalIcon } from "~/components/ui/icons";
import { RelativeTime } from "~/components/ui/relative-time";
import { SectionHeader } from "~/components/ui/section-header";
import { auditOperators, listAudit, toAuditDto } from "~/models/audit.server";
import { requireOperator } from "~/http/auth.server";
import { getEnv } from "~/utils/env.server";
import { auditFilters, auditPageParams, auditPageUrl } from "./components/audit-params";
import { RetryPage } from "~/components/ui/retry-page";

/**
 * The audit trail (issue 21; docs/decisions/0016): who changed what and when, newest first.
 * Filters (operator, action, target text, from, to) and the page's position (a keyset cursor,
 * docs/decisions/0025) live in the URL; the filter form is a plain GET form and the pages are
 * links, so everything works without JavaScript. A page reads at most 51 rows at any depth.
 * Every role may read it.
 */
export const meta: MetaFunction = () => [{ title: "Audit Trail · Galaxy Toolbox" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const search = new URL(request.url).searchParams;
  const params = auditPageParams(search);
  const parsed = parseAuditQuery(search);
  const query = "error" in parsed ? { page: params.page, limit: 50 } : parsed.query;
  const [list, operators, any] = await Promise.all([listAudit(query), auditOperators(), listAudit({ limit: 1 })]);
  return data({
    params,
    problem: "error" in parsed ? parsed.error : null,
    entries: list.entries.map(toAuditDto),
    page: list.page,
    next: list.next,
    prev: list.prev,
    operators,
    empty: any.entries.length === 0,
    retentionDays: getEnv().AUDIT_RETENTION_DAYS,
  });
}

export default function AuditRoute() {
  const { params, problem, entries, page, next, prev, operators, empty, retentionDays } = useLoaderData<typeof loader>();
  // Issue 30 A1: new entries show as they are recorded, whoever made them.
  useLive(["audit"]);
  const filtered = !!(params.operator || params.action || params.target || params.from || params.to);
  const paged = page > 1 || !!params.before || !!params.after;
  const filters = auditFilters(params);
  // The key resets the uncontrolled fields when the URL changes (Back, "Clear filters").
  const key = `${params.operator}|${params.action}|${params.target}|${params.from}|${params.to}`;

  return (
    <>
      <SectionHeader title="Audit Trail" />
      <Text as="p" size="2" color="gray" mb="3">
        Every change made in the app, through the API or on the command line, with who made it. Kept {retentionDays} days. Secrets are never recorded.
      </Text>

      <Form method="get" action="/audit" aria-label="Filter the audit trail" key={key} className="gt-audit-filters">
        {/* A page size asked for in the URL is kept by a new filter (a new filter starts at the newest). */}
        {params.limit ? <input type="hidden" name="limit" value={params.limit} /> : null}
        <Flex gap="3" align="end" wrap="wrap" mb="4">
          <label className="gt-field">
            <Text size="1" weight="medium" color="gray">
              Operator
            </Text>
            <select name="operator" defaultValue={params.operator ?? ""} className="gt-select">
              <option value="">Everyone</option>
              {operators.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
          <label className="gt-field">
            <Text size="1" weight="medium" color="gray">
              Action contains
            </Text>
            <TextField.Root name="action" defaultValue={params.action ?? ""} placeholder="e.g. /api/rates, operator." />
          </label>
          <label className="gt-field">
            <Text size="1" weight="medium" color="gray">
              Target contains
            </Text>
            <TextField.Root name="target" defaultValue={params.target ?? ""} placeholder="e.g. a nick, an id, Gold Ring" />
          </label>
          <label className="gt-field">
            <Text size="1" weight="medium" color="gray">
              From
            </Text>
            <TextField.Root type="date" name="from" defaultValue={params.from ?? ""} />
          </label>
          <label className="gt-field">
            <Text size="1" weight="medium" color="gray">
              To
            </Text>
            <TextField.Root type="date" name="to" defaultValue={params.to ?? ""} />
          </label>
          <Button type="submit" variant="soft" className="gt-touch">
            <MixerHorizontalIcon aria-hidden /> Apply
          </Button>
          {filtered ? (
            <Button asChild variant="ghost" color="gray" className="gt-touch">
              <Link to="/audit">Clear filters</Link>
            </Button>
          ) : null}
        </Flex>
      </Form>

      {problem ? (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>{problem}</Callout.Text>
        </Callout.Root>
      ) : null}

      {entries.length === 0 ? (
        empty ? (
          <EmptyState
            icon={<ClockIcon width="28" height="28" />}
            title="Nothing recorded yet"
            description="Changes made by operators, API tokens and the command line appear here as they happen."
          />
        ) : (
          <EmptyState
            icon={<MixerHorizontalIcon width="28" height="28" />}
            title={paged ? "No more entries" : "No entries match these filters"}
            description={paged ? "This page is past the last entry." : "Try another operator, action, target or period, or clear the filters."}
            action={
              <Button asChild variant="soft">
                <Link to="/audit">Clear filters</Link>
              </Button>
            }
          />
        )
      ) : (
        <>
          <Table.Root variant="surface" size="1" aria-label="Audit trail entries" className="gt-audit-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>When</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Who</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Action</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Target</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Details</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {entries.map((e) => (
                <Table.Row key={e._id}>
                  <Table.Cell>
                    <RelativeTime value={e.at} />
                  </Table.Cell>
                  <Table.Cell>
                    <Text weight="medium">{e.operator}</Text>
                    {e.token ? (
                      <Badge color="gray" variant="soft" ml="1" title="Made with this API token">
                        token {e.token}
                      </Badge>
                    ) : null}
                  </Table.Cell>
                  <Table.Cell>
                    <Code variant="ghost" style={{ overflowWrap: "anywhere" }}>
                      {e.action}
                    </Code>
                  </Table.Cell>
                  <Table.Cell style={{ overflowWrap: "anywhere" }}>{e.target}</Table.Cell>
                  <Table.Cell>
                    {e.details ? (
                      <details>
                        <summary>{summaryLine(e.details)}</summary>
                        <pre className="gt-audit-details">{JSON.stringify(e.details, null, 2)}</pre>
                      </details>
                    ) : null}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <nav aria-label="Audit trail pages">
            <Flex justify="between" align="center" mt="3" gap="3" wrap="wrap">
              {prev ? (
                <Button asChild variant="soft" className="gt-touch">
                  <Link to={auditPageUrl({ ...filters, after: prev })} rel="prev">
                    Newer
                  </Link>
                </Button>
              ) : (
                <span />
              )}
              <Text size="1" color="gray">
                Showing {entries.length === 1 ? "1 entry" : `${entries.length} entries`}
                {prev ? "" : ", the latest first"}: <RelativeTime value={entries[0]!.at} /> to <RelativeTime value={entries.at(-1)!.at} />
              </Text>
              {next ? (
                <Button asChild variant="soft" className="gt-touch">
                  <Link to={auditPageUrl({ ...filters, before: next })} rel="next">
                    Older
                  </Link>
                </Button>
              ) : (
                <span />
              )}
            </Flex>
          </nav>
        </>
      )}
    </>
  );
}

/** One line of the details: the fields' names and short values. */
function summaryLine(details: Record<string, unknown>): string {
  const parts = Object.entries(details)
    .filter(([k]) => k !== "status")
    .slice(0, 4)
    .map(([k, v]) => `${k}: ${typeof v === "object" && v !== null ? "…" : String(v).slice(0, 40)}`);
  return parts.length ? parts.join(", ") : "details";
}

/** The "failed" state: what went wrong in plain words, and Retry. */
export function ErrorBoundary() {
  return (
    <RetryPage section="Audit Trail" title="Could not load the audit trail" description="The database did not answer. This is usually brief; try again." />
  );
}
