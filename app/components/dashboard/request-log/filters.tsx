// The request log's filters: a GET form, so the choice lands in the URL (shareable, and it works
// without JavaScript); with JavaScript the router submits it without a page load. Applying a
// filter starts from the newest page again.
import { Form, Link } from "react-router";
import type { RequestLogData } from "~/lib/usage/request-log.server";
import { NO_DEVICE } from "~/lib/usage/request-log";
import { Button, buttonClass, Card, inputClass, Label } from "../../ui";

const PATH = "/dashboard/usage/requests";

function Select({
  name,
  label,
  value,
  options,
  any,
}: {
  name: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  any: string;
}) {
  return (
    <div className="min-w-0">
      <Label htmlFor={`log-${name}`}>{label}</Label>
      <select id={`log-${name}`} name={name} defaultValue={value} className={inputClass}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const plain = (values: string[]) => values.map((value) => ({ value, label: value }));

export function LogFilters({ log }: { log: RequestLogData }) {
  const { view, options, limits } = log;
  const f = view.filter;
  const archive = view.archive;
  // A new view (a link, the back button) shows its own values: the form is drawn afresh for it.
  const key = JSON.stringify([view.archive, view.from, view.to, f]);
  return (
    <Card className="mt-6 p-6">
      <Form key={key} method="get" action={PATH} className="grid grid-cols-2 gap-4 @3xl:grid-cols-4" aria-label="Filter the request log">
        {archive === null ? (
          <>
            <div className="min-w-0">
              <Label htmlFor="log-from">From</Label>
              <input id="log-from" type="date" name="from" defaultValue={view.from} min={limits.oldest} max={limits.today} required className={inputClass} />
            </div>
            <div className="min-w-0">
              <Label htmlFor="log-to">To</Label>
              <input id="log-to" type="date" name="to" defaultValue={view.to} min={limits.oldest} max={limits.today} required className={inputClass} />
            </div>
          </>
        ) : (
          <input type="hidden" name="archive" value={archive} />
        )}
        <Select name="model" label="Model" value={f.model ?? ""} options={plain(options.models)} any="Any model" />
        <Select name="provider" label="Provider" value={f.provider ?? ""} options={plain(options.providers)} any="Any provider" />
        <Select
          name="device"
          label="Device"
          value={f.device === undefined ? "" : f.device === "" ? NO_DEVICE : f.device}
          options={options.devices}
          any="Any device"
        />
        <Select
          name="status"
          label="Status"
          value={f.status ?? ""}
          options={[
            { value: "success", label: "Success" },
            { value: "error", label: "Error" },
          ]}
          any="Any status"
        />
        <Select name="type" label="Request type" value={f.requestType ?? ""} options={plain(options.types)} any="Any type" />
        <div className="col-span-2 flex items-end gap-2 @3xl:col-span-1">
          <Button type="submit" size="md" className="flex-1">
            Apply
          </Button>
          <Link to={archive === null ? PATH : `${PATH}?archive=${archive}`} className={buttonClass("secondary", "md")}>
            Reset
          </Link>
        </div>
      </Form>
    </Card>
  );
}
