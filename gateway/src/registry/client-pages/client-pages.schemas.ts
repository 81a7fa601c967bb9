// Client pages (spec: Client page; "Client pages, exports, reports"). Served by
// projects.ClientPageService; the pages themselves open at /client/v1/page (client-pages/).
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { z } from 'zod';

export const clientPageLink = z
  .object({
    kind: z.enum(['project', 'customer']),
    id: z.string().describe('The project or customer the page shows.'),
    title: z.string(),
    href: z
      .string()
      .describe(
        "Path on this API's origin that opens the read-only page in a browser; its capability token is minted by the server, scoped to the page, and expires.",
      ),
    expiresAt: z.string(),
  })
  .meta({ id: 'ClientPageLink' });
