import { describe, expect, it } from "vitest";
import { PROFILE } from "../constants";
import { clearBackup, freshBackup, writeBackup } from "./backup";
import type { ProfileFormValues } from "./form-fields";

const USER = "3b241101-e2bb-4255-8caf-4136c566a962";
const SAVED: ProfileFormValues = {
  firstName: "Ada",
  lastName: "Lovelace",
  initial: "",
  username: "ada",
  email: "ada@example.com",
  phoneNumber: "",
  bio: "",
  company: "",
  location: "",
  website: "",
  timezone: "UTC",
  locale: "",
  securityQuestion: "",
  securityAnswer: "",
};

function memoryStorage() {
  const items = new Map<string, string>();
  const store = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  return { items, storage: () => store };
}

describe("the Edit Profile backup", () => {
  it("is restored while under 24 h old and differing from what is saved", () => {
    const { storage } = memoryStorage();
    writeBackup(USER, { ...SAVED, bio: "Unsaved bio" }, storage, 1_000);
    expect(freshBackup(USER, SAVED, 1_000 + PROFILE.backupValidityMs, storage)?.values.bio).toBe("Unsaved bio");
  });

  it("is dropped once older than 24 h", () => {
    const { items, storage } = memoryStorage();
    writeBackup(USER, { ...SAVED, bio: "Unsaved bio" }, storage, 1_000);
    expect(freshBackup(USER, SAVED, 1_001 + PROFILE.backupValidityMs, storage)).toBeNull();
    expect(items.size).toBe(0);
  });

  it("is not offered when it matches what is saved", () => {
    const { storage } = memoryStorage();
    writeBackup(USER, SAVED, storage, 1_000);
    expect(freshBackup(USER, SAVED, 2_000, storage)).toBeNull();
  });

  it("never holds the security answer", () => {
    const { items, storage } = memoryStorage();
    writeBackup(USER, { ...SAVED, securityAnswer: "my first pet" }, storage, 1_000);
    expect([...items.values()].join("")).not.toContain("my first pet");
  });

  it("is kept per account and cleared", () => {
    const { storage } = memoryStorage();
    writeBackup(USER, { ...SAVED, bio: "Unsaved bio" }, storage, 1_000);
    expect(freshBackup("another-user", SAVED, 2_000, storage)).toBeNull();
    clearBackup(USER, storage);
    expect(freshBackup(USER, SAVED, 2_000, storage)).toBeNull();
  });

  it("does nothing when storage is missing, broken or holds something else", () => {
    const missing = () => {
      throw new Error("localStorage is not available");
    };
    expect(() => writeBackup(USER, SAVED, missing)).not.toThrow();
    expect(() => clearBackup(USER, missing)).not.toThrow();
    expect(freshBackup(USER, SAVED, 2_000, missing)).toBeNull();
    const { items, storage } = memoryStorage();
    items.set(`modelify:profile-backup:${USER}`, "not json");
    expect(freshBackup(USER, SAVED, 2_000, storage)).toBeNull();
    items.set(`modelify:profile-backup:${USER}`, JSON.stringify({ values: { bio: "no date" } }));
    expect(freshBackup(USER, SAVED, 2_000, storage)).toBeNull();
  });
});
