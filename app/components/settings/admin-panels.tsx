import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Badge, Box, Button, Card, Code, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { FormErrors, TextInputField } from "~/components/auth/auth-form";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { DownloadIcon } from "~/components/ui/icons";
import { checkWith, lazyValidation } from "~/components/ui/lazy-validation";
import { LazyConfirmDialog as ConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { RelativeTime } from "~/components/ui/relative-time";
import { useHydrated } from "~/components/ui/use-hydrated";
import { ROLE_LABELS, ROLES, type Role } from "~/utils/roles";

/**
 * The admins' part of /settings (docs/decisions/0016, 0017): the operators — create, change
 * a role, reset a password, delete — and the backups. Every form is a plain POST that works
 * without JavaScript; a deletion asks first (a dialog, or the server-rendered panel).
 */
const useAdminValidation = lazyValidation(() => import("~/components/settings/forms"));

type OperatorItem = { id: string; name: string; role: Role; createdAt: string };
type Constraints = Record<string, { required?: boolean; minLength?: number; maxLength?: number; pattern?: string }>;

export function OperatorsPanel({
  me,
  operators,
  confirmDelete,
  constraints,
  lastResult,
}: {
  me: string;
  operators: OperatorItem[];
  confirmDelete: { id: string; name: string } | null;
  constraints: { createOperator: Constraints; resetPassword: Constraints };
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const hydrated = useHydrated();
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const description = (name: string) => `${name} can no longer log in; their sessions and API tokens end at once. This cannot be undone.`;
  return (
    <Card size="2" asChild>
      <section aria-labelledby="operators-heading">
        <Flex direction="column" gap="4">
          <Box>
            <Heading as="h2" size="4" id="operators-heading">
              Operators
            </Heading>
            <Text as="p" size="2" color="gray" mt="1">
              Admins manage operators and backups. Operators read and change the team&apos;s data. Viewers read everything and change nothing.
            </Text>
          </Box>

          {confirmDelete ? (
            <ConfirmPanel
              title={`Delete operator "${confirmDelete.name}"?`}
              description={description(confirmDelete.name)}
              confirmLabel="Delete operator"
              cancelTo="/settings"
              form={{ action: "/settings", fields: { intent: "delete-operator", operatorId: confirmDelete.id } }}
            />
          ) : null}

          <ul aria-label="Operators" style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {operators.map((o) => (
              <li key={o.id} aria-label={o.name}>
                <Flex align="center" justify="between" gap="3" wrap="wrap" py="3" style={{ borderTop: "1px solid var(--gray-a5)" }}>
                  <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                    <Text weight="bold" style={{ overflowWrap: "anywhere" }}>
                      {o.name}{" "}
                      <Badge color={o.role === "admin" ? "amber" : "gray"} variant="soft">
                        {ROLE_LABELS[o.role]}
                      </Badge>
                      {o.id === me ? (
                        <Text size="1" color="gray">
                          {" "}
                          (you)
                        </Text>
                      ) : null}
                    </Text>
                    <Text size="1" color="gray">
                      created <RelativeTime value={o.createdAt} />
                    </Text>
                  </Flex>
                  <Flex gap="2" align="center" wrap="wrap">
                    <Form method="post" action="/settings" className="gt-inline-form">
                      <input type="hidden" name="intent" value="set-role" />
                      <input type="hidden" name="operatorId" value={o.id} />
                      <Flex gap="2" align="center">
                        <select name="role" defaultValue={o.role} aria-label={`Role of ${o.name}`} className="gt-select">
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {ROLE_LABELS[r]}
                            </option>
                          ))}
                        </select>
                        <Button type="submit" variant="soft" size="2" className="gt-touch">
                          {/* Issue 30 B1: the spoken name starts with the visible text. */}
                          Change role<span className="gt-visually-hidden">{` of ${o.name}`}</span>
                        </Button>
                      </Flex>
                    </Form>
                    <details>
                      <summary className="gt-touch" style={{ cursor: "pointer" }}>
                        <Text size="2">Reset password</Text>
                      </summary>
                      <Form method="post" action="/settings">
                        <input type="hidden" name="intent" value="reset-password" />
                        <input type="hidden" name="operatorId" value={o.id} />
                        <Flex gap="2" align="end" mt="2" wrap="wrap">
                          <label className="gt-field">
                            <Text size="1" weight="medium" color="gray">
                              New password for {o.name}
                            </Text>
                            <TextField.Root
                              type="password"
                              name="newPassword"
                              autoComplete="new-password"
                              required
                              minLength={constraints.resetPassword.newPassword?.minLength}
                              maxLength={constraints.resetPassword.newPassword?.maxLength}
                            />
                          </label>
                          <Button type="submit" variant="soft" size="2" className="gt-touch">
                            Set password
                          </Button>
                        </Flex>
                      </Form>
                    </details>
                    {o.id === me ? null : (
                      <Button asChild color="red" variant="soft" size="2" style={{ minHeight: 40 }}>
                        <Link
                          to={`/settings?deleteOperator=${o.id}`}
                          preventScrollReset
                          aria-label={`Delete ${o.name}`}
                          onClick={(e) => {
                            if (!hydrated) return;
                            e.preventDefault();
                            setDeleting({ id: o.id, name: o.name });
                          }}
                        >
                          Delete
                        </Link>
                      </Button>
                    )}
                  </Flex>
                </Flex>
              </li>
            ))}
          </ul>
          <ConfirmDialog
            open={!!deleting}
            onOpenChange={(open) => !open && setDeleting(null)}
            title={`Delete operator "${deleting?.name ?? ""}"?`}
            description={description(deleting?.name ?? "")}
            confirmLabel="Delete operator"
            form={deleting ? { action: "/settings", fields: { intent: "delete-operator", operatorId: deleting.id } } : undefined}
          />

          <CreateOperatorForm key={operators.length} constraints={constraints.createOperator} lastResult={lastResult} />
        </Flex>
      </section>
    </Card>
  );
}

