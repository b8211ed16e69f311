// zod, configured once for every schema of the app. Its object parsers compile code with
// `new Function` unless told otherwise; a strict Content-Security-Policy (no 'unsafe-eval')
// forbids that, and even zod's probe for it shows up as a CSP violation in the browser.
// Every module builds its schemas with this `z`, so the setting is in place before any exists.
import { z } from "zod";

z.config({ jitless: true });

export { z };
