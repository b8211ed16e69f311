// The dialogs a URL opens (?edit=1 on the profile, ?modal=… on the site) are loaded lazily in the
// browser, but the server takes them from its own bundle, imported statically here. A dynamic
// import on the server is a promise of the isolate, shared by the requests that start it together,
// and in workerd a request waiting on a promise another request started is cancelled as hung (seven
// parallel profile saves hung one of them). The loaders that render a dialog hand its module to the
// component (components/profile/edit-profile.tsx, components/site/site-modals.tsx).
import * as editProfileDialog from "./profile/edit-profile-dialog";
import * as siteDialogs from "./site/site-dialogs";

export const urlDialogs = { editProfileDialog, siteDialogs } as const;
