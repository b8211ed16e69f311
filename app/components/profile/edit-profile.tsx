// The profile page's Edit Profile dialog, opened by ?edit=1. Its code (the form, conform, the
// uploads, the username confirmation) loads only when it is opened, so the profile page without
// it stays within the JavaScript budget (issue 31), the way the site's dialogs do
// (components/site/site-modals.tsx).
import { lazy, Suspense } from "react";
import type { EditProfileProps } from "./edit-profile-dialog";

type DialogModule = typeof import("./edit-profile-dialog");
let loaded: DialogModule | null = null;

/**
 * The server's copy of the module, handed over by the profile's loader when ?edit=1 is asked for
 * (components/url-dialogs.server.ts), so the dialog is part of the HTML itself (a browser without
 * JavaScript sees it and posts it as a plain form).
 */
export function provideEditProfile(module: DialogModule): void {
  loaded = module;
}

/** Loads the dialog's module in the browser. */
async function loadEditProfile(): Promise<DialogModule> {
  loaded ??= await import("./edit-profile-dialog");
  return loaded;
}

// In the browser a page opened with ?edit=1 asks for the module as soon as this file runs, before
// hydration: when it is there in time the dialog hydrates with the page; otherwise its server HTML
// stays as it is (a plain form) until the module arrives.
if (typeof document !== "undefined" && new URLSearchParams(document.location.search).get("edit") === "1") void loadEditProfile();

// The browser's dialog: React.lazy, with a thenable that resolves synchronously once the module
// is there (rendered without suspending). Never on the server: a lazy component keeps the first
// import's promise for the isolate's life, and a request that waits on a promise another request
// started hangs in workerd (the runtime cancels it). The server renders the module its loader
// handed over, or nothing.
const Dialog = lazy(() =>
  // biome-ignore lint/suspicious/noThenProperty: a synchronous thenable is the point (see above)
  loaded ? ({ then: (resolve: (module: DialogModule) => void) => resolve(loaded as DialogModule) } as unknown as Promise<DialogModule>) : loadEditProfile(),
);

function OnServer(props: EditProfileProps) {
  const Loaded = loaded?.default;
  return Loaded ? <Loaded {...props} /> : null;
}

export function EditProfile(props: EditProfileProps) {
  return <Suspense fallback={null}>{typeof document === "undefined" ? <OnServer {...props} /> : <Dialog {...props} />}</Suspense>;
}
