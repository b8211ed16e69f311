// Texts of Contact Support. The spec names the fields and marks four as required; the wording of
// the messages is ours.
import { SUPPORT } from "../constants";
import { formatDuration, SITE_FORMATS } from "../format";

export const SUPPORT_MESSAGES = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  subjectRequired: "Subject is required",
  messageRequired: "Message is required",
  tooLong: (max: number) => `Please keep this under ${SITE_FORMATS.integer(max)} characters`,
  sent: `Message sent! We'll get back to you within ${SUPPORT.responseHours} hours.`,
  // Either cap (per sender address, per client address) may refuse: the wait is the longer window.
  tooMany: `You've sent several messages already. Please wait ${formatDuration(Math.max(SUPPORT.perAddress.windowMs, SUPPORT.perIp.windowMs), "hour", { article: true })}, or write to us directly.`,
  unexpected: "Your message could not be sent. Please try again in a moment.",
} as const;
