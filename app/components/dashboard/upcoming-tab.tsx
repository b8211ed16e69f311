import { Card, LinkButton } from "../ui";
import { TabIcon } from "./icons";

// A tab whose feature has not shipped yet: says so plainly instead of showing fake data.
export function UpcomingTab({ title, icon, description }: { title: string; icon: string; description: string }) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      <Card className="mt-8 flex flex-col items-center px-6 py-16 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <TabIcon name={icon} className="h-6 w-6" />
        </span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">Not built yet</h2>
        <p className="mt-2 max-w-md text-sm text-slate-600">{description} This section is on its way.</p>
        <LinkButton to="/dashboard" variant="secondary" className="mt-6">
          Back to Overview
        </LinkButton>
      </Card>
    </>
  );
}
