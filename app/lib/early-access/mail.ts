// The e-mail that carries a granted activation key. Plain text, like the account e-mails: the key
// is in the text (to copy) and in the link (to redeem in one click after signing in or up).
import type { OutgoingMail } from "../mail/mail.server";
import { EARLY_ACCESS } from "../constants";

export function earlyAccessKeyMail(to: string, firstName: string | null, formattedKey: string, link: string): OutgoingMail {
  return {
    to,
    subject: "Your Modelify early access key",
    text: [
      firstName ? `Hi ${firstName},` : "Hi,",
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
