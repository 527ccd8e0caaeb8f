import { withReturnTo } from "@/lib/api/return-to";

/**
 * "Sign in with <provider>" (lib/identity/): a link to the start of the flow, which sends the
 * browser on to the provider and, once signed in, back to `returnTo`. A first sign-in makes the account.
 */
export function ProviderSignIn({ name, returnTo }: { name: string; returnTo: string }) {
  return <a className="button" href={withReturnTo("/auth/oidc/start", returnTo)}>Sign in with {name}</a>;
}
