// GET /docs: the human API reference, Swagger UI rendering /openapi.json. Every asset is served by the
// worker itself (the bundle is part of the deployed code), so the page works offline under
// `npm run dev` and no request leaves the service's origin. GET /docs/guide: the guide (docs/guide.md),
// as Markdown, which the reference links to.

import swaggerCss from "swagger-ui-dist/swagger-ui.css";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js";
import guide from "../../docs/guide.md";
import type { BareEnv } from "../http/env";
import { createRouter } from "../http/router";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Social publishing API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<p style="font-family:sans-serif;margin:1em 2em">New here? Read <a href="/docs/guide">the guide</a> (quick start, typed client, webhooks, delegation). Operators: <a href="/admin/openapi.json">the operator API's document</a>.</p>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator.
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets style attributes from script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const asset = (body: string, type: string) => () =>
  new Response(body, {
    headers: {
      "Content-Type": type,
      "Cache-Control": "public, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    },
  });

export const docsRouter = createRouter<BareEnv>()
  .get(
    "/docs",
    () =>
      new Response(PAGE, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": CSP,
          "X-Content-Type-Options": "nosniff",
          "Referrer-Policy": "no-referrer",
        },
      }),
  )
  .get("/docs/swagger-ui.css", asset(swaggerCss, "text/css; charset=utf-8"))
  .get("/docs/swagger-ui-bundle.js", asset(swaggerBundle, "text/javascript; charset=utf-8"))
  .get("/docs/init.js", asset(INIT, "text/javascript; charset=utf-8"))
  .get("/docs/guide", asset(guide, "text/markdown; charset=utf-8"));
