import { Badge, Button, Callout, Card, Code, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { Form, useNavigation } from "@remix-run/react";
import { formatBytes, PURPOSE_NAMES, type WorkerItem } from "#api/operations";
import type { SessionPurpose } from "#api/sessions";
import { RelativeTime } from "~/components/ui/relative-time";
import { useCanWrite } from "~/components/ui/write-only";

/**
 * The Workers panel of the Sessions page (issue 31 item 1): each worker process (host, pid),
 * its heartbeat's age, the sessions it holds per purpose, its memory (RSS) and version, and
 * Drain / Undrain for operators and admins. A drained worker hands its sessions to the others
 * as on SIGTERM (no platform kick) and takes none until undrained or restarted.
 */
export function WorkersPanel({ workers, action }: { workers: WorkerItem[] | null; action: string }) {
  const canWrite = useCanWrite();
  const navigation = useNavigation();
  const pressing = navigation.state === "submitting" ? String(navigation.formData?.get("worker") ?? "") : null;
  return (
    <Card mb="4" asChild>
      <section aria-labelledby="gt-workers-title">
        <Heading as="h2" size="3" mb="2" id="gt-workers-title">
          Workers
        </Heading>
        {workers === null ? (
          <Callout.Root color="red" role="alert" size="1">
            <Callout.Text>Job engine offline: Redis is not reachable, so no worker can be seen.</Callout.Text>
          </Callout.Root>
        ) : workers.length === 0 ? (
          <Text as="p" size="2" color="amber">
            No worker is running: sessions wait until one starts (npm run worker).
          </Text>
        ) : (
          <Table.Root size="1" aria-label="Workers">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Worker</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Host · process</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Heartbeat</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Sessions</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Memory</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Version</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>State</Table.ColumnHeaderCell>
                {canWrite ? <Table.ColumnHeaderCell>Drain</Table.ColumnHeaderCell> : null}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {workers.map((w) => {
                const held = Object.entries(w.sessions).filter(([, n]) => n > 0);
                return (
                  <Table.Row key={w.id} data-worker={w.id}>
                    <Table.Cell>
                      <Code variant="ghost" size="1" style={{ overflowWrap: "anywhere" }}>
                        {w.id}
                      </Code>
                    </Table.Cell>
                    <Table.Cell>
                      {w.host || "?"} · pid {w.pid || "?"}
                      <Text as="div" size="1" color="gray">
                        {w.mode === "in-process" ? "inside the web process" : "standalone"}
                      </Text>
                    </Table.Cell>
                    <Table.Cell>
                      <span title={w.beat_at}>{w.beat_age_seconds.toFixed(1)} s ago</span>
                    </Table.Cell>
                    <Table.Cell>
                      {held.length
                        ? held.map(([p, n]) => (
                            <Text as="div" size="1" key={p}>
                              {PURPOSE_NAMES[p as SessionPurpose] ?? p}: {n}
                              {w.capacity[p] ? ` of ${w.capacity[p]}` : ""}
                            </Text>
                          ))
                        : "none"}
                    </Table.Cell>
                    <Table.Cell>{formatBytes(w.rss_bytes)}</Table.Cell>
                    <Table.Cell>{w.version ?? "—"}</Table.Cell>
                    <Table.Cell>
                      {w.state === "lost" ? (
                        <Badge color="red" variant="soft">
                          Lost{w.lost_at ? " " : ""}
                          {w.lost_at ? <RelativeTime value={w.lost_at} /> : null}
                        </Badge>
                      ) : w.drained_at ? (
                        <Badge color="amber" variant="soft">
                          Drained
                        </Badge>
                      ) : (
                        <Badge color="green" variant="soft">
                          Alive
                        </Badge>
                      )}
                    </Table.Cell>
                    {canWrite ? (
                      <Table.Cell>
                        {w.state === "alive" ? (
                          <Form method="post" action={action}>
                            <input type="hidden" name="worker" value={w.id} />
                            <Flex gap="2">
                              <Button
                                type="submit"
                                name="intent"
                                value={w.drained_at ? "undrain" : "drain"}
                                size="1"
                                variant="soft"
                                color={w.drained_at ? undefined : "amber"}
                                loading={pressing === w.id}
                                aria-label={`${w.drained_at ? "Undrain" : "Drain"} worker ${w.id}`}
                                title={
                                  w.drained_at
                                    ? "Let this worker take sessions again"
                                    : "Hand this worker's sessions to the other workers (each logs out cleanly first), then take no new ones until undrained or restarted"
                                }
                              >
                                {w.drained_at ? "Undrain" : "Drain"}
                              </Button>
                            </Flex>
                          </Form>
                        ) : null}
                      </Table.Cell>
                    ) : null}
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        )}
      </section>
    </Card>
  );
}
