"use client";

import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useEffect, useRef, useState } from "react";
import type { StepUpRequest } from "@/lib/passkeys/schemas";
import { ErrorAlert } from "./form-parts";

// The passkey half of a plain form: a hidden field that this script fills with the browser's
// answer (@simplewebauthn/browser) before the form goes. On submit it fetches options with a
// challenge from the server, asks the browser for the passkey, puts the answer in the field and
// submits the form again; the server checks the answer when the form arrives. Adding a passkey
// first sends the proof the server asks for before it hands out the options (an existing
// passkey's assertion, or the password typed). Without JavaScript the field stays empty and the
// server says what is missing.

/**
 * How adding a passkey is confirmed before the browser makes one (lib/passkeys/register-passkey.ts):
 * with one of the account's passkeys, or with its current password, typed in the input `inputId`.
 */
export type AddingProof = { by: "passkey" } | { by: "password"; inputId: string } | { by: "recent_sign_in" };

/** Which ceremony: adding a passkey, signing in with one, or confirming one approval (or the settings switch). */
export type Ceremony = { kind: "register"; proof: AddingProof } | { kind: "sign_in" } | { kind: "step_up"; for: StepUpRequest["for"] };

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/** The server's options for a ceremony (made by @simplewebauthn/server, lib/passkeys/), fetched from `url` with `body`. */
async function options<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    body: body === null ? null : JSON.stringify(body),
    headers: body === null ? {} : { "content-type": "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(errorOf(await response.json()) ?? "The server gave no passkey options. Please try again.");
  return response.json();
}

/** The assertion made for `request`, with one of the account's passkeys. */
async function stepUp(request: StepUpRequest["for"]): Promise<AuthenticationResponseJSON> {
  return startAuthentication({ optionsJSON: await options<PublicKeyCredentialRequestOptionsJSON>("/auth/passkey/step-up", { for: request }) });
}

/** What shows that the person holds the account, before a passkey is added: an assertion, or the password typed. */
async function addingProof(proof: AddingProof): Promise<Record<string, unknown>> {
  if (proof.by === "passkey") return { passkey_assertion: await stepUp({ kind: "add_passkey" }) };
  if (proof.by === "recent_sign_in") return {};
  const input = document.getElementById(proof.inputId);
  return { current_password: input instanceof HTMLInputElement ? input.value : "" };
}

async function answer(ceremony: Ceremony): Promise<string> {
  if (!browserSupportsWebAuthn()) throw new Error("This browser cannot use passkeys.");
  switch (ceremony.kind) {
    case "register":
      return JSON.stringify(
        await startRegistration({ optionsJSON: await options<PublicKeyCredentialCreationOptionsJSON>("/settings/passkeys/options", await addingProof(ceremony.proof)) }),
      );
    case "sign_in":
      return JSON.stringify(await startAuthentication({ optionsJSON: await options<PublicKeyCredentialRequestOptionsJSON>("/auth/passkey/options", null) }));
    case "step_up":
      return JSON.stringify(await stepUp(ceremony.for));
  }
}

export function PasskeyField({ name, ceremony, failure }: { name: string; ceremony: Ceremony; failure: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The ceremony by value: a new object with the same content (a refreshed page) keeps the listener.
  const key = JSON.stringify(ceremony);

  useEffect(() => {
    const input = field.current;
    const form = input?.form;
    if (!input || !form) return;
    const onSubmit = (event: SubmitEvent) => {
      // Filled: this is the second submit, with the answer.
      if (input.value !== "") return;
      event.preventDefault();
      const submitter = event.submitter;
      setProblem(null);
      answer(ceremony).then(
        (value) => {
          input.value = value;
          form.requestSubmit(submitter instanceof HTMLButtonElement ? submitter : null);
        },
        (error: unknown) => setProblem(`${failure} ${error instanceof Error ? error.message : ""}`.trim()),
      );
    };
    form.addEventListener("submit", onSubmit);
    return () => form.removeEventListener("submit", onSubmit);
  }, [key, failure]);

  return (
    <>
      <input ref={field} type="hidden" name={name} defaultValue="" />
      <ErrorAlert message={problem} />
    </>
  );
}
