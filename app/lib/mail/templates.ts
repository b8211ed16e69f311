// Texts of the account e-mails. Plain text keeps them readable in every client and in the outbox.
import { DATA_EXPORT, EMAIL_CHANGE, ONE_TIME_TOKEN, TEAMS, TWO_FACTOR_LOCK_GROWTH } from "../constants";
import { formatDuration } from "../format";
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
      `The link works once and expires in ${formatDuration(ONE_TIME_TOKEN.signupTtlMs, "hour")}. If you did not sign up, ignore this e-mail.`,
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
      `The link works once and expires in ${formatDuration(ONE_TIME_TOKEN.recoveryTtlMs, "hour")}. Resetting signs out every other session.`,
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

export function emailChangeMail(to: string, link: string): OutgoingMail {
  return {
    to,
    subject: "Confirm your new Modelify e-mail address",
    text: [
      "Someone asked to use this address for a Modelify account.",
      "",
      "Confirm the change here:",
      link,
      "",
      `The account's e-mail address changes only when you confirm. The link works once and expires in ${formatDuration(EMAIL_CHANGE.linkTtlMs, "hour")}.`,
      "If you did not ask for this, ignore this e-mail: nothing changes.",
    ].join("\n"),
    links: [link],
  };
}

/** Sent instead of a link when the new address already has an account, so nobody learns that from the answer. */
export function emailInUseMail(to: string): OutgoingMail {
  return {
    to,
    subject: "Your e-mail address was entered on Modelify",
    text: [
      "Someone tried to change the e-mail address of a Modelify account to this address.",
      "This address already belongs to a Modelify account, so nothing was changed.",
      "",
      "If this was you, keep using your current account with this address, or choose another address for the other account.",
      "If it was not you, you can ignore this e-mail.",
    ].join("\n"),
    links: [],
  };
}

/** To the previous address, once the change is confirmed. Resets now go to the new address, so support is the way back. */
export function emailChangedNotice(to: string, newEmail: string): OutgoingMail {
  return {
    to,
    subject: "Your Modelify e-mail address was changed",
    text: [
      `The e-mail address of your Modelify account was changed to ${newEmail}.`,
      "From now on, sign in with the new address.",
      "",
      "If you did not make this change, someone may have access to your account: write to support@modelify.dev right away,",
      "from this address, so we can restore it. Password resets now go to the new address.",
    ].join("\n"),
    links: [],
  };
}

/** To the account's current address when a change to another address is asked for. */
export function emailChangeRequestedNotice(to: string, newEmail: string, cancelLink: string): OutgoingMail {
  return {
    to,
    subject: "A change of your Modelify e-mail address was requested",
    text: [
      `Someone signed in to your Modelify account, entered its password and asked to change its e-mail address to ${newEmail}.`,
      `The address changes only if that inbox confirms the change within ${formatDuration(EMAIL_CHANGE.linkTtlMs, "hour")}.`,
      "",
      "If this was not you, cancel the change here. Cancelling also signs out every browser and desktop app on your account:",
      cancelLink,
      "",
      "Then reset your password: whoever asked knows it. If this was you, there is nothing to do.",
    ].join("\n"),
    links: [cancelLink],
  };
}

export function twoFactorEnabledMail(to: string): OutgoingMail {
  return {
    to,
    subject: "Two-factor sign-in is on for your Modelify account",
    text: [
      "Two-factor sign-in was turned on for your Modelify account.",
      "From now on, signing in, approving the desktop app and the app's password sign-in ask for a code from your authenticator app or a recovery code.",
      "",
      "If you did not do this, reset your password at once and contact us.",
    ].join("\n"),
    links: [],
  };
}

export function twoFactorDisabledMail(to: string): OutgoingMail {
  return {
    to,
    subject: "Two-factor sign-in is off for your Modelify account",
    text: [
      "Two-factor sign-in was turned off for your Modelify account: signing in now asks for the password only.",
      "",
      "If you did not do this, reset your password at once and turn two-factor sign-in on again.",
    ].join("\n"),
    links: [],
  };
}

/**
 * An export the owner asked for is ready (issue 46). No link to the file itself: the profile's "Your
 * data" has it, behind the owner's sign-in; `yourData` is that section's address, when the
 * request said which site it came from.
 */
export function dataExportReadyMail(to: string, yourData: string | null): OutgoingMail {
  return {
    to,
    subject: "Your Modelify data is ready to download",
    text: [
      "The copy of your Modelify data you asked for is ready.",
      "",
      yourData ? `Sign in and download it from your profile: ${yourData}` : "Sign in and download it from your profile, under Your data.",
      `The download works for ${formatDuration(DATA_EXPORT.linkTtlMs, "hour")}.`,
      "",
      "If you did not ask for it, someone signed in to your account did: change your password and sign out everywhere from your profile.",
    ].join("\n"),
    links: yourData ? [yourData] : [],
  };
}

export function recoveryCodesReplacedMail(to: string): OutgoingMail {
  return {
    to,
    subject: "New recovery codes for your Modelify account",
    text: [
      "New two-factor recovery codes were made for your Modelify account. The old ones no longer work.",
      "",
      "If you did not do this, reset your password at once and contact us.",
    ].join("\n"),
    links: [],
  };
}

export function recoveryCodeUsedMail(to: string, codesLeft: number): OutgoingMail {
  return {
    to,
    subject: "A recovery code of your Modelify account was used",
    text: [
      "One of your two-factor recovery codes was just used instead of a code from your authenticator app. It cannot be used again.",
      `Recovery codes left: ${codesLeft}.`,
      "",
      "If you did not do this, reset your password at once and contact us.",
    ].join("\n"),
    links: [],
  };
}

