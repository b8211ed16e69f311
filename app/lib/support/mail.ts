// The e-mails of a support message: the message itself to the support mailbox (replies go to the
// sender), and an acknowledgement to the sender with the 24-hour promise. Anyone can type any
// address into the form, so the acknowledgement quotes the message only when it goes to the
// signed-in sender's own confirmed address; otherwise it is our fixed text and nothing typed,
// or the site would relay a stranger's words (and links) from its real sender (issue 25 F3).
import type { OutgoingMail } from "../mail/mail.server";
import { SUPPORT } from "../constants";
import type { SupportMessageForm } from "./validation";

export function supportInboxMail(inbox: string, form: SupportMessageForm, meta: { id: string; userId: string | null; adminLink: string }): OutgoingMail {
  return {
    to: inbox,
    replyTo: form.email,
    subject: `[Support · ${form.priority}] ${form.subject}`,
    text: [
      `From: ${form.name} <${form.email}>`,
      `Priority: ${form.priority}`,
      `Account: ${meta.userId ? `signed in (user ${meta.userId})` : "not signed in"}`,
      `Message id: ${meta.id}`,
      "",
      form.message,
      "",
      `Reply to this e-mail to answer ${form.name}. Close the message when it is done:`,
      meta.adminLink,
    ].join("\n"),
    links: [meta.adminLink],
  };
}

const ACKNOWLEDGEMENT_SUBJECT = "We received your message";

/**
 * To the address typed in the form, which nobody has proved: every word is ours. The sender's
 * name, subject and message stay with us (the support inbox has them).
 */
export function supportAcknowledgementMail(to: string, contactLink: string): OutgoingMail {
  return {
    to,
    subject: ACKNOWLEDGEMENT_SUBJECT,
    text: [
      "Hi,",
      "",
      `Thanks for contacting Modelify support. We've received your message and will reply within ${SUPPORT.responseHours} hours.`,
      "",
      "Need to add something? Reply to our answer when it arrives, or write again here:",
      contactLink,
      "",
      "If you didn't write to us, you can ignore this e-mail.",
    ].join("\n"),
    links: [contactLink],
  };
}

/** To a signed-in sender's own confirmed address, so it may carry their words back to them. */
export function supportCopyMail(form: SupportMessageForm, contactLink: string): OutgoingMail {
  return {
    to: form.email,
    subject: `${ACKNOWLEDGEMENT_SUBJECT}: ${form.subject}`.slice(0, 300),
    text: [
      `Hi ${form.name},`,
      "",
      `Thanks for contacting Modelify support. We've received your message and will reply within ${SUPPORT.responseHours} hours.`,
      "",
      "Your message:",
      ...form.message.split("\n").map((line) => `> ${line}`),
      "",
      "Need to add something? Reply to our answer when it arrives, or write again here:",
      contactLink,
    ].join("\n"),
    links: [contactLink],
  };
}
