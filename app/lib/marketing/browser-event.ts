// The body a browser posts to /events. Apart from events.ts because a zod schema built at a
// module's top level stays in every bundle that imports the module: the funnel page imports
// events.ts, and must not load zod (issue 31).
import { MARKETING } from "../constants";
import { z } from "../zod";
import { BROWSER_EVENTS, recordablePath } from "./events";

/** The body a browser posts to /events. */
export const browserEventSchema = z.object({
  name: z.enum(BROWSER_EVENTS),
  path: z
    .string()
    .max(MARKETING.pathMax * 4)
    .transform((value, ctx) => {
      const path = recordablePath(value);
      if (path === null) ctx.addIssue({ code: "custom", message: "Not a path of this site" });
      return path ?? "";
    }),
});
