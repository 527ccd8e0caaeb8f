"use client";

import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useEffect, useRef, useState } from "react";
import type { StepUpRequest } from "@/lib/passkeys/schemas";
import { ErrorAlert } from "./form-parts";

// The passkey half of a plain form: a hidden field that this script fills with the browser's
// answer (@simplewebauthn/browser) before the form goes. On submit it fetches options with a
// challenge from the server, asks the browser for the passkey, puts the answer in the field and
// submits the form again; the server checks the answer when the form arrives. Without
// JavaScript the field stays empty and the server says what is missing.

/** Which ceremony: adding a passkey, signing in with one, or confirming one approval (or the settings switch). */
export type Ceremony = { kind: "register" } | { kind: "sign_in" } | { kind: "step_up"; for: StepUpRequest["for"] };

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/** The server's options for the ceremony: made by @simplewebauthn/server for it (lib/passkeys/). */
async function options<T>(ceremony: Ceremony): Promise<T> {
  const request =
    ceremony.kind === "register"
      ? { url: "/settings/passkeys/options", body: null }
      : ceremony.kind === "sign_in"
        ? { url: "/auth/passkey/options", body: null }
        : { url: "/auth/passkey/step-up", body: JSON.stringify({ for: ceremony.for }) };
  const response = await fetch(request.url, {
    method: "POST",
    body: request.body,
    headers: request.body === null ? {} : { "content-type": "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(errorOf(await response.json()) ?? "The server gave no passkey options. Please try again.");
  return response.json();
}

async function answer(ceremony: Ceremony): Promise<string> {
  if (!browserSupportsWebAuthn()) throw new Error("This browser cannot use passkeys.");
  const result =
    ceremony.kind === "register"
      ? await startRegistration({ optionsJSON: await options<PublicKeyCredentialCreationOptionsJSON>(ceremony) })
      : await startAuthentication({ optionsJSON: await options<PublicKeyCredentialRequestOptionsJSON>(ceremony) });
  return JSON.stringify(result);
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
