// Texts built from the constants (issue 47: no page retypes a business number) read, with
// today's constants, exactly as the spec and the earlier pages wrote them: the build must change
// no word a user sees. If a constant changes, its texts change with it and this list with them.
import { describe, expect, it } from "vitest";
import { EXPORT_MESSAGES } from "./account/messages";
import { AUTH_MESSAGES } from "./auth/messages";
import { LOCKOUT, MS } from "./constants";
import { REFRESH_REFUSALS } from "./auth/oauth";
import { PLAN_PRICE } from "./billing/plan-comparison";
import { EMAIL_LINK_MESSAGES } from "./downloads/messages";
import { EARLY_ACCESS_MESSAGES, WAITLIST_MESSAGES } from "./early-access/messages";
import { codeLockTrippedMail, confirmationMail, dataExportReadyMail, emailChangeMail, emailChangeRequestedNotice, passwordResetMail } from "./mail/templates";
import { PROFILE_MESSAGES, UPLOAD_MESSAGES } from "./profile/messages";
import { SUPPORT_MESSAGES } from "./support/messages";

describe("texts built from the constants", () => {
  it("keep the spec's words for the price, the locks, the lengths and the picture caps", () => {
    expect(PLAN_PRICE).toBe("$4.99");
    expect(AUTH_MESSAGES.signInLocked).toBe("Too many failed attempts. Account locked for 15 minutes.");
    expect(AUTH_MESSAGES.signUpLocked).toBe("Too many failed signup attempts. Please wait 30 minutes before trying again.");
    expect(AUTH_MESSAGES.twoFactorLocked(LOCKOUT.twoFactor.lockMs / MS.SECOND)).toBe("Too many wrong codes. Two-factor sign-in is locked for 15 minutes.");
    expect(AUTH_MESSAGES.twoFactorLocked(14 * 60 + 1)).toBe("Too many wrong codes. Two-factor sign-in is locked for 15 minutes.");
    expect(AUTH_MESSAGES.twoFactorLocked(16 * 3600 - 60)).toBe("Too many wrong codes. Two-factor sign-in is locked for 16 hours.");
    expect(AUTH_MESSAGES.twoFactorRequired).toBe("Enter the 6-digit code from your authenticator app, or a recovery code.");
    expect(AUTH_MESSAGES.passwordTooShort).toBe("Password must be at least 8 characters long");
    expect(AUTH_MESSAGES.passwordTooLong).toBe("Password must be 128 characters or less");
    expect(AUTH_MESSAGES.securityAnswerTooShort).toBe("Please provide a security answer (at least 3 characters)");
    expect(AUTH_MESSAGES.middleInitialTooLong).toBe("Middle initial must be 10 characters or less");
    expect(PROFILE_MESSAGES.firstNameTooShort).toBe("First name must be at least 2 characters long.");
    expect(PROFILE_MESSAGES.lastNameTooShort).toBe("Last name must be at least 2 characters long.");
    expect(PROFILE_MESSAGES.usernameTooShort).toBe("Username must be at least 3 characters long");
    expect(PROFILE_MESSAGES.usernameTooLong).toBe("Username must be 20 characters or less");
    expect(PROFILE_MESSAGES.securityAnswerTooShort).toBe("Please provide a security answer (at least 3 characters)");
    expect(UPLOAD_MESSAGES.avatarTooLarge).toBe("Image size must be less than 5MB.");
    expect(UPLOAD_MESSAGES.coverTooLarge).toBe("Cover photo size must be less than 10MB.");
    expect(REFRESH_REFUSALS.inactive).toBe("Signed out after 30 days without a sign-in. Please sign in again.");
  });

  it("keep the words of the caps and what they count", () => {
    expect(EXPORT_MESSAGES.tooMany).toBe("You can ask for one export an hour. The link to your latest export works for 24 hours.");
    expect(EXPORT_MESSAGES.allowed).toBe("One export an hour.");
    expect(EXPORT_MESSAGES.linkLife).toBe("24 hours");
    expect(EMAIL_LINK_MESSAGES.tooMany).toBe("You asked for the link several times already. Check your inbox, or try again in an hour.");
    expect(SUPPORT_MESSAGES.tooMany).toBe("You've sent several messages already. Please wait an hour, or write to us directly.");
    expect(WAITLIST_MESSAGES.tooManyJoins).toBe("Too many sign-ups from your network. Please try again in an hour.");
    expect(EARLY_ACCESS_MESSAGES.invalidKey).toBe("Please enter a 16-character activation key (letters and numbers).");
  });

  it("keep the mails' expiries", () => {
    expect(confirmationMail("a@b.co", "https://x/1").text).toContain("The link works once and expires in 24 hours.");
    expect(passwordResetMail("a@b.co", "https://x/1").text).toContain("The link works once and expires in 1 hour.");
    expect(emailChangeMail("a@b.co", "https://x/1").text).toContain("The link works once and expires in 24 hours.");
    expect(emailChangeRequestedNotice("a@b.co", "c@d.co", "https://x/1").text).toContain("confirms the change within 24 hours.");
    expect(codeLockTrippedMail("a@b.co", "https://x/1").text).toContain("the pause is longer, up to a day.");
    expect(dataExportReadyMail("a@b.co", null).text).toContain("The download works for 24 hours.");
  });
});
