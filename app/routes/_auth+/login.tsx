import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex } from "@radix-ui/themes";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { AuthCard, FormErrors, TextInputField } from "~/components/auth/auth-form";
import { noteFailedLogin } from "~/models/failed-login.server";
import { operatorExists, verifyOperatorPassword } from "~/models/operator.server";
import { clientIp, getOperator, logIn, safeRedirect } from "~/http/auth.server";
import { loginPasswordSchema, operatorNameSchema } from "~/utils/operator-rules";
import { loginBlockedFor, recordLoginFailure, recordLoginSuccess, tooManyAttemptsMessage } from "~/http/rate-limit.server";
import { readFormData } from "~/utils/forms.server";

/** Operator login (docs/decisions/0003; the specs show none). */
export const LoginSchema = z.object({
  name: operatorNameSchema,
  password: loginPasswordSchema,
  redirectTo: z.string().optional(),
});

export const INVALID_CREDENTIALS = "Invalid name or password";

export const meta: MetaFunction = () => [{ title: "Log in · Galaxy Toolbox" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await operatorExists())) throw redirect("/setup");
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (await getOperator(request)) throw redirect(safeRedirect(redirectTo));
  return data({ redirectTo: safeRedirect(redirectTo, "") });
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const { name, password, redirectTo } = submission.value;
  const ip = clientIp(request);

  // Limits per (name, address) and per address: docs/auth.md, docs/decisions/0012.
  const wait = await loginBlockedFor(ip, name);
  if (wait > 0) {
    await noteFailedLogin({ ip, name, rateLimited: true });
    return data(submission.reply({ formErrors: [tooManyAttemptsMessage(wait)], hideFields: ["password"] }), {
      status: 429,
      headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
    });
  }

  const operator = await verifyOperatorPassword(name, password);
  if (!operator) {
    await recordLoginFailure(ip, name);
    await noteFailedLogin({ ip, name, rateLimited: false });
    return data(submission.reply({ formErrors: [INVALID_CREDENTIALS], hideFields: ["password"] }), { status: 401 });
  }

  await recordLoginSuccess(ip, name);
  throw redirect(safeRedirect(redirectTo), { headers: { "Set-Cookie": await logIn(operator.id) } });
}

export default function LoginPage() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: getZodConstraint(LoginSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  // After a refused attempt the password field starts empty again, as it does without JS.
  // (The DOM value only: conform's reset would also drop the "Invalid name or password".)
  const passwordId = fields.password.id;
  useEffect(() => {
    if (lastResult?.status !== "error") return;
    const input = document.getElementById(passwordId);
    if (input instanceof HTMLInputElement) {
      input.value = "";
      if (!lastResult.error?.name) input.focus();
    }
  }, [lastResult, passwordId]);

  return (
    <AuthCard title="Log in">
      <Form method="post" action="/login" {...getFormProps(form)}>
        <Flex direction="column" gap="4">
          <FormErrors id={form.errorId} errors={form.errors} />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the page's only task is this form, so its first field takes focus. */}
          <TextInputField label="Name" field={fields.name} autoComplete="username" autoFocus />
          <TextInputField label="Password" field={fields.password} type="password" autoComplete="current-password" />
          <Button type="submit" size="3" loading={navigation.state === "submitting" && navigation.formAction?.startsWith("/login")}>
            Log in
          </Button>
        </Flex>
      </Form>
    </AuthCard>
  );
}
