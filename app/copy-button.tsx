"use client";

import { useEffect, useState } from "react";

const COPIED_NOTE_MS = 2000;

/** Copies `text` to the clipboard and says so for a moment (or how to copy by hand). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [result, setResult] = useState<"copied" | "failed" | null>(null);

  useEffect(() => {
    if (result === null) return;
    const timer = setTimeout(() => setResult(null), COPIED_NOTE_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setResult("copied");
    } catch {
      // No clipboard access (a page not served over https, or permission refused).
      setResult("failed");
    }
  };

  return (
    <span className="copy">
      <button type="button" className="secondary" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted">
        {result === "copied" ? "Copied" : result === "failed" ? "Could not copy: select the text and copy it." : null}
      </span>
    </span>
  );
}

/** A value shown once, selected on focus, with its copy button. */
export function ShownOnce({ label, copyLabel, value, autoFocus = false }: { label: string; copyLabel: string; value: string; autoFocus?: boolean }) {
  return (
    <>
      <label>
        {label}
        <input type="text" className="secret" value={value} readOnly autoFocus={autoFocus} spellCheck={false} autoComplete="off" onFocus={(event) => event.currentTarget.select()} />
      </label>
      <CopyButton text={value} label={copyLabel} />
    </>
  );
}
