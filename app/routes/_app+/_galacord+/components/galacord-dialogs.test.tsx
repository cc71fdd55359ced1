// @vitest-environment happy-dom
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { useLocation, useNavigate } from "@remix-run/react";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_RELAY_OPTIONS, PLANET_OPTIONS, type Channel, type SavedAccount } from "#api/galacord";
import { keepInputOnFailure, SUBMIT_FAILURE_TEXTS } from "~/components/ui/submit-failure";
import { toast } from "~/components/ui/toast";
import { renderRemixStub } from "../../../../../tests/kit/component";
import { ChangePlanetDialog } from "./change-planet-dialog";
import { ConnectNewDialog } from "./connect-new-dialog";
import { DeleteConnection } from "./delete-connection";
import { RelayOptionsDialog } from "./relay-options-dialog";

/**
 * GalaCord's dialogs on the kit's DialogFrame (issue 19 B.3), after hydration: the URL names
 * the open dialog (as the route does), the forms post to the route's action, and a refusal
 * (a redirect back to the dialog's URL) or a post that never reached the app keeps what was
 * typed. Spec 2 §2 "GalaCord screen", §5 "Connect is disabled until channel and recovery code
 * are both given … Change Planet needs a planet".
 */
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const channels: Channel[] = [
  { id: "c1", name: "general", guildId: "g1", guildName: "Galaxy Fans" },
  { id: "c2", name: "relay", guildId: "g1", guildName: "Galaxy Fans" },
  { id: "c3", name: "bots", guildId: "g2", guildName: "Test Server" },
];

const account: SavedAccount = {
  accountId: "1001",
  nick: "Relayer",
  planet: "Sirius",
  channelId: "c2",
  channelName: "relay",
  guildName: "Galaxy Fans",
  guildId: "g1",
  isConnected: false,
  state: "offline",
  desired: "disconnected",
  error: null,
  session: {
    purpose: "relay-link",
    key: "1001",
    accountId: "1001",
    desired: "stop",
    actual: "stopped",
    since: new Date(0).toISOString(),
    error: null,
    note: null,
    attempt: 0,
    nextRetryAt: null,
    holder: null,
    holderAlive: null,
    planet: null,
    info: {},
    phase: "stopped",
    status: "Stopped",
  },
  options: { ...DEFAULT_RELAY_OPTIONS, ignoreNicks: ["spammer", "bob"], ignoreMessages: "^!" },
};

type Answer = (args: ActionFunctionArgs) => Promise<unknown>;

/** The GalaCord screen's dialogs as the route mounts them: open by the URL, closed by navigating to /galacord. */
function setup(answer: Answer, initial: string) {
  const posted: Record<string, FormDataEntryValue>[] = [];
  function Page() {
    const location = useLocation();
    const navigate = useNavigate();
    const params = new URLSearchParams(location.search);
    const close = () => navigate("/galacord", { replace: true });
    const pick = (key: string) => (params.get(key) === account.accountId ? account : null);
    return (
      <>
        <p data-testid="url">{`${location.pathname}${location.search}`}</p>
        <ConnectNewDialog open={params.get("new") === "1"} onClose={close} closeHref="/galacord" channels={channels} />
        <ChangePlanetDialog open={!!pick("planet")} onClose={close} closeHref="/galacord" account={pick("planet")} />
        <RelayOptionsDialog open={!!pick("options")} onClose={close} closeHref="/galacord" account={pick("options")} />
        <DeleteConnection account={pick("confirm")} onClose={close} closeHref="/galacord" />
      </>
    );
  }
  renderRemixStub(
    [
      {
        path: "/galacord",
        Component: Page,
        action: async (args) => {
          posted.push(Object.fromEntries(await args.request.clone().formData()));
          return answer(args);
        },
      },
    ],
    { initialEntries: [initial] },
  );
  return { posted };
}

const url = () => screen.getByTestId("url").textContent;

