import { Theme } from "@radix-ui/themes";
import { createRemixStub } from "@remix-run/testing";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { AlertsPanel } from "./alerts-panel";

/** Settings › Alerts as the server draws it (what a browser without JavaScript gets; issue 31 item 2). */
function html(destinations: Parameters<typeof AlertsPanel>[0]["destinations"]) {
  const errors: unknown[] = [];
  // The memory router of the test stub uses useLayoutEffect, which React warns about on the server: only that is dropped.
  const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
    if (!String(a[0]).includes("useLayoutEffect does nothing on the server")) errors.push(a);
  });
  const Stub = createRemixStub([{ path: "/settings", Component: () => <AlertsPanel destinations={destinations} /> }]);
  const out = renderToString(
    <Theme>
      <Stub initialEntries={["/settings"]} />
    </Theme>,
  );
  err.mockRestore();
  expect(errors).toEqual([]);
  return out;
}

describe("AlertsPanel without JavaScript", () => {
  it("a native kind select and every field (the server reads the chosen kind's), plain posts for add, remove and test", () => {
    const out = html([
      { id: "d1", kind: "webhook", url: "https://hooks.example.com/a", secret: "set" },
      { id: "d2", kind: "discord-webhook", url: "https://discord.com/api/webhooks/123/SECRET-TOKEN" },
      { id: "d3", kind: "discord-channel", channel_id: "1180000000000000101" },
    ]);
    expect(out).toContain('<select name="kind"');
    for (const name of ["url", "secret", "channelId"]) expect(out).toContain(`name="${name}"`);
    for (const intent of ["alert-add", "alert-remove", "alert-test"]) expect(out).toContain(`value="${intent}"`);
    expect(out).toContain("secret set");
    // A Discord webhook's token is never drawn.
    expect(out).not.toContain("SECRET-TOKEN");
    expect(out).toContain("Send a test alert");
  });

  it("says alerts are off with no destination, and the test button is disabled", () => {
    const out = html([]);
    expect(out).toContain("Alerts are off: no destinations yet.");
    expect(out).toMatch(/<button[^>]*disabled[^>]*>.*Send a test alert/s);
  });
});
