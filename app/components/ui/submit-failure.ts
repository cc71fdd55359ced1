import { isRouteErrorResponse, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { remixRouter } from "~/components/ui/remix-router";
import { toast } from "~/components/ui/toast";

/**
 * The form kit's answer to a post that never got an answer from the app (issue 19).
 *
 * With JavaScript, every form and fetcher of a section posts through the route's
 * `clientAction`. When the request cannot reach the server (network down, server
 * restarting: a `TypeError` from `fetch`) or comes back as something that is not the app's
 * answer (a 5xx from a proxy, an error the action threw), Remix would throw it to the error
 * boundary: the root's "Something went wrong" replaces the screen and whatever the operator
 * typed is gone. `keepInputOnFailure` catches those, shows an error toast, and returns a
 * {@link SubmitFailure} as the action's data instead, so the screen stays — forms keep their
 * input, an optimistic change falls away — and the operator can simply submit again.
 *
 * Redirects, 4xx and anything else the app answered on purpose pass through untouched; a toast
 * the answer carries (`jsonWithSuccess` & co.) is shown on the way ({@link showAnswerToast}).
 *
 *   export const clientAction = keepInputOnFailure();                      // kit texts
 *   export const clientAction = keepInputOnFailure((fd) => titleFor(fd));  // section's own title
 *   export const shouldRevalidate = reloadUnlessSubmitFailed(existing);    // no reload after it
 *
 * After such a failure nothing changed on the server, so `reloadUnlessSubmitFailed` skips
 * the loaders' revalidation (which, with the network down, would fail in turn and take the
 * screen to the error boundary). `useFetcherOutcome` does not revalidate after one either.
 * Without JavaScript none of this runs: the browser shows its own error page and the back
 * button returns to the form as it was.
 */

export const SUBMIT_FAILURE_TEXTS = {
  unreachable: "The server could not be reached. Check the connection and try again.",
  serverError: "The server could not complete the request. Try again in a moment.",
} as const;

export type SubmitFailure = {
  ok: false;
  /** The toast's text (the section's title for the intent, or the kit's reason). */
  message: string;
  /** The kit's reason (one of {@link SUBMIT_FAILURE_TEXTS}). */
  reason: string;
  submitFailed: "unreachable" | "server";
  intent: string | null;
};

/** True for the data {@link keepInputOnFailure} returned (action data, fetcher data). */
export function isSubmitFailure(value: unknown): value is SubmitFailure {
  return typeof value === "object" && value !== null && "submitFailed" in value && (value as SubmitFailure).ok === false;
}

/** Which failure an error thrown by `serverAction()` is, or null for an answer of the app (pass it on). */
export function submitFailureKind(error: unknown): SubmitFailure["submitFailed"] | null {
  if (error instanceof Response) return null;
  if (isRouteErrorResponse(error)) return error.status >= 500 ? "server" : null;
  // fetch() rejects with a TypeError ("Failed to fetch", "NetworkError when attempting…", "Load failed").
  return error instanceof TypeError ? "unreachable" : "server";
}

/**
 * A `clientAction` that posts to the route's `action` and turns a failure to get the app's
 * answer into a toast and a {@link SubmitFailure}. `title(formData)` may name what failed in
 * the section's words (e.g. "Failed to create ad"); the kit's reason is then the second line.
 */
export function keepInputOnFailure(title?: (formData: FormData | null) => string | undefined) {
  return async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
    const copy = request.clone();
    let answer: unknown;
    inFlight++;
    try {
      await routerLoadsSettled();
      answer = await serverAction();
    } catch (error) {
      const kind = submitFailureKind(error);
      if (!kind) throw error;
      const formData = await copy.formData().catch(() => null);
      const raw = formData?.get("intent");
      const reason = SUBMIT_FAILURE_TEXTS[kind === "unreachable" ? "unreachable" : "serverError"];
      const heading = title?.(formData);
      if (heading) toast.error(heading, { description: reason });
      else toast.error(reason);
      return { ok: false, message: heading ?? reason, reason, submitFailed: kind, intent: typeof raw === "string" ? raw : null } satisfies SubmitFailure;
    } finally {
      inFlight--;
    }
    showAnswerToast(answer);
    return answer;
  };
}

