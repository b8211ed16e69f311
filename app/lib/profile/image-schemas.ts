// The profile pictures' request parts, as the routes read them. Apart from images.ts because zod
// schemas built at a module's top level stay in every bundle that imports the module: the
// profile page's upload control imports images.ts, and must not load zod (issue 31).
import { z } from "../zod";
import { IMAGE_KINDS } from "./images";

export const imageKindSchema = z.enum(IMAGE_KINDS);

// User ids are UUIDs; anything else in the path is refused before R2 is asked.
export const imageUserIdSchema = z.string().regex(/^[0-9a-f-]{36}$/i);
