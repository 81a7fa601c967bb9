// Client pages (spec: Client page; "Client pages, exports, reports"). Served by
// projects.ClientPageService; the pages themselves open at /client/v1/page (client-pages/).
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listClientPages } from './client-pages.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const clientPageEndpoints: EndpointDef[] = [listClientPages];
