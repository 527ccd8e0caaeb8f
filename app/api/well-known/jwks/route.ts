import { otherMethods } from "@/lib/api/method-not-allowed";
import { getJwksOperation } from "@/lib/api/operations/get-jwks";
import { route } from "@/lib/api/route";
import { jwks } from "@/lib/signing-keys/jwks";

export const GET = route(getJwksOperation, () => jwks());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getJwksOperation);
