import { describe, expect, it } from "vitest";
import { savedValues, unsavedChanges } from "./unsaved-changes";
import type { ProfileView } from "./view";

const PROFILE: ProfileView = {
  userId: "3b241101-e2bb-4255-8caf-4136c566a962",
  email: "ada@example.com",
  pendingEmail: null,
  username: "ada",
  usernameChangeableInDays: 0,
  firstName: "Ada",
  lastName: "Lovelace",
  initial: "",
  bio: "",
  company: "",
  website: "",
  location: "",
  timezone: "UTC",
  locale: "",
  phoneNumber: null,
  phoneStatus: "unverified",
  phoneCodeExpiresAt: null,
  avatarUrl: null,
  coverPhotoUrl: null,
  securityQuestion: null,
  hasSecurityAnswer: false,
  joinedAt: 0,
  emailChangeNeedsCode: false,
};
const SAVED = savedValues(PROFILE);

describe("the Edit Profile's unsaved changes", () => {
  it("shows a pending e-mail change as the address and never the answer", () => {
    expect(savedValues({ ...PROFILE, pendingEmail: "new@example.com" }).email).toBe("new@example.com");
    expect(SAVED.securityAnswer).toBe("");
    expect(SAVED.phoneNumber).toBe("");
  });

  it("has none when the form holds what is saved", () => {
    expect(unsavedChanges(SAVED, SAVED)).toEqual({ autoSaved: false, explicitOnly: false, username: false, email: false, any: false });
  });

  it("starts the auto-save countdown for an ordinary field", () => {
    expect(unsavedChanges({ ...SAVED, bio: "Hello" }, SAVED)).toMatchObject({ autoSaved: true, explicitOnly: false, any: true });
  });

  it("leaves the username and the e-mail to the Save button", () => {
    expect(unsavedChanges({ ...SAVED, username: "ada2" }, SAVED)).toEqual({ autoSaved: false, explicitOnly: true, username: true, email: false, any: true });
    expect(unsavedChanges({ ...SAVED, email: "a@example.org" }, SAVED)).toEqual({
      autoSaved: false,
      explicitOnly: true,
      username: false,
      email: true,
      any: true,
    });
  });

  it("counts an emptied username as no change (it keeps the saved one)", () => {
    expect(unsavedChanges({ ...SAVED, username: "" }, SAVED).any).toBe(false);
  });
});
