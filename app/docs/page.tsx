import type { Metadata } from "next";
import { ApiReference } from "./api-reference";
import "./docs.css";

export const metadata: Metadata = { title: "API reference" };

// /docs — the OpenAPI document (GET /api/openapi.json) rendered by Swagger UI, bundled into the
// app: nothing is fetched from another origin, and it runs under the pages' strict CSP.
export default function DocsPage() {
  return (
    <>
      <h1>API reference</h1>
      <p>
        Every operation of the API, its answers and error codes. The machine-readable OpenAPI 3.1 document is at <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
      <ApiReference url="/api/openapi.json" />
    </>
  );
}
