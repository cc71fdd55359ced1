// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RemoteImage } from "./remote-image";

/** Spec 1 §2 "Images: loading skeleton, then the image, or an error state with an optional fallback image"; avatars fall back to initials. */
afterEach(cleanup);

// happy-dom loads no images: every <img> reports `complete` at once. A browser reports it only
// once the picture loaded or failed, which the tests below signal with load/error events.
const completeDescriptor = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "complete");
beforeAll(() => Object.defineProperty(HTMLImageElement.prototype, "complete", { configurable: true, get: () => false }));
afterAll(() => {
  if (completeDescriptor) Object.defineProperty(HTMLImageElement.prototype, "complete", completeDescriptor);
  else delete (HTMLImageElement.prototype as { complete?: boolean }).complete;
});

const frame = (c: HTMLElement) => c.querySelector(".gt-remote-img")!;

describe("spec 1 §2 images", () => {
  it("skeleton (loading) until the picture loads, then loaded", async () => {
    const { container } = render(<RemoteImage src="http://img/a.png" alt="Item" />);
    await screen.findByAltText("Item");
    expect(frame(container).getAttribute("data-state")).toBe("loading");
    fireEvent.load(screen.getByAltText("Item"));
    expect(frame(container).getAttribute("data-state")).toBe("loaded");
  });

  it("a failed picture tries the fallback image, then shows the error state", async () => {
    const { container } = render(<RemoteImage src="http://img/a.png" alt="Item" fallback="http://img/fallback.png" />);
    fireEvent.error(await screen.findByAltText("Item"));
    expect(screen.getByAltText("Item").getAttribute("src")).toBe("http://img/fallback.png");
    fireEvent.error(screen.getByAltText("Item"));
    expect(frame(container).getAttribute("data-state")).toBe("error");
  });

  it("an avatar shows initials without a picture and when the picture fails", async () => {
    const none = render(<RemoteImage src={null} alt="Picture of Ann" initials="AN" round />);
    expect((await none.findByRole("img", { name: "Picture of Ann" })).textContent).toBe("AN");
    none.unmount();
    render(<RemoteImage src="http://img/p.png" alt="Picture of Bob" initials="BO" round />);
    fireEvent.error(await screen.findByAltText("Picture of Bob"));
    expect(screen.getByRole("img", { name: "Picture of Bob" }).textContent).toBe("BO");
  });
});
