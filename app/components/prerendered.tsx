// A part of a page that is the same for every visitor and every request: a component with no
// props that reads no context and no request (the landing page's app preview, feature grid,
// download steps and FAQ; the plan's list of what it includes). On the server its markup is
// rendered once per isolate, in the background after the first page that shows it, and then goes
// into every page as its host element's inner HTML; React renders the part itself everywhere else
// (the first page, the browser), so hydration finds the markup it would have rendered.
// docs/performance.md has the figures.
import { type ComponentType, createElement, type HTMLAttributes } from "react";

/** How the server renders a part to its markup, and notes a part answered from memory. */
export type Prerenderer = { render(part: ComponentType): Promise<string>; reused(): void };

let prerenderer: Prerenderer | null = null;
// A part's markup, its render in progress, or `false` once that render failed (live from then on).
const markups = new Map<ComponentType, string | Promise<void> | false>();

/** Set by the server's entry; never in the browser, which always renders the part. */
export function setPrerenderer(value: Prerenderer): void {
  prerenderer = value;
}

type PrerenderedProps = { as: "div" | "section" | "ol" | "ul"; component: ComponentType } & Omit<
  HTMLAttributes<HTMLElement>,
  "children" | "dangerouslySetInnerHTML"
>;

/** `component` inside an `as` element with the given attributes, its markup reused on the server. */
export function Prerendered({ as, component: part, ...attributes }: PrerenderedProps) {
  if (prerenderer !== null) {
    const known = markups.get(part);
    if (typeof known === "string") {
      prerenderer.reused();
      return createElement(as, { ...attributes, dangerouslySetInnerHTML: { __html: known } });
    }
    if (known === undefined) {
      markups.set(
        part,
        prerenderer.render(part).then(
          (html) => void markups.set(part, html),
          () => void markups.set(part, false),
        ),
      );
    }
  }
  return createElement(as, attributes, createElement(part));
}
