import { authenticateFromForm, backToForm } from "@/lib/auth/forms";
import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";

// POST /auth/signup — the sign-up form
export const POST = formRoute<object>((_params, query) => backToForm("/signup", query), (request) => authenticateFromForm(config(), request, "signup"));
