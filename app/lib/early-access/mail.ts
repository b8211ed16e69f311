// The waitlist's e-mails. Plain text, like the account e-mails: the key is in the text (to copy) and
// in the link (to redeem in one click after signing in or up). Both go to an address typed into the
// waitlist form, which nobody has proved, so they carry only our words: greeting the typed first
// name would let anyone put a line of their choosing in our mail to a stranger (issue 25 F3).
import type { OutgoingMail } from "../mail/mail.server";
import { EARLY_ACCESS } from "../constants";

export function earlyAccessKeyMail(to: string, formattedKey: string, link: string): OutgoingMail {
  return {
    to,
    subject: "Your Modelify early access key",
    text: [
      "Hi,",
      "",
      "Your place on the Modelify waitlist came up: here is your early access key.",
      "",
      `    ${formattedKey}`,
      "",
      "Redeem it here (sign in, or create an account with this address first):",
      link,
      "",
      `The key works once and expires in ${EARLY_ACCESS.keyValidityDays} days. Early access then lasts ${EARLY_ACCESS.accessDays} days.`,
    ].join("\n"),
    links: [link],
  };
}

/** Sent once, when an address first joins the waitlist. */
export function waitlistConfirmationMail(to: string, activateLink: string): OutgoingMail {
  return {
    to,
    subject: "You're on the Modelify waitlist",
    text: [
      "Hi,",
      "",
      "Thanks for joining the Modelify early access waitlist. Your place is saved.",
      "",
      `When your place comes up we'll e-mail you a ${EARLY_ACCESS.keyLength}-character activation key. Redeem it in your`,
      `dashboard, or open its link, to get ${EARLY_ACCESS.accessDays} days of early access to the desktop app.`,
      "",
      "Already have a key? Redeem it here:",
      activateLink,
      "",
      "If you didn't ask to join, you can ignore this e-mail: we won't write again unless your place comes up.",
    ].join("\n"),
    links: [activateLink],
  };
}
