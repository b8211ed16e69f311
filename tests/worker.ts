import app from "../workers/app";
import consumer from "../workers/consumer";

export default {
  fetch: app.fetch,
  scheduled: app.scheduled,
  queue: consumer.queue,
} satisfies ExportedHandler<Env>;
