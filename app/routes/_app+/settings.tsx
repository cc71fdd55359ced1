import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { CopyIcon, LockClosedIcon } from "~/components/ui/icons";
import { Badge, Box, Button, Callout, Card, Code, Flex, Heading, IconButton, Link as RadixLink, Text, TextField } from "@radix-ui/themes";
import { createCookie, data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { useState } from "react";
import type { z } from "zod";
import { FormErrors, TextInputField } from "~/components/auth/auth-form";
import {
  ChangePasswordSchema,
  CreateOperatorSchema,
  CreateTokenSchema,
  DeleteOperatorSchema,
  ResetPasswordSchema,
  SetRoleSchema,
} from "~/components/settings/forms";
import { BackupPanel, OperatorsPanel } from "~/components/settings/admin-panels";
import { AlertsPanel } from "~/components/settings/alerts-panel";
import { DestinationInputSchema, type DestinationInput } from "#api/alerts";
import { alertsView, saveAlertDestinations, sendTestAlerts } from "~/models/alert.server";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { LazyConfirmDialog as ConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { RelativeTime } from "~/components/ui/relative-time";
import { SectionHeader } from "~/components/ui/section-header";
import { toast } from "~/components/ui/toast";
import { checkWith, lazyValidation } from "~/components/ui/lazy-validation";
import { useHydrated } from "~/components/ui/use-hydrated";
import { createApiToken, listApiTokens, revokeApiToken } from "~/models/api-token.server";
import { automaticPassphrase, backupDir, dailyBackupsEnabled, generatedPassphraseFile, listAutomaticBackups } from "~/models/backup.server";
import { logEvent } from "~/models/log.server";
import {
  createOperator,
  deleteOperator,
  findOperatorById,
  listOperators,
  setOperatorPassword,
  setOperatorRole,
  verifyOperatorPassword,
} from "~/models/operator.server";
import { isUuid } from "~/http/api.server";
import { auditNote } from "~/utils/audit-context.server";
import { mintsReadOnlyTokens, writeAccessRefusal } from "~/http/access.server";
import { clientIp, getAuth, getSessionId, requireOperator, type AuthOperator } from "~/http/auth.server";
import { refusalAnswer } from "~/http/refusal.server";
import { ADMIN_ONLY, ROLE_LABELS } from "~/utils/roles";
import { getEnv } from "~/utils/env.server";
import { loginBlockedFor, recordLoginFailure, recordLoginSuccess, tooManyAttemptsMessage } from "~/http/rate-limit.server";
import { decryptSecret, deriveKey, encryptSecret } from "~/utils/secrets.server";
import { AppError } from "~/utils/app-error";
import { readFormData } from "~/utils/forms.server";
import { runPageAction, type FormFields, type PageActionOptions, type PageOutcome } from "~/http/page-action.server";

/**
 * Operator settings (docs/auth.md): API tokens for scripts — created (shown once, read-only
 * if asked), listed, revoked — and the operator's own password; every role may use these.
 * Admins also manage operators (create, role, reset password, delete) and backups
 * (download one; the daily ones) — docs/decisions/0016, 0017.
 */

/**
 * The forms' schemas (components/settings/forms.ts) reach the browser after the page: the
 * first load carries no zod (bench/README.md "First-load weight": /settings 174.3 → 144.7 kB gzip).
 */
const useSettingsValidation = lazyValidation(() => import("~/components/settings/forms"));

export const meta: MetaFunction = () => [{ title: "Settings · Galaxy Toolbox" }];

/**
 * The new token travels from the action to the next page load in a short-lived cookie,
 * encrypted (AES-256-GCM) and signed: the POST can redirect as every POST does, and a
 * reload afterwards no longer shows (or re-creates) the token. Path "/" because a cookie
 * scoped to /settings would not reach Remix's /settings.data requests.
 */
function newTokenCookie() {
  return createCookie("gt_new_token", {
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().SECURE_COOKIES,
    path: "/",
    maxAge: 300,
    secrets: [deriveKey("new-token-cookie").toString("base64")],
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  const url = new URL(request.url);
  const tokens = await listApiTokens(operator.id);

  let newToken: string | null = null;
  // The page can show a fresh token: never cache it.
  const headers = new Headers({ "Cache-Control": "no-store" });
  const cookieHeader = request.headers.get("Cookie");
  if (cookieHeader?.includes("gt_new_token=")) {
    const sealed: unknown = await newTokenCookie().parse(cookieHeader);
    if (typeof sealed === "string" && sealed) {
      try {
        newToken = decryptSecret(sealed);
      } catch {
        newToken = null;
      }
    }
    headers.append("Set-Cookie", await newTokenCookie().serialize("", { maxAge: 0, expires: new Date(0) }));
  }

  const revokeId = url.searchParams.get("revoke");
  const confirmRevoke = revokeId ? (tokens.find((t) => t.id === revokeId) ?? null) : null;

  return data(
    {
      operator: { id: operator.id, name: operator.name, role: operator.role },
      newToken,
      // The forms' HTML constraints, from the schemas, without zod in the browser.
      constraints: {
        createToken: getZodConstraint(CreateTokenSchema),
        changePassword: getZodConstraint(ChangePasswordSchema),
        createOperator: getZodConstraint(CreateOperatorSchema),
        resetPassword: getZodConstraint(ResetPasswordSchema),
      },
      confirmRevoke: confirmRevoke ? { id: confirmRevoke.id, name: confirmRevoke.name } : null,
      tokens: tokens.map((t) => ({
        id: t.id,
        name: t.name,
        prefix: t.prefix,
        readOnly: t.readOnly,
        createdAt: t.createdAt.toISOString(),
        lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
      })),
      admin: operator.role === "admin" ? await adminData(url) : null,
    },
    { headers },
  );
}

/** What only admins see: the operators, and the backups. */
async function adminData(url: URL) {
  const operators = await listOperators();
  const deleteId = url.searchParams.get("deleteOperator");
  const confirmDelete = deleteId ? (operators.find((o) => o.id === deleteId) ?? null) : null;
  const daily = dailyBackupsEnabled();
  return {
    // A Discord webhook URL's token is a credential: the page never carries it (the panel names the webhook by its id).
    alerts: {
      destinations: (await alertsView()).destinations.map((d) =>
        d.kind === "discord-webhook" ? { ...d, url: d.url.replace(/(\/webhooks\/\d+\/).*/, "$1…") } : d,
      ),
    },
    operators: operators.map((o) => ({ id: o.id, name: o.name, role: o.role, createdAt: o.createdAt.toISOString() })),
    confirmDelete: confirmDelete ? { id: confirmDelete.id, name: confirmDelete.name } : null,
    backups: {
      daily,
      dir: backupDir(),
      // Where the daily backups' passphrase comes from (never the passphrase itself).
      passphrase: daily ? (automaticPassphrase().source === "env" ? "BACKUP_PASSPHRASE" : generatedPassphraseFile()) : null,
      files: daily ? listAutomaticBackups().slice(0, 10) : [],
    },
  };
}

/**
 * The admin intents' guard: the one write rule (access.server.ts) with this intent — the
 * route guard already asked it before the action ran; asked again here so the action is
 * safe wherever it is called from. A thrown Response: the 403, as the gate answers (not a
 * toast on /settings).
 */
async function requireAdminWriter(request: Request, operator: AuthOperator, intent: Intent): Promise<AuthOperator> {
  const auth = (await getAuth(request)) ?? { operator };
  const refusal = writeAccessRefusal(request.method, "/settings", auth, intent) ?? (operator.role !== "admin" ? ADMIN_ONLY : null);
  if (refusal) throw await refusalAnswer(request, 403, refusal);
  return operator;
}

/** The personal intents' guard: the same rule (a read-only or a viewer's token never gets past it). */
async function requireWriter(request: Request, operator: AuthOperator, intent: Intent): Promise<void> {
  const refusal = writeAccessRefusal(request.method, "/settings", (await getAuth(request)) ?? { operator }, intent);
  if (refusal) throw await refusalAnswer(request, 403, refusal);
}

/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();
export const shouldRevalidate = reloadUnlessSubmitFailed();

type Intent =
  | "create-token"
  | "revoke-token"
  | "change-password"
  | "create-operator"
  | "set-role"
  | "reset-password"
  | "delete-operator"
  | "alert-add"
  | "alert-remove"
  | "alert-test";

/** Each intent's text for a failure that is ours (logged to System Logs). */
const FALLBACK: Record<Intent, string> = {
  "create-token": "Could not create the API token",
  "revoke-token": "Could not revoke the API token",
  "change-password": "Could not change the password",
  "create-operator": "Could not create the operator",
  "set-role": "Could not change the role",
  "reset-password": "Could not reset the password",
  "delete-operator": "Could not delete the operator",
  "alert-add": "Could not add the alert destination",
  "alert-remove": "Could not remove the alert destination",
  "alert-test": "Could not send the test alert",
};

/** The stored destinations as PUT /api/alerts takes them (secrets omitted: kept as stored). */
function asInputs(view: Awaited<ReturnType<typeof alertsView>>): DestinationInput[] {
  return view.destinations.map((d) => (d.kind === "discord-channel" ? { kind: d.kind, channel_id: d.channel_id } : { kind: d.kind, url: d.url }));
}

/** A form with errors: shown again as posted, with conform's reply (no toast). */
function formAgain(result: SubmissionResult<string[]>, status = 400): PageOutcome {
  return { ok: false, message: "", status, data: { result }, render: true };
}

const GONE = "That operator does not exist (deleted meanwhile?)";

/**
 * Every form here navigates (`defaultRedirectTo`): a success goes back to /settings with the
 * flash toast, a form with errors is rendered again (`formAgain`), any other refusal — an
 * operator model's AppError too (the last admin) — goes back with it as the error toast.
 */
function settingsAction(request: Request, operator: AuthOperator): PageActionOptions<Intent> {
  /** The admin intents' form: the admin, and the operator it names (the first problem otherwise, as the toast). */
  const adminTarget = async <S extends z.ZodType<{ operatorId: string }>>(form: FormFields, schema: S, intent: Intent) => {
    const admin = await requireAdminWriter(request, operator, intent);
    const submission = parseWithZod(form.formData, { schema });
    if (submission.status !== "success") throw new AppError(400, Object.values(submission.error ?? {}).flat()[0] ?? "Invalid request");
    const target = await findOperatorById(submission.value.operatorId);
    if (!target) throw new AppError(404, GONE);
    return { admin, target, value: submission.value };
  };

  return {
    section: "Settings",
    home: "/settings",
    defaultRedirectTo: "/settings",
    failure: FALLBACK,
    // Issue 30 A6: a refused destination comes back as typed, the reason next to its field; its secret is never sent back.
    keepOnRefusal: { "alert-add": { secret: ["secret"] } },
    intents: {
      "create-token": async ({ form }) => {
        await requireWriter(request, operator, "create-token");
        const submission = parseWithZod(form.formData, { schema: CreateTokenSchema });
        if (submission.status !== "success") return formAgain(submission.reply());
        // A token never exceeds its maker's rights: a viewer's tokens are read-only, whatever the box says.
        const readOnly = submission.value.readOnly || mintsReadOnlyTokens((await getAuth(request)) ?? { operator });
        let created: Awaited<ReturnType<typeof createApiToken>>;
        try {
          created = await createApiToken(operator.id, submission.value.name, { readOnly });
        } catch (err) {
          // The model's refusal (a name taken) belongs under the name field.
          if (!(err instanceof AppError)) throw err;
          return formAgain(submission.reply({ fieldErrors: { name: [err.message] } }));
        }
        const { token, row } = created;
        await logEvent({ type: "info", source: "system", message: `API token "${row.name}" created by ${operator.name}` });
        auditNote({ action: "token.create", target: `${operator.name}: ${row.name}`, details: { readOnly: row.readOnly } });
        const sealed = await newTokenCookie().serialize(encryptSecret(token));
        return { ok: true, message: `API token "${row.name}" created`, headers: { "Set-Cookie": sealed } };
      },
      "revoke-token": async ({ form }) => {
        await requireWriter(request, operator, "revoke-token");
        const tokenId = form.string("tokenId");
        const revoked = isUuid(tokenId) ? await revokeApiToken(operator.id, tokenId) : null;
        if (!revoked) return { ok: false, message: "That API token does not exist (already revoked?)" };
        await logEvent({ type: "info", source: "system", message: `API token "${revoked.name}" revoked by ${operator.name}` });
        auditNote({ action: "token.revoke", target: `${operator.name}: ${revoked.name}`, details: {} });
        return `API token "${revoked.name}" revoked`;
      },
      "change-password": async ({ form }) => {
        const submission = parseWithZod(form.formData, { schema: ChangePasswordSchema });
        const hideFields = ["currentPassword", "newPassword", "confirmPassword"];
        if (submission.status !== "success") return formAgain(submission.reply({ hideFields }));
        // A stolen session must not become a way to guess the password: the login's limits,
        // counted per session (a thief holds one session, whatever addresses they use).
        const sessionId = await getSessionId(request);
        const who = sessionId ? `session:${sessionId}` : clientIp(request);
        const wait = await loginBlockedFor(who, operator.name);
        if (wait > 0) return formAgain(submission.reply({ formErrors: [tooManyAttemptsMessage(wait)], hideFields }), 429);
        if (!(await verifyOperatorPassword(operator.name, submission.value.currentPassword))) {
          await recordLoginFailure(who, operator.name);
          await logEvent({ type: "error", source: "system", message: `Password change failed for ${operator.name}`, details: { ip: clientIp(request) } });
          return formAgain(submission.reply({ fieldErrors: { currentPassword: ["Current password is wrong"] }, hideFields }));
        }
        await recordLoginSuccess(who, operator.name);
        await setOperatorPassword(operator.id, submission.value.newPassword, sessionId ?? undefined);
        await logEvent({ type: "info", source: "system", message: `Operator ${operator.name} changed their password` });
        auditNote({ action: "password.change", target: operator.name, details: {} });
        return "Password changed. Your other sessions were logged out.";
      },
      "create-operator": async ({ form }) => {
        const admin = await requireAdminWriter(request, operator, "create-operator");
        const submission = parseWithZod(form.formData, { schema: CreateOperatorSchema });
        if (submission.status !== "success") return formAgain(submission.reply({ hideFields: ["password"] }));
        let created;
        try {
          created = await createOperator(submission.value.name, submission.value.password, { role: submission.value.role });
        } catch (err) {
          // The model's refusal (a name taken) belongs under the name field.
          if (!(err instanceof AppError)) throw err;
          return formAgain(submission.reply({ fieldErrors: { name: [err.message] }, hideFields: ["password"] }));
        }
        await logEvent({ type: "info", source: "system", message: `Operator ${created.name} (${created.role}) created by ${admin.name}` });
        auditNote({ action: "operator.create", target: created.name, details: { role: created.role } });
        return `Operator "${created.name}" created (${ROLE_LABELS[created.role]})`;
      },
      "set-role": async ({ form }) => {
        const { admin, target, value } = await adminTarget(form, SetRoleSchema, "set-role");
        const updated = await setOperatorRole(target.id, value.role);
        auditNote({ action: "operator.role", target: target.name, details: { from: target.role, to: updated.role } });
        await logEvent({ type: "info", source: "system", message: `Operator ${target.name} is now ${updated.role} (by ${admin.name})` });
        return `${target.name} is now ${ROLE_LABELS[updated.role]}`;
      },
      "reset-password": async ({ form }) => {
        const { admin, target, value } = await adminTarget(form, ResetPasswordSchema, "reset-password");
        await setOperatorPassword(target.id, value.newPassword);
        auditNote({ action: "operator.reset-password", target: target.name, details: {} });
        await logEvent({ type: "info", source: "system", message: `Password of operator ${target.name} reset by ${admin.name}` });
        return `Password of ${target.name} reset; their sessions were logged out`;
      },
      "alert-add": async ({ form }) => {
        const admin = await requireAdminWriter(request, operator, "alert-add");
        const kind = form.string("kind");
        const url = form.string("url").trim();
        const raw =
          kind === "discord-channel"
            ? { kind, channel_id: form.string("channelId").trim() }
            : kind === "webhook"
              ? { kind, url, ...(form.string("secret") ? { secret: form.string("secret") } : {}) }
              : { kind, url };
        const parsed = DestinationInputSchema.safeParse(raw);
        if (!parsed.success) {
          // The field it is about, for the kept form (issue 30 A6): the schema's channel_id is the form's channelId.
          const at = parsed.error.issues[0]?.path[0];
          const field = at === "channel_id" ? "channelId" : at === undefined ? undefined : String(at);
          return { ok: false, message: parsed.error.issues[0]?.message ?? "Invalid destination", field };
        }
        const current = await alertsView();
        const saved = await saveAlertDestinations([...asInputs(current), parsed.data]);
        auditNote({ action: "alerts.update", target: "Alert destinations", details: { destinations: saved.destinations.length } });
        await logEvent({ type: "info", source: "system", message: `Alert destination added by ${admin.name}` });
        return "Alert destination added";
      },
      "alert-remove": async ({ form }) => {
        const admin = await requireAdminWriter(request, operator, "alert-remove");
        const id = form.string("destinationId");
        const current = await alertsView();
        if (!current.destinations.some((d) => d.id === id))
          return { ok: false, message: "That alert destination does not exist (removed meanwhile?)", status: 404 };
        const saved = await saveAlertDestinations(asInputs({ destinations: current.destinations.filter((d) => d.id !== id) }));
        auditNote({ action: "alerts.update", target: "Alert destinations", details: { destinations: saved.destinations.length } });
        await logEvent({ type: "info", source: "system", message: `Alert destination removed by ${admin.name}` });
        return "Alert destination removed";
      },
      "alert-test": async () => {
        const admin = await requireAdminWriter(request, operator, "alert-test");
        const results = await sendTestAlerts(admin.name);
        auditNote({ action: "alerts.test", target: "Alert destinations", details: { sent: results.length, failed: results.filter((r) => !r.ok).length } });
        const failed = results.filter((r) => !r.ok);
        if (!failed.length) return `Test alert delivered to ${results.length} destination${results.length === 1 ? "" : "s"}`;
        return { ok: false, status: 502, message: `Test alert not delivered: ${failed.map((r) => `${r.target}: ${r.message}`).join("; ")}` };
      },
      "delete-operator": async ({ form }) => {
        const { admin, target } = await adminTarget(form, DeleteOperatorSchema, "delete-operator");
        if (target.id === admin.id) return { ok: false, message: "You cannot delete yourself: ask another admin" };
        if (!(await deleteOperator(target.name))) return { ok: false, message: GONE, status: 404 };
        auditNote({ action: "operator.delete", target: target.name, details: { role: target.role } });
        await logEvent({ type: "info", source: "system", message: `Operator ${target.name} deleted by ${admin.name}` });
        return `Operator "${target.name}" deleted`;
      },
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  return runPageAction(await readFormData(request), operator.id, settingsAction(request, operator));
}

export default function SettingsPage() {
  const { operator, tokens, newToken, confirmRevoke, admin, constraints } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);

  return (
    <Box>
      <SectionHeader title="Settings" />
      <Flex direction="column" gap="5" maxWidth="760px">
        <Card size="2">
          <Flex direction="column" gap="3">
            <Heading as="h2" size="4">
              Account
            </Heading>
            <Flex align="center" justify="between" gap="3" wrap="wrap">
              <Text size="2">
                Logged in as <Text weight="bold">{operator.name}</Text>{" "}
                <Badge color={operator.role === "admin" ? "amber" : "gray"} variant="soft">
                  {ROLE_LABELS[operator.role]}
                </Badge>
              </Text>
              <Flex gap="2" wrap="wrap">
                <Button asChild variant="soft" color="gray">
                  <Link to="/audit">Audit trail</Link>
                </Button>
                <Form method="post" action="/logout">
                  <Button type="submit" variant="soft" color="gray">
                    Log out
                  </Button>
                </Form>
              </Flex>
            </Flex>
          </Flex>
        </Card>

        <Card size="2" asChild>
          <section aria-labelledby="api-tokens-heading">
            <Flex direction="column" gap="4">
              <Box>
                <Heading as="h2" size="4" id="api-tokens-heading">
                  API tokens
                </Heading>
                <Text as="p" size="2" color="gray" mt="1">
                  Scripts call <Code>/api</Code> with the header <Code>Authorization: Bearer &lt;token&gt;</Code>. A token acts as you, with your role; a
                  read-only token can only read. Revoking a token locks its scripts out at once.
                </Text>
                {/* Plain links: both are /api answers outside the Remix app (issue 33), never client navigations. */}
                <Text as="p" size="2" mt="2">
                  <RadixLink href="/api/docs">API reference</RadixLink> (OpenAPI 3.1: <RadixLink href="/api/openapi.json">openapi.json</RadixLink>)
                </Text>
              </Box>

              {newToken ? <NewTokenCallout token={newToken} /> : null}

              {confirmRevoke ? (
                <ConfirmPanel
                  title={`Revoke API token "${confirmRevoke.name}"?`}
                  description="Scripts using this token get 401 from their next request on. This cannot be undone."
                  confirmLabel="Revoke token"
                  cancelTo="/settings"
                  form={{ action: "/settings", fields: { intent: "revoke-token", tokenId: confirmRevoke.id } }}
                />
              ) : null}

              {/* Keyed by the newest token: a created token empties the name field. */}
              <CreateTokenForm
                key={tokens[0]?.id ?? "none"}
                lastResult={actionData && "intent" in actionData && actionData.intent === "create-token" ? actionData.result : undefined}
              />

              {tokens.length === 0 ? (
                <EmptyState
                  icon={<LockClosedIcon width="28" height="28" />}
                  title="No API tokens yet"
                  description="Create one above for each script or machine that calls the API, so you can revoke them one by one."
                />
              ) : (
                <ul aria-label="API tokens" className="gt-token-list" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                  {tokens.map((t) => (
                    <li key={t.id} aria-label={t.name}>
                      <Flex align="center" justify="between" gap="3" wrap="wrap" py="3" style={{ borderTop: "1px solid var(--gray-a5)" }}>
                        <Flex direction="column" gap="1" style={{ minWidth: 0 }}>
                          <Text weight="bold" style={{ overflowWrap: "anywhere" }}>
                            {t.name}{" "}
                            {t.readOnly ? (
                              <Badge color="gray" variant="soft">
                                read-only
                              </Badge>
                            ) : null}
                          </Text>
                          <Text size="1" color="gray">
                            <Code variant="ghost">{t.prefix}…</Code> · created <RelativeTime value={t.createdAt} /> · last used{" "}
                            {t.lastUsedAt ? <RelativeTime value={t.lastUsedAt} /> : "never"}
                          </Text>
                        </Flex>
                        <Button asChild color="red" variant="soft" size="2" style={{ minHeight: 40 }}>
                          <Link
                            to={`/settings?revoke=${t.id}`}
                            preventScrollReset
                            aria-label={`Revoke ${t.name}`}
                            onClick={(e) => {
                              if (!hydrated) return;
                              e.preventDefault();
                              setRevoking({ id: t.id, name: t.name });
                            }}
                          >
                            Revoke
                          </Link>
                        </Button>
                      </Flex>
                    </li>
                  ))}
                </ul>
              )}
              <ConfirmDialog
                open={!!revoking}
                onOpenChange={(open) => !open && setRevoking(null)}
                title={`Revoke API token "${revoking?.name ?? ""}"?`}
                description="Scripts using this token get 401 from their next request on. This cannot be undone."
                confirmLabel="Revoke token"
                form={revoking ? { action: "/settings", fields: { intent: "revoke-token", tokenId: revoking.id } } : undefined}
              />
            </Flex>
          </section>
        </Card>

        <Card size="2" asChild>
          <section aria-labelledby="password-heading">
            <Flex direction="column" gap="4">
              <Box>
                <Heading as="h2" size="4" id="password-heading">
                  Change password
                </Heading>
                <Text as="p" size="2" color="gray" mt="1">
                  Your other sessions are logged out; this one stays.
                </Text>
              </Box>
              <ChangePasswordForm
                lastResult={actionData && "intent" in actionData && actionData.intent === "change-password" ? actionData.result : undefined}
              />
            </Flex>
          </section>
        </Card>

        {admin ? (
          <>
            <OperatorsPanel
              me={operator.id}
              operators={admin.operators}
              confirmDelete={admin.confirmDelete}
              constraints={{ createOperator: constraints.createOperator, resetPassword: constraints.resetPassword }}
              lastResult={actionData && "intent" in actionData && actionData.intent === "create-operator" ? actionData.result : undefined}
            />
            <AlertsPanel destinations={admin.alerts.destinations} />
            <BackupPanel backups={admin.backups} />
          </>
        ) : null}
      </Flex>
    </Box>
  );
}

function NewTokenCallout({ token }: { token: string }) {
  const hydrated = useHydrated();
  return (
    <Callout.Root color="green" highContrast role="status">
      <Callout.Text>
        <Text weight="bold">Copy your new token now.</Text> It will not be shown again.
      </Callout.Text>
      <Flex gap="2" align="center" mt="2" wrap="wrap">
        <TextField.Root
          readOnly
          value={token}
          aria-label="New API token"
          style={{ flex: "1 1 240px", fontFamily: "var(--code-font-family)" }}
          onFocus={(e) => e.currentTarget.select()}
        />
        {hydrated ? (
          <IconButton
            type="button"
            variant="soft"
            size="3"
            aria-label="Copy token"
            onClick={() => {
              navigator.clipboard.writeText(token).then(
                () => toast.success("Token copied to clipboard", { duration: 2000 }),
                () => toast.error("Could not copy; select the token and copy it by hand"),
              );
            }}
          >
            <CopyIcon />
          </IconButton>
        ) : null}
      </Flex>
    </Callout.Root>
  );
}

function CreateTokenForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const { constraints, operator } = useLoaderData<typeof loader>();
  // A viewer's tokens are read-only whatever the box says (the action decides; decision 0024): show it so.
  const viewer = operator.role === "viewer";
  const validation = useSettingsValidation();
  const [form, fields] = useForm({
    id: "create-token",
    lastResult,
    constraint: constraints.createToken,
    onValidate: ({ formData }) => checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: v.CreateTokenSchema })),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-token";
  return (
    <Form method="post" action="/settings" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="create-token" />
      <Flex gap="3" align="end" wrap="wrap">
        <Box style={{ flex: "1 1 220px" }}>
          <TextInputField label="Token name" field={fields.name} />
        </Box>
        <label className="gt-check" title={viewer ? "Your role is viewer: your tokens can only read" : undefined}>
          {viewer ? <input type="hidden" name="readOnly" value="on" /> : null}
          <input type="checkbox" name="readOnly" value="on" defaultChecked={viewer} disabled={viewer} />
          <Text size="2">{viewer ? "Read-only (always, for a viewer)" : "Read-only"}</Text>
        </label>
        <Button type="submit" size="3" loading={busy}>
          Create token
        </Button>
      </Flex>
      <FormErrors id={form.errorId} errors={form.errors} />
    </Form>
  );
}

function ChangePasswordForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const { constraints } = useLoaderData<typeof loader>();
  const validation = useSettingsValidation();
  const [form, fields] = useForm({
    id: "change-password",
    lastResult,
    constraint: constraints.changePassword,
    onValidate: ({ formData }) => checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: v.ChangePasswordSchema })),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "change-password";
  return (
    <Form method="post" action="/settings" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="change-password" />
      <Flex direction="column" gap="3" maxWidth="420px">
        <FormErrors id={form.errorId} errors={form.errors} />
        <TextInputField label="Current password" field={fields.currentPassword} type="password" autoComplete="current-password" />
        <TextInputField label="New password" field={fields.newPassword} type="password" autoComplete="new-password" />
        <TextInputField label="Confirm new password" field={fields.confirmPassword} type="password" autoComplete="new-password" />
        <Box>
          <Button type="submit" size="3" loading={busy}>
            Change password
          </Button>
        </Box>
      </Flex>
    </Form>
  );
}
