import type { StepUpRequest } from "@/lib/passkeys/schemas";
import { PasskeyField } from "./passkey-field";

/**
 * Inside an approve form of an account whose approvals need a passkey: says so, and confirms
 * the approval with a passkey assertion made for it (lib/passkeys/step-up.ts) when it is sent.
 */
export function PasskeyStepUp({ approval }: { approval: StepUpRequest["for"] }) {
  return (
    <>
      <p>Your approvals need a passkey: Approve asks for one of yours, to confirm this approval only, on this site only.</p>
      <PasskeyField name="passkey_assertion" ceremony={{ kind: "step_up", for: approval }} failure="Not approved: your passkey did not confirm it." />
    </>
  );
}
