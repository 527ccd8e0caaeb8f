// The part of swagger-ui-dist's self-contained bundle that /docs uses (the package ships no types).
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  type SwaggerUIOptions = {
    domNode: HTMLElement;
    url: string;
    validatorUrl: null;
    supportedSubmitMethods: string[];
    defaultModelsExpandDepth: number;
    docExpansion: "list" | "full" | "none";
    deepLinking: boolean;
  };
  export default function SwaggerUIBundle(options: SwaggerUIOptions): unknown;
}
