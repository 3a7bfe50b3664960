// Starts Swagger UI on /docs (a file, not an inline script: the Content-Security-Policy
// allows scripts from this server only). The assets come from the fastapi-offline package.
window.ui = window.SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
