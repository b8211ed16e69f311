// Teams for the integration tests (issue 50): made through the page as a person would, or written
// straight to D1 when a test needs a shape the pages take many steps to reach.
import { expect } from "vitest";
import { schema } from "~/lib/db.server";
import { type Browser, db } from "./helpers";

/** A team created on /dashboard/teams by `browser`'s account (its owner), as the page answers it. */
export async function createTeamAs(browser: Browser, name: string) {
  const made = await browser.post("/dashboard/teams", { name });
  expect(made.status).toBe(303);
  const slug = made.headers.get("Location")!.split("/").pop()!;
  const team = await db.query.teams.findFirst({ where: (t, { eq }) => eq(t.slug, slug) });
  return { slug, id: team!.id };
}

/** A team written to D1: its owner, admins and members (all joined now), named `Team <slug>`. */
export async function insertTeam({
  ownerId,
  admins = [],
  members = [],
  seats = 10,
  createdAt = Date.now(),
}: {
  ownerId: string;
  admins?: string[];
  members?: string[];
  seats?: number;
  createdAt?: number;
}) {
  const id = crypto.randomUUID();
  const slug = `team-${id.slice(0, 8)}`;
  await db.insert(schema.teams).values({ id, slug, name: `Team ${slug}`, ownerId, seats, createdAt });
  const joinedAt = Date.now();
  await db
    .insert(schema.teamMembers)
    .values([
      { teamId: id, userId: ownerId, role: "owner", joinedAt },
      ...admins.map((userId) => ({ teamId: id, userId, role: "admin" as const, joinedAt })),
      ...members.map((userId) => ({ teamId: id, userId, role: "member" as const, joinedAt })),
    ]);
  return { id, slug };
}
