import { Button, Flex, Text } from "@radix-ui/themes";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth/auth-form";
import { getOperator, logOut } from "~/http/auth.server";

/**
 * Logout is a POST (`<Form method="post" action="/logout">`), so a link or a prefetch can
 * never end a session. A GET shows a confirmation with that button.
 */
export const meta: MetaFunction = () => [{ title: "Log out · Galaxy Toolbox" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await getOperator(request);
  if (!operator) throw redirect("/login");
  return data({ name: operator.name });
}

export async function action({ request }: ActionFunctionArgs) {
  // Deletes the session row (the cookie is then worthless everywhere) and clears the cookie.
  throw redirect("/login", { headers: { "Set-Cookie": await logOut(request) } });
}

export default function LogoutPage() {
  const { name } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <AuthCard
      title="Log out?"
      description={
        <>
          You are logged in as <Text weight="bold">{name}</Text>.
        </>
      }
    >
      <Form method="post" action="/logout">
        <Flex gap="3" justify="end" wrap="wrap">
          <Button asChild variant="soft" color="gray" size="3">
            <Link to="/">Cancel</Link>
          </Button>
          <Button type="submit" size="3" loading={navigation.state === "submitting"}>
            Log out
          </Button>
        </Flex>
      </Form>
    </AuthCard>
  );
}
