import type { StepUpRequest } from "@/lib/passkeys/schemas";
import { PasskeyField } from "./passkey-field";

/**
 * Inside an approve form of an account whose approvals need a passkey: says so, and confirms
 * the approval with a passkey assertion made for it (lib/passkeys/step-up.ts) when it is sent.
 */
export function PasskeyStepUp({ approval }: { approval: StepUpRequest["for"] }) {
  return (
    <>
      <p>Your approvals need a passkey: when you approve, your browser asks for one of your passkeys. It confirms this approval only, and only on this site.</p>
      <PasskeyField name="passkey_assertion" ceremony={{ kind: "step_up", for: approval }} failure="Not approved: your passkey did not confirm it." />
    </>
  );
}
