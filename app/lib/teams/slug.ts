// A team's slug, made from its name: the part of its pages' URLs (/dashboard/teams/:slug/...).
import { TEAMS } from "../constants";

// A slug the dashboard's own paths could be mistaken for, or that reads as an action.
const RESERVED = new Set(["new", "create", "invitations", "personal"]);

/** Lower-case ASCII letters, digits and single hyphens; accents folded ("Équipe Zoë" → "equipe-zoe"); never empty. */
export function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, TEAMS.slugMaxLength - SUFFIX_LENGTH)
    .replace(/-+$/g, "");
  if (!base || RESERVED.has(base)) return base ? `${base}-team` : "team";
  return base;
}

const SUFFIX_LENGTH = 5;

/** The slug with a short random suffix, for a name whose slug another team holds. */
export function withSuffix(slug: string): string {
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => (b % 36).toString(36)).join("");
  return `${slug}-${digits}`;
}

/** Whether a URL segment can be a slug at all (a loader answers 404 for anything else without a query). */
export function isSlug(value: string): boolean {
  return value.length <= TEAMS.slugMaxLength && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}
