import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex } from "@radix-ui/themes";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { AuthCard, FormErrors, TextInputField } from "~/components/auth/auth-form";
import { logEvent } from "~/models/log.server";
import { createOperator, operatorExists } from "~/models/operator.server";
import { AppError } from "~/utils/app-error";
import { getOperator, logIn } from "~/http/auth.server";
import { newPasswordSchema, operatorNameSchema } from "~/utils/operator-rules";
import { readFormData } from "~/utils/forms.server";

/**
 * First-run setup: while no operator exists, every page leads here and the first
 * operator is created (then logged in). Afterwards this page only redirects.
 */
export const SetupSchema = z
  .object({
    name: operatorNameSchema,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: "Confirm the password" }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });

export const meta: MetaFunction = () => [{ title: "Create the first operator · Galaxy Toolbox" }];

async function redirectIfSetUp(request: Request) {
  if (await operatorExists()) throw redirect((await getOperator(request)) ? "/" : "/login");
}

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSetUp(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await redirectIfSetUp(request);
  const submission = parseWithZod(await readFormData(request), { schema: SetupSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  }
  const { name, password } = submission.value;
  let operator;
  try {
    operator = await createOperator(name, password, { onlyIfNone: true });
  } catch (err) {
    // Someone else finished the setup a moment earlier: their operator stands.
    if (err instanceof AppError) {
      return data(submission.reply({ formErrors: [err.message], hideFields: ["password", "confirmPassword"] }), { status: err.status });
    }
    throw err;
  }
  await logEvent({ type: "info", source: "system", message: `Operator ${operator.name} created (first-run setup)` });
  throw redirect("/", { headers: { "Set-Cookie": await logIn(operator.id) } });
}

export default function SetupPage() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "setup",
    lastResult,
    constraint: getZodConstraint(SetupSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetupSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <AuthCard
      title="Create the first operator"
      description="No operator exists yet. The account you create here can sign in to every page and create API tokens for scripts."
    >
      <Form method="post" action="/setup" {...getFormProps(form)}>
        <Flex direction="column" gap="4">
          <FormErrors id={form.errorId} errors={form.errors} />
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the page's only task is this form, so its first field takes focus. */}
          <TextInputField label="Name" field={fields.name} autoComplete="username" autoFocus />
          <TextInputField label="Password" field={fields.password} type="password" autoComplete="new-password" />
          <TextInputField label="Confirm password" field={fields.confirmPassword} type="password" autoComplete="new-password" />
          <Button type="submit" size="3" loading={navigation.state === "submitting" && navigation.formAction === "/setup"}>
            Create operator
          </Button>
        </Flex>
      </Form>
    </AuthCard>
  );
}