/** How long a post waits at most for the router's own loads (below) before it goes anyway. */
export const ROUTER_SETTLE_CAP_MS = 5_000;

/**
 * Resolves once the router has no load of its own under way: a revalidation (a live update's),
 * or a navigation's loads; at most {@link ROUTER_SETTLE_CAP_MS} later. A post sent meanwhile
 * and answered with a redirect (the take-over question's `?takeover=`) meets a bug of React
 * Router 6 (@remix-run/router 1.23): starting the redirect's navigation drops the running
 * load's abort handle, so both complete; the older one, finishing first, takes the redirect's
 * "push" for its own URL, and the redirect then completes without touching the address bar
 * (docs/testing.md "Issue 19 D", third round: the page showed the question, the URL lacked it).
 * A navigation's own submission ("submitting") is not waited for; without a router (component
 * tests) nothing waits.
 */
export function routerLoadsSettled(capMs = ROUTER_SETTLE_CAP_MS): Promise<void> {
  const router = remixRouter();
  if (!router) return Promise.resolve();
  const busy = () => {
    const { navigation, revalidation } = router.state;
    return navigation.state === "loading" || (navigation.state === "idle" && revalidation !== "idle");
  };
  if (!busy()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, capMs);
    const unsubscribe = router.subscribe(() => {
      if (!busy()) done();
    });
  });
}

/** Posts of this tab whose answer has not come back yet. */
let inFlight = 0;

/**
 * How many posts (forms and fetchers through {@link keepInputOnFailure}) are on their way.
 * A live refresh waits for them: a revalidation started while a fetcher's post is under way
 * makes the router drop the redirect that post answers with (the take-over question's
 * `?takeover=`, issue 18), and the page's own render may not show the post yet.
 */
export function submissionsInFlight(): number {
  return inFlight;
}

/**
 * The toast an action's answer carries (`jsonWithSuccess` & co. in ~/utils/toast.server), shown
 * here, in the tab that acted, as the answer arrives. It is not a flash cookie: that one is
 * shared by every tab, and another tab's live refresh would take it first.
 */
export function showAnswerToast(answer: unknown) {
  const carried = typeof answer === "object" && answer !== null ? (answer as { toast?: unknown }).toast : undefined;
  if (!isAnswerToast(carried)) return;
  pending.push(carried);
  // With <AnswerToasts> mounted (the root), it shows them once the page has reloaded its data,
  // so "Sent 16 gifts" never sits beside a "Send (16)" that is about to change. Without it: now.
  if (flushers.size === 0) flushAnswerToasts();
  else for (const wake of flushers) wake();
}

const pending: AnswerToast[] = [];
const flushers = new Set<() => void>();

/** Shows the queued answer toasts (the root calls it when the router is idle again). */
export function flushAnswerToasts() {
  for (const t of pending.splice(0)) toast[t.type](t.message, t.description ? { description: t.description } : undefined);
}

/** For <AnswerToasts>: be told when a toast is queued; returns the unsubscribe. */
export function onAnswerToastQueued(wake: () => void): () => void {
  flushers.add(wake);
  return () => flushers.delete(wake);
}

type AnswerToast = { type: "success" | "error" | "info" | "warning"; message: string; description?: string };

function isAnswerToast(value: unknown): value is AnswerToast {
  if (typeof value !== "object" || value === null) return false;
  const { type, message } = value as Partial<AnswerToast>;
  return typeof message === "string" && message !== "" && (type === "success" || type === "error" || type === "info" || type === "warning");
}

/**
 * `shouldRevalidate` for a route using {@link keepInputOnFailure}: no reload after a post
 * that failed to reach the app (nothing changed); otherwise `next` (or Remix's default).
 */
export function reloadUnlessSubmitFailed(next?: ShouldRevalidateFunction): ShouldRevalidateFunction {
  return (args) => {
    if (isSubmitFailure(args.actionResult)) return false;
    return next ? next(args) : args.defaultShouldRevalidate;
  };
}
