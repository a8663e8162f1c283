// The typed client of the API, exported by the package as "social-publishing-api/client".
// Types generated from the OpenAPI document by openapi-typescript (./schema.ts, `npm run generate:client`);
// calls made by openapi-fetch. Every path, parameter, body and answer is typed:
//
//   const api = createClient({ baseUrl: "https://api.example.com", apiKey: process.env.API_KEY });
//   const { data, error, response } = await api.GET("/api/v1/posts/{id}", { params: { path: { id: 42 } } });
import createFetchClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export type ClientConfig = Omit<ClientOptions, "baseUrl"> & {
  /** The service's origin, e.g. `https://api.example.com` (paths start with `/api/v1`). */
  baseUrl: string;
  /** An API key (`spk_…`), sent as `Authorization: Bearer <key>` on every request. */
  apiKey: string;
};

/** The client: `GET`, `POST`, `PUT`, `DELETE`, … each answering `{ data, error, response }`. */
export type ApiClient = Client<paths>;

/** A named schema of the document: `Schema<"Post">`, `Schema<"CreatePostRequest">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

/** The successful JSON answer of an operation by its operationId: `Answer<"listPosts">`. */
export type Answer<Id extends keyof operations> = operations[Id]["responses"] extends infer R
  ? R extends { 200: { content: { "application/json": infer B } } }
    ? B
    : R extends { 201: { content: { "application/json": infer B } } }
      ? B
      : never
  : never;

/** A client for the service at `baseUrl`, authenticated with `apiKey`. */
export function createClient({ baseUrl, apiKey, headers, ...options }: ClientConfig): ApiClient {
  const merged = new Headers(headers as HeadersInit | undefined);
  merged.set("Authorization", `Bearer ${apiKey}`);
  return createFetchClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, ""), headers: merged });
}
