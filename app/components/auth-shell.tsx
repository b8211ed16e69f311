import type { ReactNode } from "react";
import { Card } from "./ui";

export function AuthShell({
  title,
  subtitle,
  children,
  footer,
  wide,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  return (
    <main id="main" className="min-h-screen bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-16 pt-24 sm:pt-28">
      <div className={wide ? "mx-auto w-full max-w-xl" : "mx-auto w-full max-w-md"}>
        <Card className="p-6 sm:p-8">
          {/* No logo of its own: every page using this sits under the site header, which has it. */}
          <div className="mb-6 text-center">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
            {subtitle ? <p className="mt-2 text-sm text-slate-600">{subtitle}</p> : null}
          </div>
          {children}
        </Card>
        {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
      </div>
    </main>
  );
}
