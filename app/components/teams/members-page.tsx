// The members page of a team (issue 50): a page of its members with their roles and what the
// viewer may do to each (./roles.ts decides which forms show; the server decides again), links to
// the pages either side, the invitation form and the open invitations. Plain forms and links: it
// works without JavaScript. A form posts to the page's own URL, so its action returns to this page.
import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { TeamNav } from "./team-nav";
import { inputClass } from "~/components/ui";
import type { OpenInvitation } from "~/lib/teams/invitations.server";
import type { MemberRow } from "~/lib/teams/member-page.server";
import { canChangeRole, canRemove, canTransfer, roleLabel, type TeamRole } from "~/lib/teams/roles";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field, SelectField } from "../forms";
import { Alert, Card, LinkButton, SubmitButton } from "../ui";
import { IntentButton } from "../intent-button";

type Team = { name: string; slug: string; seats: number };

type Props = {
  team: Team;
  role: TeamRole;
  viewerId: string;
  members: MemberRow[];
  /** Every member of the team, not only this page's. */
  count: number;
  pages: Pages;
  invitations: OpenInvitation[];
  notice: string | null;
  result?: SubmissionResult<string[]>;
  error: string | null;
};

/** The cursors of the pages before and after this one (null: there is none). */
type Pages = { previous: string | null; next: string | null };

const membersPath = (slug: string) => `/dashboard/teams/${slug}/members`;

function Heading({ team, count }: { team: Team; count?: number }) {
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{`${team.name}: Members`}</h1>
      {count === undefined ? null : <p className="mt-1 text-sm text-slate-600">{`${count} of ${team.seats} seats used.`}</p>}
    </div>
  );
}

export function MembersPage({ team, role, viewerId, members, count, pages, invitations, notice, result, error }: Props) {
  return (
    <div className="space-y-6">
      <Heading team={team} count={count} />
      <TeamNav slug={team.slug} role={role} />
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <MemberList members={members} count={count} pages={pages} slug={team.slug} role={role} viewerId={viewerId} />
      <InviteForm result={result} />
      <InvitationList invitations={invitations} />
    </div>
  );
}

/** A page link the page could not read (the loader answered 400): what is wrong, and the way back. */
export function MembersRefused({ team, role, message }: { team: Team; role: TeamRole; message: string }) {
  return (
    <div className="space-y-6">
      <Heading team={team} />
      <TeamNav slug={team.slug} role={role} />
      <Alert tone="error">
        <span data-testid="members-refused">{message}</span>
      </Alert>
      <LinkButton to={membersPath(team.slug)} variant="secondary" size="md">
        First page of members
      </LinkButton>
    </div>
  );
}

type ListProps = { members: MemberRow[]; count: number; pages: Pages; slug: string; role: TeamRole; viewerId: string };

function MemberList({ members, count, pages, slug, role, viewerId }: ListProps) {
  const f = useFormat();
  return (
    <section aria-labelledby="members-title">
      <Card className="p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="members-title" className="text-lg font-semibold text-slate-900">
            Members
          </h2>
          <p className="text-sm text-slate-600" data-testid="member-count">
            {f.plural(count, "member")}
          </p>
        </div>
        <p className="mt-1 text-sm text-slate-600">The owner first, then admins, then members, each by when they joined.</p>
        <ul className="mt-4 divide-y divide-slate-100" aria-label="Members">
          {members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm" data-testid="member">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{member.name ?? member.email}</p>
                <p className="break-words text-slate-600">{`${member.email} · ${roleLabel(member.role)}${member.userId === viewerId ? " · you" : ""}`}</p>
              </div>
              {member.userId === viewerId ? null : <MemberActions member={member} role={role} />}
            </li>
          ))}
        </ul>
        <MemberPages pages={pages} slug={slug} />
      </Card>
    </section>
  );
}

/** Plain GET links to the pages either side: they work without JavaScript. */
function MemberPages({ pages, slug }: { pages: Pages; slug: string }) {
  if (pages.previous === null && pages.next === null) return null;
  return (
    <nav aria-label="Pages of members" className="mt-4 flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-4">
      {pages.previous === null ? null : (
        <LinkButton to={`${membersPath(slug)}?before=${pages.previous}`} variant="secondary" size="sm" data-testid="previous-page">
          Previous page
        </LinkButton>
      )}
      {pages.next === null ? null : (
        <LinkButton to={`${membersPath(slug)}?after=${pages.next}`} variant="secondary" size="sm" data-testid="next-page">
          Next page
        </LinkButton>
      )}
    </nav>
  );
}

function MemberActions({ member, role }: { member: MemberRow; role: TeamRole }) {
  const who = member.name ?? member.email;
  const other = member.role === "admin" ? "member" : "admin";
  return (
    <div className="flex flex-wrap gap-2">
      {canChangeRole(role, member.role, other) ? (
        <IntentButton intent="role" fields={{ userId: member.userId, role: other }} label={`Make ${roleLabel(other)}: ${who}`}>
          {`Make ${roleLabel(other)}`}
        </IntentButton>
      ) : null}
      {canTransfer(role, member.role) ? (
        <IntentButton intent="transfer" fields={{ userId: member.userId }} label={`Transfer ownership to ${who}`}>
          Transfer Ownership
        </IntentButton>
      ) : null}
      {canRemove(role, member.role) ? (
        <IntentButton intent="remove" fields={{ userId: member.userId }} label={`Remove ${who}`}>
          Remove
        </IntentButton>
      ) : null}
    </div>
  );
}

function InviteForm({ result }: { result?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "invite";
  const [form, fields] = useForm<{ email: string; role: string }>({
    id: "invite",
    lastResult: result,
    defaultValue: { role: "member" },
    ...CHECKED_ON_THE_SERVER,
  });
  return (
    <section aria-labelledby="invite-title">
      <Card className="p-6">
        <h2 id="invite-title" className="text-lg font-semibold text-slate-900">
          Invite someone
        </h2>
        <p className="mt-1 text-sm text-slate-600">We e-mail them a link. They accept it by signing in (or signing up) with that address.</p>
        <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
          <input type="hidden" name="intent" value="invite" />
          {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
          <Field
            labelProps={{ children: "E-mail address" }}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
            errors={fields.email.errors}
          />
          <SelectField labelProps={{ children: "Role" }} selectProps={{ ...getSelectProps(fields.role), className: inputClass }} errors={fields.role.errors}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </SelectField>
          <SubmitButton pending={pending} idle="Send Invitation" busy="Sending Invitation..." />
        </Form>
      </Card>
    </section>
  );
}

function InvitationList({ invitations }: { invitations: OpenInvitation[] }) {
  const f = useFormat();
  return (
    <section aria-labelledby="invitations-title">
      <Card className="p-6">
        <h2 id="invitations-title" className="text-lg font-semibold text-slate-900">
          Open invitations
        </h2>
        {invitations.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No invitation is waiting for an answer.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100" aria-label="Open invitations">
            {invitations.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm last:pb-0">
                <p className="min-w-0 break-words text-slate-900">{`${inv.email} · ${roleLabel(inv.role)} · expires ${f.dateTime(inv.expiresAt)}`}</p>
                <IntentButton intent="revoke" fields={{ invitationId: inv.id }} label={`Revoke the invitation to ${inv.email}`}>
                  Revoke
                </IntentButton>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
