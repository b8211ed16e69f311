// A page link's cursor (keyset pagination): the last or first row's key of the page it was written
// on, as base64url of its JSON so it sits in a URL as one plain parameter. The address bar is user
// input, so reading one back checks every field with the page's own schema.
import type { z } from "./zod";

export function encodePageCursor(cursor: object): string {
  return btoa(JSON.stringify(cursor)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** The cursor `text` carries, or null for anything that is not one `schema` accepts. */
export function decodePageCursor<T>(text: string, schema: z.ZodType<T>): T | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(atob(text.replaceAll("-", "+").replaceAll("_", "/"))));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
