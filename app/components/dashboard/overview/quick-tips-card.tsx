import { Link } from "react-router";
import { buttonClass, Card } from "../../ui";

export function QuickTipsCard() {
  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold text-slate-900">Quick tips</h2>
      <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-slate-600">
        <li>Add your provider API keys in the desktop app under Settings, then API Keys. They never leave your device.</li>
        <li>Set a monthly budget to get an e-mail before you overspend.</li>
        <li>Compare models in Model Analytics to find the best value for your work.</li>
      </ul>
      <Link to="/dashboard/budget" className={buttonClass("secondary", "sm", "mt-5")}>
        Set a budget
      </Link>
    </Card>
  );
}
