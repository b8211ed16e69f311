import app from "../workers/app";
import consumer from "../workers/consumer";

const worker: Required<Pick<ExportedHandler<Env>, "fetch" | "scheduled" | "queue">> = {
  fetch: app.fetch,
  scheduled: app.scheduled,
  queue: consumer.queue,
};

export default worker;
