// Swagger UI's bundle and stylesheet are imported as text (wrangler.toml [[rules]] type "Text").
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const source: string;
  export default source;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const source: string;
  export default source;
}
