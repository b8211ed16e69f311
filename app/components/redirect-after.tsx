import { useEffect } from "react";
import { useNavigate } from "react-router";

/**
 * Navigates after a delay (the spec's redirect timings). Without JavaScript the <noscript>
 * refresh does the same, so the flow works either way.
 */
export function RedirectAfter({ to, delayMs }: { to: string; delayMs: number }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(to, { replace: true }), delayMs);
    return () => clearTimeout(timer);
  }, [to, delayMs, navigate]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${Math.round(delayMs / 1000)};url=${to}`} />
    </noscript>
  );
}
