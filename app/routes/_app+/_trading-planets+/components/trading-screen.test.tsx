// @vitest-environment happy-dom
import type { ActionFunctionArgs } from "@remix-run/node";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toast } from "~/components/ui/toast";
import { TRADING_ERRORS, type Ad, type CustomPlanet, type PlanetSequence } from "#api/trading";
import { renderRemixStub } from "../../../../../tests/kit/component";
import TradingPlanetsRoute from "../trading-planets";

/**
 * Spec 2 §2 "Trading Planets screen" as a component test: the real screen in a Remix stub
 * (loader data, real <Form>s posting to a recording action) in happy-dom.
 */
afterEach(cleanup);

const sequences: PlanetSequence[] = [
  {
    _id: "11111111-1111-4111-8111-111111111111",
    name: "Morning",
    seconds: 8,
    closedPlanetsLevel: 51,
    openPlanetsLevel: 15,
    isActive: true,
    sequence: [
      { id: "a", planetType: "ring", shuffle: true },
      { id: "b", planetType: "russian", shuffle: false },
    ],
  },
  {
    _id: "22222222-2222-4222-8222-222222222222",
    name: "Evening",
    seconds: 6,
    closedPlanetsLevel: 40,
    openPlanetsLevel: 10,
    isActive: false,
    sequence: [{ id: "c", planetType: "bowling", shuffle: true }],
  },
];
const planets: CustomPlanet[] = [
  { _id: "33333333-3333-4333-8333-333333333333", name: "Spam Den", type: "blacklisted" },
  { _id: "44444444-4444-4444-8444-444444444444", name: "Hall", type: "english" },
];
const ads: Ad[] = [
  { _id: "55555555-5555-4555-8555-555555555555", adsMessage: "WTS ⭐ rings", category: "ads", isActive: true },
  { _id: "66666666-6666-4666-8666-666666666666", adsMessage: "Hi there 👋", category: "msg", isActive: false },
];

function setup(url = "/trading-planets") {
  const posted: Record<string, FormDataEntryValue>[] = [];
  renderRemixStub(
    [
      {
        path: "/trading-planets",
        Component: TradingPlanetsRoute,
        loader: () => ({ sequences, planets, ads, traders: [], loadError: null }),
        action: async ({ request }: ActionFunctionArgs) => {
          posted.push(Object.fromEntries(await request.formData()));
          return { ok: true };
        },
      },
    ],
    { initialEntries: [url] },
  );
  return { posted };
}

