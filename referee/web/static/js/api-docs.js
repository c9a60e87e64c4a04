// Swagger UI for /api/v1/docs: the document the app serves, with no script inline on the page.
"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
  });
})();
