import { resendMessageOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { nudgeWebhooks } from "@/lib/events/delivery";
import { resendMessage } from "@/lib/events/endpoints";

export const POST = route(resendMessageOperation, async ({ cfg, auth: user, params }) => {
  await resendMessage(user.id, params.id, params.messageId);
  nudgeWebhooks(cfg);
  return { to: `/webhooks/${encodeURIComponent(params.id)}?resent=1` };
});
