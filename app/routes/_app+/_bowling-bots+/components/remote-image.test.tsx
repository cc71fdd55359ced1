// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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

describe("spec 1 §7 'Images are fetched and cached in a browser cache store whose name has a v1 suffix'", () => {
  it("a readable picture is stored in Cache Storage 'gift-images-v1' and shown from there", async () => {
    const opened: string[] = [];
    const stored = new Map<string, Response>();
    const cacheStorage = {
      open: (name: string) => {
        opened.push(name);
        return Promise.resolve({
          match: (url: string) => Promise.resolve(stored.get(url)?.clone()),
          put: (url: string, res: Response) => {
            stored.set(url, res);
            return Promise.resolve();
          },
        });
      },
    };
    const realFetch = globalThis.fetch;
    vi.stubGlobal("caches", cacheStorage);
    vi.stubGlobal("fetch", () => Promise.resolve(new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } })));
    try {
      const { container } = render(<RemoteImage src="http://img/cached-avatar.png" alt="Cached" />);
      await waitFor(() => expect(screen.getByAltText("Cached").getAttribute("src")).toMatch(/^blob:/));
      expect(opened).toContain("gift-images-v1");
      expect(opened.every((n) => n.endsWith("v1"))).toBe(true);
      expect([...stored.keys()]).toEqual(["http://img/cached-avatar.png"]);
      fireEvent.load(screen.getByAltText("Cached"));
      expect(frame(container).getAttribute("data-state")).toBe("loaded");
    } finally {
      vi.unstubAllGlobals();
      globalThis.fetch = realFetch;
    }
  });
});
