// The site's dialogs, opened by ?modal=… on any marketing page (links in the footer, the hero and
// the FAQ), so each can be linked to and works without JavaScript. Closing drops the parameter.
// Their bodies (the contact form and its validation above all) load only when one is opened, so
// the pages that show none do not carry them.
import { lazy, Suspense } from "react";
import { useLocation } from "react-router";
import { withParams } from "../modal";
import { SITE_MODALS, type SiteModal } from "./site-modal-names";

type DialogsModule = typeof import("./site-dialogs");
let loaded: DialogsModule | null = null;

/**
 * The server's copy of the module, handed over by the site layout's loader when a dialog is asked
 * for (components/url-dialogs.server.ts), so the dialog is part of the HTML itself (a browser without
 * JavaScript sees it), not streamed behind a script.
 */
export function provideSiteDialogs(module: DialogsModule): void {
  loaded = module;
}

/** Loads the dialogs' module in the browser. */
async function loadSiteDialogs(): Promise<DialogsModule> {
  loaded ??= await import("./site-dialogs");
  return loaded;
}

// The browser's dialogs: React.lazy, with a thenable that resolves synchronously once the module
// is there. Never on the server (profile/edit-profile.tsx says why): the server renders the module
// the layout's loader handed over, or nothing.
const SiteDialog = lazy(() =>
  // biome-ignore lint/suspicious/noThenProperty: a synchronous thenable is the point (see above)
  loaded ? ({ then: (resolve: (module: DialogsModule) => void) => resolve(loaded as DialogsModule) } as unknown as Promise<DialogsModule>) : loadSiteDialogs(),
);

/** The current page with a dialog opened (or closed, with null). */
export function useModalHref() {
  const { pathname, search } = useLocation();
  return (modal: SiteModal | null, extra: Record<string, string | null> = {}) => withParams(pathname, search, { modal, ...extra });
}

export function SiteModals({ inbox, defaults }: { inbox: string; defaults?: { name?: string; email?: string } }) {
  const { search } = useLocation();
  const asked = new URLSearchParams(search).get("modal");
  const open = SITE_MODALS.find((m) => m === asked);
  if (!open) return null;
  const Loaded = loaded?.default;
  return (
    <Suspense fallback={null}>
      {typeof document !== "undefined" ? (
        <SiteDialog open={open} inbox={inbox} defaults={defaults} />
      ) : Loaded ? (
        <Loaded open={open} inbox={inbox} defaults={defaults} />
      ) : null}
    </Suspense>
  );
}
