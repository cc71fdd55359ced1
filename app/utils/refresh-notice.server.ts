import { redirect, type TypedResponse } from "@remix-run/node";
import type { RefreshNotice } from "~/utils/refresh-outcome";
import { redirectWithError, redirectWithSuccess, redirectWithWarning } from "~/utils/toast.server";

/**
 * The end of a refresh followed without JavaScript (`?refreshing=1`): back to the plain page
 * with the outcome as a flash toast of its kind (success, warning naming the failed
 * accounts, error with the platform's reason). No notice (no finished refresh): no toast.
 */
export async function redirectWithNotice(to: string, notice: RefreshNotice | null): Promise<TypedResponse<never>> {
  if (!notice) return redirect(to);
  const toast = { message: notice.message, ...(notice.description ? { description: notice.description } : {}) };
  if (notice.type === "error") return redirectWithError(to, toast);
  if (notice.type === "warning") return redirectWithWarning(to, toast);
  return redirectWithSuccess(to, toast);
}