function CreateOperatorForm({ constraints, lastResult }: { constraints: Constraints; lastResult: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const validation = useAdminValidation();
  const [form, fields] = useForm({
    id: "create-operator",
    lastResult,
    constraint: constraints,
    onValidate: ({ formData }) => checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: v.CreateOperatorSchema })),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-operator";
  return (
    <Form method="post" action="/settings" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="create-operator" />
      <Heading as="h3" size="3" mb="2">
        Add an operator
      </Heading>
      <FormErrors id={form.errorId} errors={form.errors} />
      <Flex gap="3" align="end" wrap="wrap">
        <Box style={{ flex: "1 1 180px" }}>
          <TextInputField label="Name" field={fields.name} autoComplete="off" />
        </Box>
        <Box style={{ flex: "1 1 180px" }}>
          <TextInputField label="Password" field={fields.password} type="password" autoComplete="new-password" />
        </Box>
        <label className="gt-field">
          <Text size="2" weight="medium">
            Role
          </Text>
          <select name="role" defaultValue="operator" className="gt-select">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" size="3" loading={busy}>
          Add operator
        </Button>
      </Flex>
    </Form>
  );
}

type BackupsInfo = { daily: boolean; dir: string; passphrase: string | null; files: Array<{ name: string; bytes: number; at: string }> };

export function BackupPanel({ backups }: { backups: BackupsInfo }) {
  return (
    <Card size="2" asChild>
      <section aria-labelledby="backups-heading">
        <Flex direction="column" gap="4">
          <Box>
            <Heading as="h2" size="4" id="backups-heading">
              Backups
            </Heading>
            <Text as="p" size="2" color="gray" mt="1">
              A backup holds all the data in one file. Its credentials are encrypted with the passphrase you choose (not with this machine&apos;s key), so it
              restores anywhere with <Code>npm run restore -- &lt;file&gt;</Code>. Without the passphrase nobody can read it, you included.
            </Text>
          </Box>
          {/* A native post: the answer is a file download, which Remix's fetch must not swallow. */}
          <Form method="post" action="/settings/backup" reloadDocument>
            <Flex gap="3" align="end" wrap="wrap">
              <label className="gt-field">
                <Text size="2" weight="medium">
                  Passphrase
                </Text>
                <TextField.Root type="password" name="passphrase" autoComplete="new-password" required minLength={8} size="3" />
              </label>
              <label className="gt-field">
                <Text size="2" weight="medium">
                  Repeat the passphrase
                </Text>
                <TextField.Root type="password" name="confirmPassphrase" autoComplete="new-password" required minLength={8} size="3" />
              </label>
              <Button type="submit" size="3">
                <DownloadIcon aria-hidden /> Download a backup
              </Button>
            </Flex>
          </Form>
          <Box>
            <Heading as="h3" size="3" mb="1">
              Daily backups
            </Heading>
            {backups.daily ? (
              <>
                <Text as="p" size="2" color="gray">
                  Every day into <Code>{backups.dir}</Code>, the newest 7 kept, encrypted with{" "}
                  {backups.passphrase === "BACKUP_PASSPHRASE" ? (
                    <>
                      the passphrase in <Code>BACKUP_PASSPHRASE</Code>
                    </>
                  ) : (
                    <>
                      the passphrase generated into <Code>{backups.passphrase}</Code> (keep a copy of it elsewhere, or set <Code>BACKUP_PASSPHRASE</Code>)
                    </>
                  )}
                  .
                </Text>
                {backups.files.length ? (
                  <ul aria-label="Daily backups" style={{ margin: "var(--space-2) 0 0", paddingLeft: "1.2em" }}>
                    {backups.files.map((f) => (
                      <li key={f.name}>
                        <Text size="2">
                          <Code variant="ghost">{f.name}</Code> · {Math.max(1, Math.round(f.bytes / 1024))} kB · <RelativeTime value={f.at} />
                        </Text>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <Text as="p" size="2" color="gray" mt="1">
                    None yet: the first one is made tonight.
                  </Text>
                )}
              </>
            ) : (
              <Text as="p" size="2" color="gray">
                Off (the default with PostgreSQL: back it up with its own tools, or set <Code>BACKUP_DAILY=true</Code>).
              </Text>
            )}
          </Box>
        </Flex>
      </section>
    </Card>
  );
}
