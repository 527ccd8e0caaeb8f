import { withReturnTo } from "@/lib/api/return-to";
import { PasskeyField } from "./passkey-field";

/** The sign-in page's second way in: a passkey added on this site, no email or password (lib/passkeys/passkey-sign-in.ts). */
export function PasskeySignIn({ returnTo }: { returnTo: string }) {
  return (
    <form method="post" action={withReturnTo("/auth/passkey", returnTo)} className="card stack" aria-labelledby="passkey-sign-in-heading">
      <h2 id="passkey-sign-in-heading">Or use a passkey</h2>
      <p>No password needed: your browser asks for a passkey you added on this site.</p>
      <PasskeyField name="credential" ceremony={{ kind: "sign_in" }} failure="Not signed in." />
      <button type="submit" className="secondary">Use a passkey</button>
    </form>
  );
}
