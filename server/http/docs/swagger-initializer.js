// Starts Swagger UI on the Hitline API reference page (server/http/openapi.ts).
// A file of its own, not an inline script: the Content-Security-Policy allows
// scripts from our origin only. The page's <script> tag says where the document is
// (data-spec-url), so the path lives in one place on the server.
'use strict';

(function () {
  var script = document.currentScript;
  var specUrl = (script && script.getAttribute('data-spec-url')) || '/api/openapi.json';

  window.addEventListener('load', function () {
    window.ui = SwaggerUIBundle({
      url: specUrl,
      dom_id: '#swagger-ui',
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl],
      // no top bar: this page documents our API only, it does not load other documents
      layout: 'BaseLayout',
      // ?url=… and ?configUrl=… must not point the page at someone else's document
      queryConfigEnabled: false,
      // the public validator would be a request to a third party (and the CSP refuses it)
      validatorUrl: null,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      docExpansion: 'list',
      filter: true,
      tryItOutEnabled: false,
    });
  });
})();
