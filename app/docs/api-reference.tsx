"use client";

import { useEffect, useRef, useState } from "react";
import "swagger-ui-dist/swagger-ui.css";

// Swagger UI from swagger-ui-dist's self-contained bundle, loaded in the browser only: its
// server-rendered markup would carry style attributes, which the pages' CSP (style-src without
// 'unsafe-inline') refuses, while styles it sets from script are allowed. (swagger-ui-react,
// compiled by Turbopack, breaks on OpenAPI 3.1 documents: swagger-api/swagger-ui#10599.)
// "Try it out" stays off, and so does the validator badge, which would call another origin.
export function ApiReference({ url }: { url: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const domNode = container.current;
    if (domNode === null) return;
    // Development runs an effect twice: only the one still current renders.
    let current = true;
    import("swagger-ui-dist/swagger-ui-es-bundle.js")
      .then(({ default: SwaggerUIBundle }) => {
        if (current) SwaggerUIBundle({ domNode, url, validatorUrl: null, supportedSubmitMethods: [], defaultModelsExpandDepth: 0, docExpansion: "list", deepLinking: true });
      })
      .catch(() => setFailed(true));
    return () => {
      current = false;
    };
  }, [url]);
  return (
    <>
      {failed ? (
        <p role="alert">
          The API reference could not be loaded. The document itself is at <a href={url}>{url}</a>.
        </p>
      ) : null}
      <div ref={container} className="api-reference" />
    </>
  );
}
