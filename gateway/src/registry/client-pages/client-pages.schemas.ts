// Client pages (spec: Client page; "Client pages, exports, reports"). Served by
// projects.ClientPageService; the pages themselves open at /client/v1/page (client-pages/).
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
// The link's shape is derived from projects.proto (npm run gen).
export { clientPageLink } from './client-pages.gen.ts';
