// A person's name has one rule on every form that asks for it (lib/person-name.ts): a name at the
// longest signs up, is the profile's name after the first sign-in, saves on the profile and joins
// the waitlist; one character more is refused by each of them in the same words. Sign-up took 100
// characters while the profile and the waitlist took 50, so such an account could never save its
// profile (issue 47).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PERSON_NAME } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { PERSON_NAME_MESSAGES } from "~/lib/person-name";
import { Browser, db, linkPath, profileFormFields, signUpFields, uniqueEmail, visibleText, waitForMail } from "./helpers";

// Letters only, no spaces: the same name whether or not a form trims it.
const nameOf = (length: number, letter: string) => `${letter.toUpperCase()}${letter.repeat(length - 1)}`;
const longest = { firstName: nameOf(PERSON_NAME.maxLength, "a"), lastName: nameOf(PERSON_NAME.maxLength, "l") };

async function userOf(email: string) {
  return (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!;
}

async function profileOf(email: string) {
  const user = await userOf(email);
  return db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id) });
}

/** Signs up through the form with these names, confirms through the mailed link: signed in. */
async function signUpAs(names: { firstName: string; lastName: string }) {
  const email = uniqueEmail("names");
  const browser = new Browser();
  const signup = await browser.post("/auth?mode=signup", signUpFields(email, names));
  expect(signup.status).toBe(200);
  const mail = await waitForMail(email, /Confirm your Modelify account/);
  const token = new URL(mail.links[0]!).searchParams.get("token")!;
  expect((await browser.get(linkPath(mail.links[0]!))).status).toBe(200);
  expect((await browser.post(linkPath(mail.links[0]!), { token })).status).toBe(302);
  return { browser, email };
}

function saveProfile(browser: Browser, email: string, names: { firstName: string; lastName: string }) {
  return browser.post("/dashboard/profile?edit=1", profileFormFields(email, names));
}

function joinWaitlist(names: { firstName: string; lastName: string }, email = uniqueEmail("names-wait")) {
  return new Browser().post("/early-access", { email, ...names, company: "" });
}

describe("a person's name: one rule on every form", () => {
  it(`a name of ${PERSON_NAME.maxLength} characters signs up, becomes the profile's, saves on the profile and joins the waitlist`, async () => {
    const { browser, email } = await signUpAs(longest);
    expect(await profileOf(email)).toMatchObject(longest);

    const saved = await saveProfile(browser, email, longest);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/dashboard/profile?saved=1");
    expect(await profileOf(email)).toMatchObject(longest);

    const waitlisted = uniqueEmail("names-wait");
    expect((await joinWaitlist(longest, waitlisted)).status).toBe(200);
    expect(await db.query.waitlist.findFirst({ where: eq(schema.waitlist.email, waitlisted) })).toMatchObject(longest);
  });

  it.each([
    ["First name", { ...longest, firstName: nameOf(PERSON_NAME.maxLength + 1, "a") }],
    ["Last name", { ...longest, lastName: nameOf(PERSON_NAME.maxLength + 1, "l") }],
  ] as const)("a %s one character longer is refused by sign-up, the profile and the waitlist in the same words", async (field, names) => {
    const message = PERSON_NAME_MESSAGES.tooLong(field);
    const email = uniqueEmail("names-over");

    const signup = await new Browser().post("/auth?mode=signup", signUpFields(email, names));
    expect(signup.status).toBe(400);
    expect(visibleText(await signup.text())).toContain(message);
    expect(await db.query.users.findFirst({ where: eq(schema.users.email, email) })).toBeUndefined();

    const { browser, email: member } = await signUpAs(longest);
    const saved = await saveProfile(browser, member, names);
    expect(saved.status).toBe(400);
    expect(visibleText(await saved.text())).toContain(message);
    expect(await profileOf(member)).toMatchObject(longest);

    const waitlisted = uniqueEmail("names-over-wait");
    const joined = await joinWaitlist(names, waitlisted);
    expect(joined.status).toBe(400);
    expect(visibleText(await joined.text())).toContain(message);
    expect(await db.query.waitlist.findFirst({ where: eq(schema.waitlist.email, waitlisted) })).toBeUndefined();
  });
});
