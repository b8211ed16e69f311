// A part of a page that is the same for every visitor and every request: a component that reads
// no context and no request, with no props or with props built once per isolate (the landing
// page's app preview, feature grid, download steps and FAQ; the plan's list of what it includes
// and Free vs Pro; the API reference, from the OpenAPI document). On the server its markup is rendered once per
// isolate, in the background after the second page that shows it, and then goes into every page as
// its host element's inner HTML; React renders the part itself everywhere else (the first pages,
// the browser), so hydration finds the markup it would have rendered. docs/performance.md has the
// figures.
import { type ComponentType, createElement, type HTMLAttributes, type ReactElement } from "react";

/**
 * How the server renders a part to its markup, whether the current request renders its parts live
 * regardless (a local test's request), and how it notes a part answered from memory.
 */
export type Prerenderer = { render(part: ReactElement): Promise<string>; live(): boolean; reused(): void };

let prerenderer: Prerenderer | null = null;

// Each part's markup by its component, then by its props object (NO_PROPS for a part without):
// SEEN after the first page that shows it, then its render in progress, then the markup, or
// `false` once that render failed (live from then on). A part is rendered for memory only when
// the same props object comes back: a page that builds its props afresh on every request (a
// mistake: they would not be the same) renders live and never twice.
const SEEN = Symbol("seen");
type Entry = typeof SEEN | Promise<void> | string | false;
const NO_PROPS = {};
// biome-ignore lint/suspicious/noExplicitAny: a part's props are whatever its component takes
const markups = new WeakMap<ComponentType<any>, WeakMap<object, Entry>>();

/**
 * Set by the server's entry; never in the browser, which always renders the part. Returns the
 * one it replaces (a test puts it back).
 */
export function setPrerenderer(value: Prerenderer | null): Prerenderer | null {
  const previous = prerenderer;
  prerenderer = value;
  return previous;
}

type PrerenderedProps<P extends object> = {
  as: "article" | "div" | "section" | "ol" | "ul";
  component: ComponentType<P>;
  /** The part's props: the same object on every request (built once per isolate). */
  props?: P;
} & Omit<HTMLAttributes<HTMLElement>, "children" | "dangerouslySetInnerHTML">;

/** `component` inside an `as` element with the given attributes, its markup reused on the server. */
export function Prerendered<P extends object>({ as, component, props, ...attributes }: PrerenderedProps<P>) {
  if (prerenderer !== null && !prerenderer.live()) {
    let byProps = markups.get(component);
    if (byProps === undefined) {
      byProps = new WeakMap();
      markups.set(component, byProps);
    }
    const key = props ?? NO_PROPS;
    const known = byProps.get(key);
    if (typeof known === "string") {
      prerenderer.reused();
      return createElement(as, { ...attributes, dangerouslySetInnerHTML: { __html: known } });
    }
    if (known === undefined) byProps.set(key, SEEN);
    else if (known === SEEN) {
      byProps.set(
        key,
        prerenderer.render(createElement(component, props)).then(
          (html) => void byProps.set(key, html),
          () => void byProps.set(key, false),
        ),
      );
    }
  }
  return createElement(as, attributes, createElement(component, props));
}
