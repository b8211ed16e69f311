// The members page of a team (issue 50): members with their roles and what the viewer may do to
// each (./roles.ts decides which forms show; the server decides again), the invitation form and
// the open invitations. Plain forms: it works without JavaScript.
import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { TeamNav } from "./team-nav";
import { inputClass } from "~/components/ui";
import type { OpenInvitation } from "~/lib/teams/invitations.server";
import type { MemberRow } from "~/lib/teams/members.server";
import { canChangeRole, canRemove, canTransfer, roleLabel, type TeamRole } from "~/lib/teams/roles";
import { useFormat } from "../format";
import { CHECKED_ON_THE_SERVER, Field, SelectField } from "../forms";
import { Alert, Button, Card, SubmitButton } from "../ui";

type Props = {
  team: { name: string; slug: string; seats: number };
  role: TeamRole;
  viewerId: string;
  members: MemberRow[];
  invitations: OpenInvitation[];
  notice: string | null;
  result?: SubmissionResult<string[]>;
  error: string | null;
};

export function MembersPage({ team, role, viewerId, members, invitations, notice, result, error }: Props) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{`${team.name}: Members`}</h1>
        <p className="mt-1 text-sm text-slate-600">{`${members.length} of ${team.seats} seats used.`}</p>
      </div>
      <TeamNav slug={team.slug} role={role} />
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <MemberList members={members} role={role} viewerId={viewerId} />
      <InviteForm result={result} />
      <InvitationList invitations={invitations} />
    </div>
  );
}

function MemberList({ members, role, viewerId }: { members: MemberRow[]; role: TeamRole; viewerId: string }) {
  return (
    <section aria-labelledby="members-title">
      <Card className="p-6">
        <h2 id="members-title" className="text-lg font-semibold text-slate-900">
          Members
        </h2>
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
      </Card>
    </section>
  );
}

function MemberActions({ member, role }: { member: MemberRow; role: TeamRole }) {
  const who = member.name ?? member.email;
  const other = member.role === "admin" ? "member" : "admin";
  return (
    <div className="flex flex-wrap gap-2">
      {canChangeRole(role, member.role, other) ? (
        <Form method="post">
          <input type="hidden" name="intent" value="role" />
          <input type="hidden" name="userId" value={member.userId} />
          <input type="hidden" name="role" value={other} />
          <Button type="submit" variant="secondary" size="sm" aria-label={`Make ${roleLabel(other)}: ${who}`}>
            {`Make ${roleLabel(other)}`}
          </Button>
        </Form>
      ) : null}
      {canTransfer(role, member.role) ? (
        <Form method="post">
          <input type="hidden" name="intent" value="transfer" />
          <input type="hidden" name="userId" value={member.userId} />
          <Button type="submit" variant="secondary" size="sm" aria-label={`Transfer ownership to ${who}`}>
            Transfer Ownership
          </Button>
        </Form>
      ) : null}
      {canRemove(role, member.role) ? (
        <Form method="post">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="userId" value={member.userId} />
          <Button type="submit" variant="secondary" size="sm" aria-label={`Remove ${who}`}>
            Remove
          </Button>
        </Form>
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
          <ul className="mt-4 divide-y divide-slate-100" aria-label="Open invitations">
            {invitations.map((inv) => (
              <li key={inv.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <p className="min-w-0 break-words text-slate-900">{`${inv.email} · ${roleLabel(inv.role)} · expires ${f.dateTime(inv.expiresAt)}`}</p>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="invitationId" value={inv.id} />
                  <Button type="submit" variant="secondary" size="sm" aria-label={`Revoke the invitation to ${inv.email}`}>
                    Revoke
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
