// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RefreshNotice } from "~/utils/refresh-outcome";
import { useRefreshOutcomeToast } from "./refresh-outcome";
import { toast } from "./toast";

/** The outcome toast of a refresh the page watched (issue 18 item 5): once, at the end, in the notice's kind. */
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Probe(props: { refreshing: boolean; finishedAt: string | null; notice: RefreshNotice | null }) {
  useRefreshOutcomeToast(props.refreshing, props.finishedAt, props.notice);
  return null;
}

describe("useRefreshOutcomeToast", () => {
  it("toasts the end of a refresh it saw running, once; a page opened after the end stays quiet", () => {
    const warning = vi.spyOn(toast, "warning").mockReturnValue("id");
    const success = vi.spyOn(toast, "success").mockReturnValue("id");
    const notice: RefreshNotice = { type: "warning", message: "Data refreshed for 1 of 2 accounts; 1 failed: bob", description: "Simulated service failure" };
    // Opened after an earlier refresh ended: nothing.
    const view = render(
      <Probe refreshing={false} finishedAt="2026-11-23T10:00:00.000Z" notice={{ type: "success", message: "Data refreshed successfully" }} />,
    );
    expect(success).not.toHaveBeenCalled();
    // The click (pending post), the run, the end.
    view.rerender(<Probe refreshing finishedAt="2026-11-23T10:00:00.000Z" notice={null} />);
    view.rerender(<Probe refreshing finishedAt={null} notice={null} />);
    view.rerender(<Probe refreshing={false} finishedAt="2026-11-23T10:05:00.000Z" notice={notice} />);
    expect(warning).toHaveBeenCalledExactlyOnceWith(notice.message, { description: "Simulated service failure" });
    // A revalidation with the same end does not toast again.
    view.rerender(<Probe refreshing={false} finishedAt="2026-11-23T10:05:00.000Z" notice={{ ...notice }} />);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(success).not.toHaveBeenCalled();
  });

  it("all failed: the error toast with the reason", () => {
    const error = vi.spyOn(toast, "error").mockReturnValue("id");
    const view = render(<Probe refreshing finishedAt={null} notice={null} />);
    view.rerender(
      <Probe
        refreshing={false}
        finishedAt="2026-11-23T10:05:00.000Z"
        notice={{ type: "error", message: "Failed to fetch user details", description: "All 3 users failed: Simulated service failure" }}
      />,
    );
    expect(error).toHaveBeenCalledExactlyOnceWith("Failed to fetch user details", { description: "All 3 users failed: Simulated service failure" });
  });
});
