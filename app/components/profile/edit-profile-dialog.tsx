// The Edit Profile dialog with its photo and cover uploads: the module the profile page loads
// only when the dialog is opened (see edit-profile.tsx).
import type { ProfileView } from "~/lib/profile/view";
import { ImageUpload } from "./image-upload";
import { EditProfileModal } from "./profile-editor";
import type { ProfileActionData } from "./use-profile-save";

export type EditProfileProps = {
  profile: ProfileView;
  /** The zones the form offers, the server's list (time-zone-options.server.ts). */
  timeZones: readonly string[];
  closeTo: string;
  /** The no-JavaScript submit's answer (with JavaScript the dialog's own fetcher holds it). */
  actionData: ProfileActionData;
  /** Called once a photo or cover is uploaded, so the page shows it. */
  onUploaded: () => void;
};

export default function EditProfileDialog({ profile, timeZones, closeTo, actionData, onUploaded }: EditProfileProps) {
  return (
    <EditProfileModal
      profile={profile}
      timeZones={timeZones}
      closeTo={closeTo}
      actionData={actionData}
      uploads={
        <>
          <ImageUpload kind="avatar" currentUrl={profile.avatarUrl} onUploaded={onUploaded} />
          <ImageUpload kind="cover" currentUrl={profile.coverPhotoUrl} onUploaded={onUploaded} />
        </>
      }
    />
  );
}
