import { sendTestEventOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { nudgeWebhooks } from "@/lib/events/delivery";
import { sendTestEvent } from "@/lib/events/endpoints";

export const POST = route(sendTestEventOperation, async ({ cfg, auth: user, params }) => {
  await sendTestEvent(user.id, params.id);
  nudgeWebhooks(cfg);
  return { to: `/webhooks/${encodeURIComponent(params.id)}?tested=1` };
});
