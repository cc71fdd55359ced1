import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { flushAnswerToasts, onAnswerToastQueued } from "./submit-failure";

/**
 * Shows the toasts that actions' answers carry (`showAnswerToast`) once the router is idle
 * again: after the revalidation that follows the action, so the toast and the data it speaks
 * of arrive together. Rendered once, in the root.
 */
export function AnswerToasts() {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const fetchers = useFetchers();
  const idle = navigation.state === "idle" && revalidator.state === "idle" && fetchers.every((f) => f.state === "idle");
  const [queued, setQueued] = useState(0);
  useEffect(() => onAnswerToastQueued(() => setQueued((n) => n + 1)), []);
  useEffect(() => {
    if (idle) flushAnswerToasts();
  }, [idle, queued]);
  return null;
}