describe("Trading Planets screen", () => {
  it("lists sequences with seconds badge, ≤ closed, ≥ open and numbered chips with a star when shuffled, in a 400 px box", async () => {
    setup();
    // The card once dnd-kit has loaded (the server's list is replaced then); names come from the card's name (issue 20).
    const card = (await screen.findByRole("button", { name: "Drag Morning" }, { timeout: 10_000 })).closest("li")!;
    expect(within(card as HTMLElement).getByText("Morning")).toBeTruthy();
    expect(within(card as HTMLElement).getByRole("link", { name: "Edit Morning" })).toBeTruthy();
    expect(within(card as HTMLElement).getByRole("switch", { name: "Active: Morning" })).toBeTruthy();
    expect(within(card as HTMLElement).getByText("8s")).toBeTruthy();
    expect(within(card as HTMLElement).getByText("≤ 51")).toBeTruthy();
    expect(within(card as HTMLElement).getByText("≥ 15")).toBeTruthy();
    const chips = within(card as HTMLElement).getByRole("list", { name: "Planets of Morning" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1. ring ★", "2. russian"]);
    expect((screen.getByTestId("sequence-box") as HTMLElement).style.maxHeight).toBe("400px");
    expect(screen.getByRole("link", { name: "New Sequence" }).getAttribute("href")).toBe("/trading-planets?sequence=new");
    expect(screen.getByRole("link", { name: "Custom Planets" }).getAttribute("href")).toBe("/trading-planets?planets=blacklisted");
  });

  it("shows ads and messages in their sections", async () => {
    setup();
    const adsList = await screen.findByRole("list", { name: "Ads" });
    expect(within(adsList).getByText("WTS ⭐ rings")).toBeTruthy();
    expect(within(screen.getByRole("list", { name: "Messages" })).getByText("Hi there 👋")).toBeTruthy();
  });

  it("the sequence form checks §5 in the browser and posts nothing until valid", async () => {
    const { posted } = setup("/trading-planets?sequence=new");
    const create = await screen.findByRole("button", { name: "Create" });
    expect((screen.getByLabelText("Seconds") as HTMLInputElement).value).toBe("6");
    fireEvent.click(create);
    await screen.findByText(TRADING_ERRORS.sequenceName);
    expect(screen.getByText(TRADING_ERRORS.sequencePlanets)).toBeTruthy();
    expect(posted).toEqual([]);
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Night" } });
    fireEvent.click(screen.getByRole("button", { name: "Add planet" }));
    await screen.findByRole("button", { name: "Remove planet 1" });
    // Enter in a field submits with the form's first submit button: a plain save, not a planet's move/remove.
    const first = create.closest("form")!.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(first.name).toBe("");
    expect(first.disabled).toBe(false);
    fireEvent.click(create);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      intent: "sequence-save",
      name: "Night",
      planetType: "ring",
      seconds: "6",
      closedPlanetsLevel: "51",
      openPlanetsLevel: "15",
    });
  });

  it("the Custom Planets dialog shows the tab's chips and asks before deleting", async () => {
    setup("/trading-planets?planets=blacklisted&confirm=planet:33333333-3333-4333-8333-333333333333");
    const dialog = await screen.findByRole("dialog", { name: "Custom Planets" });
    expect((within(dialog).getByLabelText("Rename Spam Den") as HTMLInputElement).value).toBe("Spam Den");
    expect(within(dialog).queryByLabelText("Rename Hall")).toBeNull();
    const confirm = within(dialog).getByRole("alertdialog");
    expect(confirm.textContent).toContain("Delete Planet");
    expect(confirm.textContent).toContain("Are you sure you want to delete “Spam Den”?");
  });

  it("a blank ad is refused in the browser with “Please enter an ad message”", async () => {
    const { posted } = setup();
    const add = (await screen.findAllByRole("button", { name: "Add" })).at(-1)!;
    fireEvent.click(add);
    await screen.findByText(TRADING_ERRORS.adMessage);
    expect(posted).toEqual([]);
  });

  it("after “Ad created successfully” the new message input is empty again; a failed add keeps the text", async () => {
    const list = [...ads];
    let fail = true;
    renderRemixStub([
      {
        path: "/trading-planets",
        Component: TradingPlanetsRoute,
        loader: () => ({ sequences, planets, ads: [...list], traders: [], loadError: null }),
        action: async ({ request }: ActionFunctionArgs) => {
          const fd = await request.formData();
          if (!fail) list.push({ _id: "77777777-7777-4777-8777-777777777777", adsMessage: String(fd.get("adsMessage")), category: "ads", isActive: true });
          return { ok: !fail };
        },
      },
    ]);
    const input = (await screen.findByLabelText("New message")) as HTMLInputElement;
    const add = (await screen.findAllByRole("button", { name: "Add" })).at(-1)!;
    fireEvent.change(input, { target: { value: "Fresh ad ✨" } });
    fireEvent.click(add);
    await new Promise((r) => setTimeout(r, 300));
    expect((screen.getByLabelText("New message") as HTMLInputElement).value).toBe("Fresh ad ✨");
    fail = false;
    fireEvent.click(add);
    await screen.findByText("Fresh ad ✨", { selector: "button" });
    await waitFor(() => expect((screen.getByLabelText("New message") as HTMLInputElement).value).toBe(""));
  });

  it("after “Custom planet created successfully” the planet name input is empty again", async () => {
    const list = [...planets];
    renderRemixStub(
      [
        {
          path: "/trading-planets",
          Component: TradingPlanetsRoute,
          loader: () => ({ sequences, planets: [...list], ads, traders: [], loadError: null }),
          action: async ({ request }: ActionFunctionArgs) => {
            const fd = await request.formData();
            list.push({ _id: "88888888-8888-4888-8888-888888888888", name: String(fd.get("name")), type: "blacklisted" });
            // As the server does: back to the URL the form was posted to (the dialog stays open; the kit's
            // `redirectTo` is there only without JavaScript).
            const to = new URL(request.url);
            return new Response(null, { status: 302, headers: { Location: String(fd.get("redirectTo") ?? `${to.pathname}${to.search}`) } });
          },
        },
      ],
      { initialEntries: ["/trading-planets?planets=blacklisted"] },
    );
    const dialog = await screen.findByRole("dialog", { name: "Custom Planets" });
    fireEvent.change(within(dialog).getByLabelText("Planet name"), { target: { value: "JunkYard" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add" }));
    await screen.findByLabelText("Rename JunkYard");
    await waitFor(() => expect((screen.getByLabelText("Planet name") as HTMLInputElement).value).toBe(""));
  });

  it("spec 2 §8: a failed ads load toasts “Failed to load ads” and says so; the sequences still show", async () => {
    const shown = vi.spyOn(toast, "error");
    renderRemixStub([
      {
        path: "/trading-planets",
        Component: TradingPlanetsRoute,
        loader: () => ({ sequences, planets, ads: [], traders: [], loadError: "Failed to load ads", loadErrors: ["Failed to load ads"] }),
      },
    ]);
    await screen.findByText("Morning");
    await waitFor(() => expect(shown).toHaveBeenCalledWith("Failed to load ads"));
    expect(screen.getByText("Failed to load ads")).toBeTruthy();
    shown.mockRestore();
  });

  it("a click on an ad's text copies it exactly to the clipboard", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    setup();
    fireEvent.click(await screen.findByRole("button", { name: "WTS ⭐ rings" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("WTS ⭐ rings"));
  });

  it("a 500 ms press on delete starts multi-select (nothing deleted); Delete Selected asks “Delete Selected Ads” and posts the ids", async () => {
    const { posted } = setup();
    const del = await screen.findByRole("button", { name: "Delete WTS ⭐ rings" });
    expect(screen.queryByRole("button", { name: /Delete Selected/ })).toBeNull();
    fireEvent.pointerDown(del);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole("button", { name: /Delete Selected/ })).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    fireEvent.pointerUp(del);
    fireEvent.click(del);
    await screen.findByRole("button", { name: /Delete Selected/ });
    expect(posted).toEqual([]);
    expect((screen.getByRole("checkbox", { name: "Select WTS ⭐ rings" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "Select Hi there 👋" }));
    fireEvent.click(screen.getByRole("button", { name: /Delete Selected/ }));
    const confirm = await screen.findByRole("alertdialog", { name: "Delete Selected Ads" });
    expect(confirm.textContent).toContain("cannot be undone");
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ intent: "ads-delete-selected" });
  });

  it("a press held 500 ms by its input's stamps is long even when its release is handled before the timer (a busy page handles input first)", async () => {
    const { posted } = setup();
    const del = await screen.findByRole("button", { name: "Delete WTS ⭐ rings" });
    const stamped = (type: "pointerdown" | "pointerup", timeStamp: number) => {
      const event = new PointerEvent(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, "timeStamp", { value: timeStamp });
      return event;
    };
    // Pressed at 1,000 ms and released at 1,700 ms, both handled now: the 500 ms timer has not run.
    fireEvent(del, stamped("pointerdown", 1_000));
    fireEvent(del, stamped("pointerup", 1_700));
    fireEvent.click(del);
    await screen.findByRole("button", { name: /Delete Selected/ });
    expect((screen.getByRole("checkbox", { name: "Select WTS ⭐ rings" }) as HTMLInputElement).checked).toBe(true);
    expect(posted).toEqual([]);
  });

  it("a short press on delete deletes that ad at once", async () => {
    const { posted } = setup();
    const del = await screen.findByRole("button", { name: "Delete Hi there 👋" });
    fireEvent.pointerDown(del);
    fireEvent.pointerUp(del);
    fireEvent.click(del);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ intent: "ad-delete", id: "66666666-6666-4666-8666-666666666666" });
  });

  it("the ad active switch turns at once (optimistic) and posts the new value", async () => {
    const { posted } = setup();
    const sw = await screen.findByRole("switch", { name: "Active: WTS ⭐ rings" });
    expect(sw.getAttribute("aria-checked")).toBe("true");
    fireEvent.click(sw);
    expect(sw.getAttribute("aria-checked")).toBe("false");
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ intent: "ad-active", id: "55555555-5555-4555-8555-555555555555", isActive: "false" });
  });
});
