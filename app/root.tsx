import radixStyles from "@radix-ui/themes/styles.css?url";
import { refusalReason } from "~/utils/refusal";
import { DEPENDENCY_TITLE, isDependencyDownBody } from "#api/dependencies";
import { Box, Button, Flex, Heading, Text, Theme } from "@radix-ui/themes";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  type ClientLoaderFunctionArgs,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useFetcher,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import shellStyles from "~/components/shell/shell.css?url";
import globalStyles from "~/styles/global.css?url";
import { THEME_FETCHER_KEY } from "~/components/shell/theme-toggle";
import { AnswerToasts } from "~/components/ui/answer-toasts";
import { receiveFlash, Toaster, type FlashToastData } from "~/components/ui/toast";
import { getEnv } from "~/utils/env.server";
import { keepDataWhenUnreachable, rememberLoaderData } from "~/utils/unreachable";
import { getTheme } from "~/utils/theme.server";
import { useNonce } from "~/utils/nonce";
import { getFlashToast } from "~/utils/toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: radixStyles },
  { rel: "stylesheet", href: shellStyles },
  { rel: "stylesheet", href: globalStyles },
  { rel: "icon", href: "/favicon.ico" },
];

export const meta: MetaFunction = () => [{ title: "Galaxy Toolbox" }];

/**
 * Theme (cookie, so the server renders the right one: no flash), the pending flash toast, and on
 * a document request the live bus's sequence the page's data is as of (the tab's stream opens
 * with it: docs/live.md "The first ready").
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { toast, headers } = await getFlashToast(request);
  // The gift pictures' host is public configuration the browser needs (GiftImage).
  return data({ theme: getTheme(request), toast: toast ?? null, giftImageBase: getEnv().GIFT_IMAGE_BASE_URL, liveSeq: context.liveSeq ?? null }, { headers });
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

/**
 * The theme to render: the cookie's, or — while the toggle's request is in flight — the
 * one being chosen (optimistic, so the switch reacts at once).
 */
function useTheme(): "dark" | "light" {
  const root = useRouteLoaderData<typeof loader>("root");
  const fetcher = useFetcher({ key: THEME_FETCHER_KEY });
  const pending = fetcher.formData?.get("theme");
  if (pending === "light" || pending === "dark") return pending;
  return root?.theme ?? "dark";
}

/**
 * Routes may ask for a plain-HTML refresh while JavaScript is off (System Logs'
 * auto-refresh) with `handle.noScriptRefreshSeconds(data)`. Inside <noscript> the meta
 * tag is inert when scripts run, where the route revalidates by itself instead.
 */
type RefreshHandle = { noScriptRefreshSeconds?: (data: unknown) => number | null };
function useNoScriptRefresh(): number | null {
  const matches = useMatches();
  for (const match of matches) {
    const fn = (match.handle as RefreshHandle | undefined)?.noScriptRefreshSeconds;
    const seconds = fn?.(match.data);
    if (seconds) return seconds;
  }
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const theme = useTheme();
  const refresh = useNoScriptRefresh();
  const nonce = useNonce();
  return (
    <html lang="en" className={theme} style={{ colorScheme: theme }} data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "dark" ? "dark light" : "light dark"} />
        {refresh ? (
          <noscript>
            <meta httpEquiv="refresh" content={String(refresh)} />
          </noscript>
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        <Theme appearance={theme} accentColor="indigo" grayColor="slate" radius="medium" panelBackground="solid">
          {children}
        </Theme>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * A revalidation that cannot reach the server keeps the theme and toasts (app/utils/unreachable.ts).
 * Each load's flash toast is shown as the load arrives (`receiveFlash`): a later load may
 * replace this one's state before React renders it.
 */
const keepRoot = keepDataWhenUnreachable("root");
export const clientLoader = async (args: ClientLoaderFunctionArgs) => {
  const data = (await keepRoot(args)) as { toast?: FlashToastData | null } | undefined;
  receiveFlash(data?.toast);
  return data;
};

export default function App() {
  const root = useRouteLoaderData<typeof loader>("root");
  const theme = useTheme();
  rememberLoaderData("root", root);
  return (
    <>
      <Outlet />
      <Toaster flash={root?.toast} theme={theme} />
      <AnswerToasts />
    </>
  );
}

/** Last resort: any error no route handled, in human words, with a way back. */
export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A refusal (4xx) carries its reason as { error, message } (issue 28): say it, not a status text.
  const reason = isRouteErrorResponse(error) && error.status < 500 ? refusalReason(error.data) : null;
  // A loader that failed for want of the database or Redis names it (decision 0029).
  const down = isRouteErrorResponse(error) && isDependencyDownBody(error.data) ? error.data : null;
  const title = notFound
    ? "Page not found"
    : down
      ? DEPENDENCY_TITLE[down.dependency]
      : reason && isRouteErrorResponse(error) && error.status === 403
        ? "Not allowed"
        : "Something went wrong";
  const text = notFound
    ? "There is nothing at this address. The section menu starts from the home page."
    : down
      ? `${down.message}. Nothing was lost: try again in a moment.`
      : reason
        ? reason
        : isRouteErrorResponse(error)
          ? `The server answered ${error.status}. Try again in a moment.`
          : "The page failed to load. Try again; if it keeps failing, System Logs may say why.";
  return (
    <Flex align="center" justify="center" minHeight="100vh" p="4">
      <Box maxWidth="480px">
        <Heading as="h1" size="6" mb="2">
          {title}
        </Heading>
        <Text as="p" color="gray" mb="4">
          {text}
        </Text>
        <Flex gap="3" wrap="wrap">
          <Button asChild>
            <Link to="/" reloadDocument>
              Go to the home page
            </Link>
          </Button>
          {notFound ? null : (
            <Button asChild variant="soft" color="gray">
              {/* eslint-disable-next-line jsx-a11y/anchor-is-valid -- an empty href reloads the current URL, which is the retry, and works without JavaScript. */}
              <a href="">Try again</a>
            </Button>
          )}
        </Flex>
      </Box>
    </Flex>
  );
}
