// The two e-mails of a support message: the message itself to the support mailbox (replies go to
// the sender), and an acknowledgement to the sender with the 24-hour promise.
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

export function supportAcknowledgementMail(form: SupportMessageForm, contactLink: string): OutgoingMail {
  return {
    to: form.email,
    subject: `We received your message: ${form.subject}`.slice(0, 300),
    text: [
      `Hi ${form.name},`,
      "",
      `Thanks for contacting Modelify support. We've received your message and will reply within ${SUPPORT.responseHours} hours.`,
      "",
      "Your message:",
      ...form.message.split("\n").map((line) => `> ${line}`),
      "",
      "Need to add something? Reply to this e-mail's answer when it arrives, or write again here:",
      contactLink,
      "",
      "If you didn't write to us, you can ignore this e-mail.",
    ].join("\n"),
    links: [contactLink],
  };
}
