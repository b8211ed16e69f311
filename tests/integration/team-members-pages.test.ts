// The members page a page at a time (issue 50): a team of more than TEAMS.membersPerPage members,
// written straight to D1, walked through the Worker by its Next and Previous links. Every member
// appears once, in the page's order (owner, admins, members; each by joined time, then account
// id); a page link it cannot read answers 400 with its sentence; the actions return to the page
// they were taken on; the list's statement seeks in team_members_page_idx.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TEAMS } from "~/lib/constants";
import { chunks, getDb, schema } from "~/lib/db.server";
import { MEMBER_PAGE_MESSAGES, memberPage, parseMemberPage } from "~/lib/teams/member-page.server";
import { memberCount } from "~/lib/teams/teams.server";
import { type Browser, createConfirmedUser, db, uniqueEmail, visibleText } from "./helpers";
import { createTeamAs } from "./team-helpers";

const RANK = { owner: 0, admin: 1, member: 2 } as const;
const ADMINS = 4;
// Enough members for three pages, the last one short.
const MEMBERS = 2 * TEAMS.membersPerPage - ADMINS + 7;

type Row = { userId: string; email: string; role: keyof typeof RANK; joinedAt: number };

/** The page's order, worked out here from the rows themselves. */
function inPageOrder(rows: Row[]): Row[] {
  return [...rows].sort((a, b) => RANK[a.role] - RANK[b.role] || a.joinedAt - b.joinedAt || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

async function teamRows(teamId: string): Promise<Row[]> {
  return db
    .select({ userId: schema.teamMembers.userId, email: schema.users.email, role: schema.teamMembers.role, joinedAt: schema.teamMembers.joinedAt })
    .from(schema.teamMembers)
    .innerJoin(schema.users, eq(schema.users.id, schema.teamMembers.userId))
    .where(eq(schema.teamMembers.teamId, teamId));
}

type Page = { path: string; status: number; emails: string[]; roles: string[]; text: string; next: string | null; previous: string | null };

/** A members page as its HTML shows it: the rows' addresses and roles, and its page links. */
async function openPage(browser: Browser, path: string): Promise<Page> {
  const response = await browser.get(path);
  const html = await response.text();
  const list = html.slice(html.indexOf('aria-label="Members"'), html.indexOf("</ul>", html.indexOf('aria-label="Members"')));
  const rows = [...visibleText(list).matchAll(/(\S+@example\.com) · (Owner|Admin|Member)/g)];
  const link = (testId: string) => {
    const tag = html.match(new RegExp(`<a[^>]*data-testid="${testId}"[^>]*>`))?.[0];
    return tag ? tag.match(/href="([^"]+)"/)![1]! : null;
  };
  return {
    path,
    status: response.status,
    emails: rows.map((r) => r[1]!),
    roles: rows.map((r) => r[2]!),
    text: visibleText(html),
    next: link("next-page"),
    previous: link("previous-page"),
  };
}

/** Every page from `path` on, following the links one way. */
async function walk(browser: Browser, path: string, way: "next" | "previous"): Promise<Page[]> {
  const pages: Page[] = [];
  for (let at: string | null = path; at !== null; at = pages[pages.length - 1]![way]) {
    const page = await openPage(browser, at);
    expect(page.status, at).toBe(200);
    pages.push(page);
    expect(pages.length).toBeLessThanOrEqual(MEMBERS);
  }
  return pages;
}

let owner: Awaited<ReturnType<typeof createConfirmedUser>>;
let member: Awaited<ReturnType<typeof createConfirmedUser>>;
let teamId: string;
let slug: string;
let membersPath: string;

beforeAll(async () => {
  owner = await createConfirmedUser();
  ({ slug, id: teamId } = await createTeamAs(owner.browser, "Big Crew"));
  membersPath = `/dashboard/teams/${slug}/members`;
  await db.update(schema.teams).set({ seats: TEAMS.maxSeats }).where(eq(schema.teams.id, teamId));

  // A member who signs in (role member), and the rest written straight to D1. Admins joined before
  // the owner (the owner is still first); members join in threes in the same millisecond, so the
  // account id orders them.
  member = await createConfirmedUser(uniqueEmail("pages-member"));
  const joined = Date.now();
  const people = Array.from({ length: ADMINS + MEMBERS - 1 }, (_, i) => ({
    id: crypto.randomUUID(),
    email: uniqueEmail(`pages-${i}`),
    role: i < ADMINS ? ("admin" as const) : ("member" as const),
    joinedAt: i < ADMINS ? joined - 10_000 + i : joined + Math.floor(i / 3),
  }));
  // D1 binds at most 100 parameters a statement: a few rows an INSERT, all in one batch.
  const [head, ...rest] = [
    ...chunks(people, 5).map((group) =>
      db.insert(schema.users).values(group.map((p) => ({ id: p.id, email: p.email, passwordHash: "x", emailConfirmedAt: joined }))),
    ),
    db.insert(schema.teamMembers).values({ teamId, userId: member.id, role: "member", joinedAt: joined + 5 }),
    ...chunks(people, 20).map((group) =>
      db.insert(schema.teamMembers).values(group.map((p) => ({ teamId, userId: p.id, role: p.role, joinedAt: p.joinedAt }))),
    ),
  ];
  await db.batch([head!, ...rest]);
  expect(await memberCount(db, teamId)).toBe(1 + ADMINS + MEMBERS);
});

describe("the members page, a page at a time", () => {
  it("shows every member exactly once across its pages, in a stable order, with the team's count", async () => {
    const expected = inPageOrder(await teamRows(teamId));
    const total = expected.length;
    const forward = await walk(owner.browser, membersPath, "next");
    expect(forward.map((p) => p.emails.length)).toEqual([TEAMS.membersPerPage, TEAMS.membersPerPage, total - 2 * TEAMS.membersPerPage]);
    expect(forward.flatMap((p) => p.emails)).toEqual(expected.map((r) => r.email));
    expect(forward[0]!.roles.slice(0, 1 + ADMINS)).toEqual(["Owner", ...Array(ADMINS).fill("Admin")]);
    for (const page of forward) {
      expect(page.text).toContain(`${total} members`);
      expect(page.text).toContain(`${total} of ${TEAMS.maxSeats} seats used.`);
    }
    expect(forward[0]!.previous).toBeNull();
    expect(forward.at(-1)!.next).toBeNull();

    // Back from the last page by Previous: the same pages, the other way.
    const backward = await walk(owner.browser, forward.at(-1)!.previous!, "previous");
    expect(backward.map((p) => p.emails)).toEqual(
      forward
        .slice(0, -1)
        .reverse()
        .map((p) => p.emails),
    );
    // The same link twice is the same page.
    expect((await openPage(owner.browser, forward[0]!.next!)).emails).toEqual(forward[1]!.emails);
    // A link past either end (its rows gone since) lands on the last page, or the first.
    const cursor = (key: object) => btoa(JSON.stringify(key)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
    const pastEnd = await openPage(owner.browser, `${membersPath}?after=${cursor({ rank: 2, joinedAt: Number.MAX_SAFE_INTEGER, userId: "z" })}`);
    expect(pastEnd.emails).toEqual(expected.slice(-TEAMS.membersPerPage).map((r) => r.email));
    expect(pastEnd.next).toBeNull();
    const beforeStart = await openPage(owner.browser, `${membersPath}?before=${cursor({ rank: 0, joinedAt: 0, userId: "0" })}`);
    expect(beforeStart.emails).toEqual(forward[0]!.emails);
    expect(beforeStart.previous).toBeNull();
    expect(beforeStart.next).toBe(forward[0]!.next);
  });

  it("answers 400 with a sentence to a page link it did not write, and 404 to a member or a stranger whatever the link", async () => {
    const first = await openPage(owner.browser, membersPath);
    const forged = btoa(JSON.stringify({ rank: 9, joinedAt: 1, userId: "x" })).replaceAll("=", "");
    for (const query of ["after=garbage!", "after=", `before=${forged}`, "after=e30", `after=${"A".repeat(300)}`]) {
      const response = await owner.browser.get(`${membersPath}?${query}`);
      expect(response.status, query).toBe(400);
      expect(visibleText(await response.text()), query).toContain(MEMBER_PAGE_MESSAGES.cursor);
    }
    const both = await owner.browser.get(`${first.next!}&before=${first.next!.split("=")[1]}`);
    expect(both.status).toBe(400);
    expect(visibleText(await both.text())).toContain(MEMBER_PAGE_MESSAGES.both);

    const stranger = await createConfirmedUser();
    for (const path of [membersPath, first.next!, `${membersPath}?after=garbage!`]) {
      expect((await member.browser.get(path)).status, path).toBe(404);
      expect((await stranger.browser.get(path)).status, path).toBe(404);
    }
    expect((await member.browser.post(first.next!, { intent: "remove", userId: owner.id })).status).toBe(404);
    expect((await member.browser.get(`/dashboard/teams/${slug}`)).status).toBe(200);
  });

  it("returns every action to the page it was taken on", async () => {
    const page = (await walk(owner.browser, membersPath, "next"))[1]!;
    const secondPath = page.path;
    expect(secondPath).toMatch(/\?after=[\w-]+$/);
    const back = (done: string) => `${secondPath}&done=${done}`;
    // Each form of the page posts to the page's own address (React Router's default action keeps its query), also without JavaScript.
    const html = await (await owner.browser.get(secondPath)).text();
    const actions = [...html.matchAll(/<form[^>]*method="post"[^>]*>/g)].map((f) => f[0].match(/action="([^"]*)"/)?.[1]?.replaceAll("&amp;", "&"));
    expect(actions.length).toBeGreaterThan(TEAMS.membersPerPage);
    expect(new Set(actions)).toEqual(new Set([secondPath]));

    // Remove a member listed on this page.
    const removed = page.emails[3]!;
    const removedId = (await db.query.users.findFirst({ where: eq(schema.users.email, removed) }))!.id;
    const removal = await owner.browser.post(secondPath, { intent: "remove", userId: removedId });
    expect(removal.status).toBe(303);
    expect(removal.headers.get("Location")).toBe(back("removed"));
    const after = await openPage(owner.browser, back("removed"));
    expect(after.text).toContain("The member is removed");
    expect(after.emails).not.toContain(removed);
    expect(after.emails.slice(0, 3)).toEqual(page.emails.slice(0, 3));

    // Make one admin: they move up among the admins, and the form's page is still where it was.
    const promoted = page.emails[5]!;
    const promotedId = (await db.query.users.findFirst({ where: eq(schema.users.email, promoted) }))!.id;
    const promotion = await owner.browser.post(secondPath, { intent: "role", userId: promotedId, role: "admin" });
    expect(promotion.headers.get("Location")).toBe(back("role"));
    const promotedTop = await openPage(owner.browser, membersPath);
    expect(promotedTop.emails[1 + ADMINS]).toBe(promoted);
    expect(promotedTop.roles[1 + ADMINS]).toBe("Admin");

    // Invite and revoke from this page.
    const invitee = uniqueEmail("pages-invitee");
    const invited = await owner.browser.post(secondPath, { intent: "invite", email: invitee, role: "member" });
    expect(invited.headers.get("Location")).toBe(back("invited"));
    const invitation = (await db.query.teamInvitations.findFirst({
      where: and(eq(schema.teamInvitations.teamId, teamId), eq(schema.teamInvitations.email, invitee)),
    }))!;
    const revoked = await owner.browser.post(secondPath, { intent: "revoke", invitationId: invitation.id });
    expect(revoked.headers.get("Location")).toBe(back("revoked"));

    // A form posted from a link the page cannot read returns to the first page.
    const roleBack = await owner.browser.post(`${membersPath}?after=garbage!`, { intent: "role", userId: promotedId, role: "member" });
    expect(roleBack.headers.get("Location")).toBe(`${membersPath}?done=role`);

    // Transfer ownership from the last page: the new owner heads the first page, the old one is an admin.
    const lastPath = (await walk(owner.browser, membersPath, "next")).at(-1)!.path;
    const heir = (await openPage(owner.browser, lastPath)).emails.at(-1)!;
    const heirId = (await db.query.users.findFirst({ where: eq(schema.users.email, heir) }))!.id;
    const transfer = await owner.browser.post(lastPath, { intent: "transfer", userId: heirId });
    expect(transfer.headers.get("Location")).toBe(`${lastPath}&done=transferred`);
    expect((await openPage(owner.browser, `${lastPath}&done=transferred`)).status).toBe(200);
    const top = await openPage(owner.browser, membersPath);
    expect(top.emails[0]).toBe(heir);
    expect(top.roles[0]).toBe("Owner");
    expect(top.roles[top.emails.indexOf(owner.email)]).toBe("Admin");
    const total = (await teamRows(teamId)).length;
    const all = (await walk(owner.browser, membersPath, "next")).flatMap((p) => p.emails);
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
    expect(all).toEqual(inPageOrder(await teamRows(teamId)).map((r) => r.email));
  });

  it("seeks the page's first row in team_members_page_idx, and counts the team in an index", async () => {
    // The statements the page runs, caught on their way to D1 and asked for their plans.
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    const watched = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare")
          return (query: string) => {
            const statement = target.prepare(query);
            return new Proxy(statement, {
              get(s, p) {
                if (p === "bind")
                  return (...params: unknown[]) => {
                    seen.push({ sql: query, params });
                    return s.bind(...params);
                  };
                const value = Reflect.get(s, p);
                return typeof value === "function" ? value.bind(s) : value;
              },
            });
          };
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const watchedDb = getDb(watched);
    const first = await memberPage(watchedDb, teamId, null);
    const after = parseMemberPage(new URLSearchParams({ after: first.next! }));
    if (!after.ok) throw new Error("the page's own link did not parse");
    const second = await memberPage(watchedDb, teamId, after.ask);
    // Before the second page's last row: a page back with more rows before it.
    const before = parseMemberPage(new URLSearchParams({ before: second.next! }));
    if (!before.ok) throw new Error("the page's own link did not parse");
    await memberPage(watchedDb, teamId, before.ask);
    await memberCount(watchedDb, teamId);
    expect(seen).toHaveLength(4);
    const plans = await Promise.all(
      seen.map(async ({ sql: query, params }) => {
        const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query}`)
          .bind(...params)
          .all<{ detail: string }>();
        return results.map((r) => r.detail).join("\n");
      }),
    );
    const [firstPlan, afterPlan, beforePlan, countPlan] = plans as [string, string, string, string];
    expect(firstPlan).toMatch(/SEARCH team_members USING INDEX team_members_page_idx \(team_id=\?\)/);
    expect(afterPlan).toMatch(/SEARCH team_members USING INDEX team_members_page_idx \(team_id=\? AND \(role_rank,joined_at,user_id\)>\(\?,\?,\?\)\)/);
    expect(beforePlan).toMatch(/SEARCH team_members USING INDEX team_members_page_idx \(team_id=\? AND \(role_rank,joined_at,user_id\)<\(\?,\?,\?\)\)/);
    for (const plan of [firstPlan, afterPlan, beforePlan]) expect(plan).not.toMatch(/TEMP B-TREE|SCAN/);
    expect(countPlan).toMatch(/SEARCH team_members USING COVERING INDEX \S+ \(team_id=\?\)/);
    expect(countPlan).not.toContain("SCAN");
  });
});
