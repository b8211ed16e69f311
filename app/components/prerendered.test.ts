import { createElement, type ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Prerendered, type Prerenderer, setPrerenderer } from "./prerendered";

type Host = ReactElement<{ id?: string; children?: ReactElement; dangerouslySetInnerHTML?: { __html: string } }>;
// Components of the module, as parts are (each is its own part).
const Part = () => createElement("p", null, "the same for everyone");
const Broken = () => createElement("p", null, "broken");
const Asked = () => createElement("p", null, "asked live");
const Titled = ({ title }: { title: string }) => createElement("h2", null, title);
const Other = ({ title }: { title: string }) => createElement("h3", null, title);
const render = (component: () => ReactElement) => Prerendered({ as: "section", component, id: "part" }) as Host;
const renderTitled = (component: typeof Titled, props: { title: string }) => Prerendered({ as: "div", component, props }) as Host;
const live = (host: Host) => host.props.children?.type;

// The server's own renderer (this isolate may serve pages to other test files) is put back.
let server: Prerenderer | null = null;
beforeEach(() => {
  server = setPrerenderer(null);
});
afterEach(() => {
  setPrerenderer(server);
});

describe("Prerendered", () => {
  it("renders its part live until the server's markup is ready, asks for it once, then reuses it", async () => {
    let finish = (_html: string) => {};
    const prerender = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const reused = vi.fn();
    // Without a renderer (as in the browser), the part renders live however often it is seen.
    for (let i = 0; i < 3; i++) expect(live(render(Part))).toBe(Part);

    setPrerenderer({ render: prerender, live: () => false, reused });
    // The first page that shows the part renders it live; the second asks for its markup.
    const [first, second, third] = [render(Part), render(Part), render(Part)];
    for (const host of [first, second, third]) {
      expect(host.type).toBe("section");
      expect(host.props.id).toBe("part");
      expect(live(host)).toBe(Part);
    }
    expect(prerender).toHaveBeenCalledTimes(1);
    expect((prerender.mock.calls[0] as unknown as [ReactElement])[0].type).toBe(Part);

    finish("<p>the same for everyone</p>");
    await vi.waitFor(() => expect(render(Part).props.dangerouslySetInnerHTML).toEqual({ __html: "<p>the same for everyone</p>" }));
    const later = render(Part);
    expect(later.props.id).toBe("part");
    expect(later.props.children).toBeUndefined();
    expect(prerender).toHaveBeenCalledTimes(1);
    expect(reused).toHaveBeenCalledTimes(2);
  });

  it("keeps a part's markup per props object, and never renders for props made afresh each time", async () => {
    const prerender = vi.fn((part: ReactElement) => Promise.resolve(`<b>${(part.props as { title: string }).title}</b>`));
    setPrerenderer({ render: prerender, live: () => false, reused: () => {} });
    // Props built on every request: each object is seen once, so nothing is rendered for memory.
    for (let i = 0; i < 5; i++) expect(live(renderTitled(Titled, { title: "fresh" }))).toBe(Titled);
    expect(prerender).not.toHaveBeenCalled();

    const a = { title: "A" };
    const b = { title: "B" };
    for (const props of [a, a, b, b]) renderTitled(Titled, props);
    // Another component with the same props object is a part of its own.
    renderTitled(Other, a);
    renderTitled(Other, a);
    await vi.waitFor(() => expect(renderTitled(Titled, a).props.dangerouslySetInnerHTML?.__html).toBe("<b>A</b>"));
    expect(renderTitled(Titled, b).props.dangerouslySetInnerHTML?.__html).toBe("<b>B</b>");
    expect(renderTitled(Other, a).props.dangerouslySetInnerHTML?.__html).toBe("<b>A</b>");
    expect(prerender).toHaveBeenCalledTimes(3);
  });

  it("renders a part live for good once its markup failed", async () => {
    let fail = (_error: Error) => {};
    const prerender = vi.fn(() => new Promise<string>((_, reject) => (fail = reject)));
    setPrerenderer({ render: prerender, live: () => false, reused: () => {} });
    expect(live(render(Broken))).toBe(Broken);
    expect(live(render(Broken))).toBe(Broken);
    fail(new Error("no markup"));
    await Promise.resolve();
    await Promise.resolve();
    for (let i = 0; i < 3; i++) expect(live(render(Broken))).toBe(Broken);
    expect(prerender).toHaveBeenCalledTimes(1);
  });

  it("renders every part live for a request that asks, without counting it as a sighting", async () => {
    let askedLive = true;
    const prerender = vi.fn(() => Promise.resolve("<p>from memory</p>"));
    setPrerenderer({ render: prerender, live: () => askedLive, reused: () => {} });
    for (let i = 0; i < 3; i++) expect(live(render(Asked))).toBe(Asked);
    expect(prerender).not.toHaveBeenCalled();
    askedLive = false;
    render(Asked);
    render(Asked);
    await vi.waitFor(() => expect(render(Asked).props.dangerouslySetInnerHTML?.__html).toBe("<p>from memory</p>"));
    askedLive = true;
    expect(live(render(Asked))).toBe(Asked);
  });
});
