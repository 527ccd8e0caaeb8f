import { authenticateFromForm, backToForm } from "@/lib/auth/forms";
import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";

// POST /auth/signin — the sign-in form
export const POST = formRoute<object>((_params, query) => backToForm("/signin", query), (request) => authenticateFromForm(config(), request, "signin"));
