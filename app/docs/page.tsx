import type { Metadata } from "next";
import { Fragment } from "react";
import { ERROR_CODES, ERRORS } from "@/lib/errors";
import { ApiReference } from "./api-reference";
import "./docs.css";

export const metadata: Metadata = { title: "API reference" };

// /docs — the OpenAPI document (GET /api/openapi.json) rendered by Swagger UI, bundled into the
// app: nothing is fetched from another origin, and it runs under the pages' strict CSP. The error
// codes follow the operations, as a table of this page's own (the document has them in its Error
// schema): a reader meets the endpoints first.
export default function DocsPage() {
  return (
    <>
      <h1>API reference</h1>
      <p>
        Every operation of the API and its answers, then <a href="#errors">the error codes</a>. The machine-readable OpenAPI 3.1 document is at{" "}
        <a href="/api/openapi.json">/api/openapi.json</a>.
      </p>
      <ApiReference url="/api/openapi.json" />
      <section aria-labelledby="errors" className="error-codes">
        <h2 id="errors">Error codes</h2>
        <p>
          Every error answers JSON <code>{"{error, code}"}</code>, with <code>code</code> one of these; the OAuth endpoints answer as RFC 6749 §5.2 says (
          <code>{"{error, error_description}"}</code>).
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Status</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {ERROR_CODES.map((code) => (
              <tr key={code}>
                <td>
                  <code>
                    {code.split("_").map((part, index) => (
                      <Fragment key={index}>
                        {index > 0 ? (
                          <>
                            _<wbr />
                          </>
                        ) : null}
                        {part}
                      </Fragment>
                    ))}
                  </code>
                </td>
                <td>{ERRORS[code].status}</td>
                <td>{ERRORS[code].meaning.replaceAll("`", "")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