describe("New connection (the ID button's dialog)", () => {
  it("Connect is disabled until a channel and a recovery code are given; channels are grouped by server; it posts connect-new and closes on success", async () => {
    const { posted } = setup(async () => redirect("/galacord"), "/galacord?new=1");
    const dialog = await screen.findByRole("dialog", { name: "New connection" });
    const connect = within(dialog).getByRole("button", { name: "Connect" });
    expect(connect).toHaveProperty("disabled", true);
    const select = within(dialog).getByLabelText("Channel") as HTMLSelectElement;
    expect([...select.querySelectorAll("optgroup")].map((g) => g.label)).toEqual(["Galaxy Fans", "Test Server"]);
    fireEvent.change(select, { target: { value: "c2" } });
    expect(connect).toHaveProperty("disabled", true);
    fireEvent.change(within(dialog).getByLabelText("Recovery code"), { target: { value: "ABCDEFGHIJ" } });
    expect(connect).toHaveProperty("disabled", false);
    fireEvent.click(connect);
    await waitFor(() => expect(url()).toBe("/galacord"));
    expect(posted).toEqual([{ intent: "connect-new", channelId: "c2", recoveryCode: "ABCDEFGHIJ" }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("a refusal (the action redirects back to ?new=1 with the reason) keeps the dialog open with the channel and the code", async () => {
    const { posted } = setup(async () => redirect("/galacord?new=1"), "/galacord?new=1");
    const dialog = await screen.findByRole("dialog", { name: "New connection" });
    fireEvent.change(within(dialog).getByLabelText("Channel"), { target: { value: "c3" } });
    fireEvent.change(within(dialog).getByLabelText("Recovery code"), { target: { value: "REFUSED123" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Connect" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Connect" })).toHaveProperty("disabled", false));
    expect(url()).toBe("/galacord?new=1");
    expect((within(dialog).getByLabelText("Channel") as HTMLSelectElement).value).toBe("c3");
    expect((within(dialog).getByLabelText("Recovery code") as HTMLInputElement).value).toBe("REFUSED123");
  });

  it("a post that cannot reach the app (the route's clientAction, the form kit) keeps the dialog and what was typed, with the kit's toast", async () => {
    const error = vi.spyOn(toast, "error").mockReturnValue("id");
    const unreachable = keepInputOnFailure();
    setup(
      async ({ request, params, context }) =>
        unreachable({ request, params, context, serverAction: () => Promise.reject(new TypeError("Failed to fetch")) } as never),
      "/galacord?new=1",
    );
    const dialog = await screen.findByRole("dialog", { name: "New connection" });
    fireEvent.change(within(dialog).getByLabelText("Channel"), { target: { value: "c1" } });
    fireEvent.change(within(dialog).getByLabelText("Recovery code"), { target: { value: "OFFLINE123" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Connect" }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(SUBMIT_FAILURE_TEXTS.unreachable));
    expect(screen.getByRole("dialog", { name: "New connection" })).toBe(dialog);
    expect((within(dialog).getByLabelText("Channel") as HTMLSelectElement).value).toBe("c1");
    expect((within(dialog).getByLabelText("Recovery code") as HTMLInputElement).value).toBe("OFFLINE123");
  });

  it("Cancel closes it (back to /galacord) without posting", async () => {
    const { posted } = setup(async () => redirect("/galacord"), "/galacord?new=1");
    const dialog = await screen.findByRole("dialog", { name: "New connection" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(url()).toBe("/galacord"));
    expect(posted).toEqual([]);
  });
});

describe("Change Planet", () => {
  it("names where the account is, offers the three planets or another by name, says it is not connected, and posts planet", async () => {
    const { posted } = setup(async () => redirect("/galacord"), "/galacord?planet=1001");
    const dialog = await screen.findByRole("dialog", { name: "Change Planet" });
    expect(dialog.textContent).toContain("Relayer is on Sirius.");
    expect(dialog.textContent).toContain("Not connected to Galaxy");
    expect(
      within(dialog)
        .getAllByRole("radio")
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual([...PLANET_OPTIONS]);
    const submit = within(dialog).getByRole("button", { name: "Change Planet" });
    expect(submit).toHaveProperty("disabled", true);
    fireEvent.click(within(dialog).getByLabelText("Trade(Swap)"));
    expect(submit).toHaveProperty("disabled", false);
    fireEvent.click(submit);
    await waitFor(() => expect(url()).toBe("/galacord"));
    expect(posted).toEqual([{ intent: "planet", accountId: "1001", planet: "Trade(Swap)", custom: "" }]);
  });
});

describe("Relay Options", () => {
  it("shows the saved options and posts what was edited", async () => {
    const { posted } = setup(async () => redirect("/galacord"), "/galacord?options=1001");
    const dialog = await screen.findByRole("dialog", { name: "Relay Options" });
    expect((within(dialog).getByLabelText("Name on Discord") as HTMLInputElement).value).toBe("{nick}");
    expect((within(dialog).getByLabelText(/Ignore nicks/) as HTMLTextAreaElement).value).toBe("spammer\nbob");
    expect((within(dialog).getByLabelText(/Ignore messages matching/) as HTMLInputElement).value).toBe("^!");
    fireEvent.change(within(dialog).getByLabelText("Name on Galaxy"), { target: { value: "[D] {nick}" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save Options" }));
    await waitFor(() => expect(url()).toBe("/galacord"));
    expect(posted).toEqual([
      { intent: "options", accountId: "1001", discordName: "{nick}", galaxyName: "[D] {nick}", ignoreNicks: "spammer\nbob", ignoreMessages: "^!" },
    ]);
  });
});

describe("Delete Connection", () => {
  it("asks first in an alert dialog that names the account and channel, then posts delete", async () => {
    const { posted } = setup(async () => redirect("/galacord"), "/galacord?confirm=1001");
    const confirm = await screen.findByRole("alertdialog", { name: "Delete Connection" });
    expect(confirm.textContent).toContain("Delete the connection of Relayer to #relay? Its saved recovery code is deleted too. This cannot be undone.");
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(posted).toEqual([{ intent: "delete", accountId: "1001" }]));
    await waitFor(() => expect(url()).toBe("/galacord"));
  });
});
