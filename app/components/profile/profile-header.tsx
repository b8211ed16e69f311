import { Link } from "react-router";
import type { ReactNode } from "react";
import { timezoneLabel } from "~/lib/profile/options";
import { websiteHref } from "~/lib/profile/form-fields";
import type { PhoneStatus, ProfileView } from "~/lib/profile/view";
import { buttonClass, Card, cx, LineIcon } from "../ui";
import { useFormat } from "~/components/format";

function fullName(profile: Pick<ProfileView, "firstName" | "initial" | "lastName">): string {
  const initial = profile.initial ? `${profile.initial.replace(/\.$/, "")}.` : "";
  return [profile.firstName, initial, profile.lastName].filter(Boolean).join(" ") || "Your name";
}

function initials(profile: Pick<ProfileView, "firstName" | "lastName" | "email">): string {
  const letters = `${profile.firstName.charAt(0)}${profile.lastName.charAt(0)}`.trim();
  return (letters || profile.email.charAt(0)).toUpperCase();
}

const ICONS = {
  email: "M4 6h16v12H4zM4 7l8 6 8-6",
  phone: "M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM11 18h2",
  location: "M12 21s-6-5.3-6-10a6 6 0 1 1 12 0c0 4.7-6 10-6 10zM12 13a2 2 0 1 0 0-4 2 2 0 0 0 0 4z",
  website: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z",
  company: "M4 21V7l8-4 8 4v14M9 21v-4h6v4M8 10h2M14 10h2M8 14h2M14 14h2",
  timezone: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2",
  joined: "M5 5h14v15H5zM5 9h14M9 3v4M15 3v4",
};

const STATUS: Record<PhoneStatus, { label: string; className: string }> = {
  verified: { label: "Verified", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  pending: { label: "Pending", className: "bg-amber-50 text-amber-800 ring-amber-200" },
  unverified: { label: "Unverified", className: "bg-slate-100 text-slate-700 ring-slate-200" },
};

function PhoneStatusBadge({ status }: { status: PhoneStatus }) {
  const s = STATUS[status];
  return <span className={cx("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset", s.className)}>{s.label}</span>;
}

/** The profile's header card (spec: avatar, name, @username, bio, join month, contact details). */
export function ProfileHeader({ profile, editTo, phoneAction }: { profile: ProfileView; editTo: string; phoneAction?: ReactNode }) {
  const f = useFormat();
  return (
    <Card className="overflow-hidden">
      <div className="relative h-36 bg-gradient-to-r from-brand-600 via-brand-500 to-indigo-500 sm:h-48">
        {profile.coverPhotoUrl ? <img src={profile.coverPhotoUrl} alt="Cover" className="h-full w-full object-cover" data-testid="cover-photo" /> : null}
      </div>
      <div className="px-5 pb-6 sm:px-8">
        <div className="-mt-12 flex flex-wrap items-end justify-between gap-4 sm:-mt-14">
          <Avatar profile={profile} className="h-24 w-24 text-3xl ring-4 ring-white sm:h-28 sm:w-28" />
          <Link to={editTo} preventScrollReset className={buttonClass("secondary", "md", "mb-1")}>
            <LineIcon d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" className="h-4 w-4" />
            Edit Profile
          </Link>
        </div>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{fullName(profile)}</h1>
        <p className="mt-0.5 text-sm text-slate-600">{profile.username ? `@${profile.username}` : "No username yet"}</p>
        {profile.bio ? <p className="mt-3 max-w-2xl text-sm whitespace-pre-line text-slate-700">{profile.bio}</p> : null}

        <dl className="mt-6 grid gap-x-8 gap-y-4 border-t border-slate-100 pt-6 sm:grid-cols-2 lg:grid-cols-3">
          <Detail icon={ICONS.email} label="Email">
            <span className="break-all">{profile.email}</span>
            {profile.pendingEmail ? <span className="mt-0.5 block text-xs text-amber-800">Waiting for confirmation: {profile.pendingEmail}</span> : null}
          </Detail>
          <Detail icon={ICONS.phone} label="Phone">
            {profile.phoneNumber ? (
              <span className="flex flex-wrap items-center gap-2">
                <span>{profile.phoneNumber}</span>
                <PhoneStatusBadge status={profile.phoneStatus} />
                {phoneAction}
              </span>
            ) : (
              <Empty>Not added</Empty>
            )}
          </Detail>
          <Detail icon={ICONS.location} label="Location">
            {profile.location || <Empty>Not added</Empty>}
          </Detail>
          <Detail icon={ICONS.website} label="Website">
            {profile.website ? (
              <a
                href={websiteHref(profile.website)}
                rel="noopener noreferrer nofollow"
                target="_blank"
                className="break-all text-brand-700 underline-offset-2 hover:underline"
              >
                {profile.website}
              </a>
            ) : (
              <Empty>Not added</Empty>
            )}
          </Detail>
          <Detail icon={ICONS.company} label="Company">
            {profile.company || <Empty>Not added</Empty>}
          </Detail>
          <Detail icon={ICONS.timezone} label="Timezone">
            {timezoneLabel(profile.timezone)}
          </Detail>
          <Detail icon={ICONS.joined} label="Joined">
            {f.monthYear(profile.joinedAt)}
          </Detail>
        </dl>
      </div>
    </Card>
  );
}

function Avatar({ profile, className }: { profile: ProfileView; className: string }) {
  if (profile.avatarUrl) {
    return <img src={profile.avatarUrl} alt="Profile" className={cx("relative shrink-0 rounded-full bg-white object-cover", className)} data-testid="avatar" />;
  }
  return (
    <span
      className={cx("relative flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700", className)}
      role="img"
      aria-label="Profile"
    >
      {initials(profile)}
    </span>
  );
}

// A term and its value as the direct children of the <dl>'s group (a <div> may hold only <dt> and
// <dd> there); the icon sits in the term, beside both lines.
function Detail({ icon, label, children }: { icon: string; label: string; children: ReactNode }) {
  return (
    <div className="relative min-w-0 pl-8">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="absolute top-0.5 left-0 text-slate-400">
          <LineIcon d={icon} className="h-5 w-5" />
        </span>
        {label}
      </dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <span className="text-slate-500">{children}</span>;
}
