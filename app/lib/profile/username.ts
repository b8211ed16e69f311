// Username rules: 3 to 20 characters of letters, digits, underscore and hyphen; no word
// from a fixed profanity list; none of the reserved terms admin, mod, support, help.
import { MS, USERNAME } from "../constants";
import { PROFILE_MESSAGES as M } from "./messages";

const RESERVED_TERMS = ["admin", "mod", "support", "help"] as const;

// Words refused anywhere in a name. Short words that hide inside ordinary ones ("ass" in
// "classic", "tit" in "title") are refused only as a whole part of the name (see below).
const PROFANITY_ANYWHERE = [
  "fuck",
  "shit",
  "bitch",
  "cunt",
  "asshole",
  "bastard",
  "dickhead",
  "motherf",
  "nigger",
  "nigga",
  "faggot",
  "whore",
  "slut",
  "wanker",
  "bollock",
  "twat",
  "pussy",
  "retard",
  "rapist",
  "nazi",
];
const PROFANITY_WHOLE_PART = ["ass", "arse", "dick", "cock", "tit", "tits", "piss", "fag", "cum", "sex", "porn", "hoe", "damn", "crap", "prick", "kkk"];

// Digit substitutions people use to get a word past a list.
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", $: "s" };

function deLeet(value: string): string {
  return value.replace(/[0134578@$]/g, (c) => LEET[c] ?? c);
}

export function containsProfanity(username: string): boolean {
  const lower = username.toLowerCase();
  const variants = [lower, deLeet(lower)];
  for (const v of variants) {
    const squashed = v.replace(/[_-]/g, "");
    if (PROFANITY_ANYWHERE.some((w) => squashed.includes(w))) return true;
    const parts = v.split(/[_\-0-9]+/).filter(Boolean);
    if (parts.some((p) => PROFANITY_WHOLE_PART.includes(p))) return true;
  }
  return false;
}

function containsReservedTerm(username: string): boolean {
  const lower = username.toLowerCase();
  return RESERVED_TERMS.some((term) => lower.includes(term));
}

/** The first rule a username breaks (spec order), or null when it is acceptable. */
export function usernameProblem(username: string): string | null {
  if (username.length < USERNAME.minLength) return M.usernameTooShort;
  if (username.length > USERNAME.maxLength) return M.usernameTooLong;
  if (!/^[A-Za-z0-9_-]+$/.test(username)) return M.usernameCharacters;
  if (containsProfanity(username)) return M.usernameProfanity;
  if (containsReservedTerm(username)) return M.usernameReserved;
  return null;
}

/**
 * Whole days until the username may change again: 0 when it may change now. A first username
 * (none saved yet) is always allowed.
 */
export function daysUntilUsernameChange(current: { username: string | null; usernameLastChanged: number | null }, now = Date.now()): number {
  if (!current.username || current.usernameLastChanged === null) return 0;
  const nextAllowed = current.usernameLastChanged + USERNAME.changeIntervalMs;
  if (nextAllowed <= now) return 0;
  return Math.ceil((nextAllowed - now) / MS.DAY);
}
