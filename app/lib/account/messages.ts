// The words of "Delete my account" and "Download my data" (issue 29).
import { DATA_EXPORT } from "../constants";
import { formatDuration, formatPer } from "../format";

/** "one export an hour": the cap on asking (DATA_EXPORT.perUser). */
const exportsAllowed = `${DATA_EXPORT.perUser.limit === 1 ? "one export" : `${DATA_EXPORT.perUser.limit} exports`} ${formatPer(DATA_EXPORT.perUser.windowMs, "hour")}`;

export const DELETION_MESSAGES = {
  passwordRequired: "Enter your password to delete your account.",
  passwordWrong: "That password is not right.",
  locked: "Too many wrong passwords. Try again later.",
  codeRequired: "Enter a code from your authenticator app or a recovery code.",
  codeWrong: "That code is not right.",
  billingFailed: "We could not cancel your subscription with our payment provider, so nothing was deleted. Try again in a few minutes.",
  alreadyDeleting: "This account is already being deleted: another request of yours got there first.",
  ownsTeam: "You own a team that has other members: transfer its ownership to one of them (or remove them) before deleting your account.",
} as const;

export const EXPORT_MESSAGES = {
  requested: "We are preparing your data. It takes a minute or two: the link shows below when it is ready, and we e-mail you then.",
  ready: "Your data is ready: download it below.",
  tooMany: `You can ask for ${exportsAllowed}. The link to your latest export works for ${formatDuration(DATA_EXPORT.linkTtlMs, "hour")}.`,
  /** The same cap, as a sentence of the profile's Your data card. */
  allowed: `${exportsAllowed.charAt(0).toUpperCase()}${exportsAllowed.slice(1)}.`,
  notFound: "That export is not available. It may have expired: ask for a new one.",
  /** How long an export's link works: "24 hours". */
  linkLife: formatDuration(DATA_EXPORT.linkTtlMs, "hour"),
} as const;