/**
 * A passkey was added to the account (issue 45): a new way in, so the owner hears of it with the
 * device it was added from (our own name for its browser and system, never text the user chose)
 * and the page that removes it.
 */
export function passkeyAddedMail(to: string, device: string, passkeysPage: string): OutgoingMail {
  return {
    to,
    subject: "A passkey was added to your Modelify account",
    text: [
      `A passkey was just added to your Modelify account from ${device}. It signs in without your password.`,
      "",
      "If this was not you, remove it and reset your password at once:",
      passkeysPage,
    ].join("\n"),
    links: [passkeysPage],
  };
}

/**
 * The password was changed while signed in (issue 46): the owner hears of it, with the device it
 * was changed from (our words), and how to take the account back if it was not them.
 */
export function passwordChangedMail(to: string, device: string, resetLink: string): OutgoingMail {
  return {
    to,
    subject: "Your Modelify password was changed",
    text: [
      `The password of your Modelify account was just changed, from ${device}. Every other session and device was signed out.`,
      "",
      "If this was not you, reset your password at once:",
      resetLink,
    ].join("\n"),
    links: [resetLink],
  };
}

export function passkeyRemovedMail(to: string, device: string, passkeysPage: string): OutgoingMail {
  return {
    to,
    subject: "A passkey was removed from your Modelify account",
    text: [
      `A passkey was just removed from your Modelify account, from ${device}. It no longer signs in.`,
      "",
      "If this was not you, reset your password at once and check your passkeys:",
      passkeysPage,
    ].join("\n"),
    links: [passkeysPage],
  };
}

/**
 * A personal API key was made or revoked (issue 49): named by its prefix and the device it came
 * from, in our words (never the name the user typed), with the page that lists and revokes keys.
 */
export function apiKeyCreatedMail(to: string, prefix: string, device: string, keysPage: string): OutgoingMail {
  return {
    to,
    subject: "An API key was made for your Modelify account",
    text: [
      `A personal API key (${prefix}…) was just made for your Modelify account, from ${device}. It reads your usage: every model call's model, tokens, cost and time.`,
      "",
      "If this was not you, revoke it and reset your password at once:",
      keysPage,
    ].join("\n"),
    links: [keysPage],
  };
}

export function apiKeyRevokedMail(to: string, prefix: string, device: string, keysPage: string): OutgoingMail {
  return {
    to,
    subject: "An API key of your Modelify account was revoked",
    text: [
      `The personal API key ${prefix}… of your Modelify account was just revoked, from ${device}. It no longer reads your usage.`,
      "",
      "If this was not you, reset your password at once and check your keys:",
      keysPage,
    ].join("\n"),
    links: [keysPage],
  };
}

export function accountDeletedMail(to: string): OutgoingMail {
  return {
    to,
    subject: "Your Modelify account is deleted",
    text: [
      "Your Modelify account and the data it held are deleted, as you asked.",
      "",
      "Any subscription was cancelled at once; there is no refund for the part of the month already paid.",
      "We keep only what the privacy policy names: the security audit log, with your address replaced by a hash, and the invoices our payment provider must keep.",
      "",
      "You can sign up again with this address at any time: it will be a new account.",
    ].join("\n"),
    links: [],
  };
}

/**
 * The two-factor code lock tripped (issue 45): whoever typed the codes got past the password. No
 * code, address or time in it: the owner needs only to know, and the way to change the password.
 */
export function codeLockTrippedMail(to: string, changePasswordLink: string): OutgoingMail {
  return {
    to,
    subject: "Wrong two-factor codes were entered for your Modelify account",
    text: [
      "Someone who knows your Modelify password just entered several wrong two-factor codes, so signing in with a code is paused for a while.",
      `Each time this happens again, the pause is longer, up to ${formatDuration(TWO_FACTOR_LOCK_GROWTH.maxLockMs, "day", { article: true })}.`,
      "",
      "If this was you, wait a little, then sign in with a code from your authenticator app or a recovery code.",
      "If it was not you, your password is known to someone else: change it now. Changing it signs out every other session.",
      changePasswordLink,
    ].join("\n"),
    links: [changePasswordLink],
  };
}

/**
 * Asked for on a phone (issue 46): the Downloads page to open on a computer. Its link is the
 * signed-in page, never a signed installer link, which would expire long before the e-mail is read.
 */
export function downloadLinkMail(to: string, downloadsPage: string): OutgoingMail {
  return {
    to,
    subject: "Download Modelify on your computer",
    text: [
      "You asked for a link to download Modelify, the desktop app for Windows, macOS and Linux.",
      "",
      "Open this page on your computer and sign in: it offers the build for that computer.",
      downloadsPage,
      "",
      "If you did not ask for this, you can ignore this e-mail.",
    ].join("\n"),
    links: [downloadsPage],
  };
}

/**
 * An invitation to a team (issue 50). Fixed words only: the team's name and the inviter's are
 * chosen by the inviter, and this goes to an address nobody has proved, so neither is in it (the
 * invitation's page shows them once the invited address signs in).
 */
export function teamInvitationMail(to: string, link: string): OutgoingMail {
  return {
    to,
    subject: "You have been invited to join a team on Modelify",
    text: [
      "You have been invited to join a team on Modelify.",
      "",
      "Open this link and sign in (or sign up) with this e-mail address to see the invitation and accept it:",
      link,
      "",
      `The link works once and expires in ${formatDuration(TEAMS.invitationTtlMs, "day")}. If you did not expect it, ignore this e-mail.`,
    ].join("\n"),
    links: [link],
  };
}
