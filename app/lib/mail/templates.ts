// Texts of the account e-mails. Plain text keeps them readable in every client and in the outbox.
import type { OutgoingMail } from "./mail.server";

export function confirmationMail(to: string, link: string): OutgoingMail {
  return {
    to,
    subject: "Confirm your Modelify account",
    text: [
      "Welcome to Modelify!",
      "",
      "Confirm your e-mail address to finish creating your account:",
      link,
      "",
      "The link works once and expires in 24 hours. If you did not sign up, ignore this e-mail.",
    ].join("\n"),
    links: [link],
  };
}

export function passwordResetMail(to: string, link: string): OutgoingMail {
  return {
    to,
    subject: "Reset your Modelify password",
    text: [
      "Someone asked to reset the password of your Modelify account.",
      "",
      "Choose a new password here:",
      link,
      "",
      "The link works once and expires in 1 hour. Resetting signs out every other session.",
      "If you did not ask for this, ignore this e-mail: your password stays the same.",
    ].join("\n"),
    links: [link],
  };
}

export function alreadyRegisteredMail(to: string, signInLink: string, resetLink: string): OutgoingMail {
  return {
    to,
    subject: "You already have a Modelify account",
    text: [
      "Someone tried to create a Modelify account with this e-mail address, which already has one.",
      "",
      `Sign in: ${signInLink}`,
      `Forgot your password? ${resetLink}`,
      "",
      "If this was not you, you can ignore this e-mail.",
    ].join("\n"),
    links: [signInLink, resetLink],
  };
}
