import { createElement, type ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { Prerendered, setPrerenderer } from "./prerendered";

type Host = ReactElement<{ id?: string; children?: ReactElement; dangerouslySetInnerHTML?: { __html: string } }>;
// Components of the module, as parts are (each is its own part).
const Part = () => createElement("p", null, "the same for everyone");
const Broken = () => createElement("p", null, "broken");
const render = (component: () => ReactElement) => Prerendered({ as: "section", component, id: "part" }) as Host;

describe("Prerendered", () => {
  it("renders its part live until the server's markup is ready, asks for it once, then reuses it", async () => {
    let finish = (_html: string) => {};
    const prerender = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const reused = vi.fn();
    // Before the server's entry sets a renderer (as in the browser), the part renders live.
    const browser = render(Part);
    expect(browser.props.children?.type).toBe(Part);

    setPrerenderer({ render: prerender, reused });
    const [first, second] = [render(Part), render(Part)];
    for (const host of [first, second]) {
      expect(host.type).toBe("section");
      expect(host.props.id).toBe("part");
      expect(host.props.children?.type).toBe(Part);
    }
    expect(prerender).toHaveBeenCalledTimes(1);

    finish("<p>the same for everyone</p>");
    await vi.waitFor(() => expect(render(Part).props.dangerouslySetInnerHTML).toEqual({ __html: "<p>the same for everyone</p>" }));
    const later = render(Part);
    expect(later.props.id).toBe("part");
    expect(later.props.children).toBeUndefined();
    expect(prerender).toHaveBeenCalledTimes(1);
    expect(reused).toHaveBeenCalledTimes(2);
  });

  it("renders a part live for good once its markup failed", async () => {
    let fail = (_error: Error) => {};
    const prerender = vi.fn(() => new Promise<string>((_, reject) => (fail = reject)));
    setPrerenderer({ render: prerender, reused: () => {} });
    expect(render(Broken).props.children?.type).toBe(Broken);
    fail(new Error("no markup"));
    await Promise.resolve();
    await Promise.resolve();
    for (let i = 0; i < 3; i++) expect(render(Broken).props.children?.type).toBe(Broken);
    expect(prerender).toHaveBeenCalledTimes(1);
  });
});
