// Client pages in a browser, at /client/v1/page?token=…. The token in the link is the only
// credential (minted by the projects service, scoped to one page, expiring); no API token or
// session is read here. Every refusal is a 404 page whose sentence tells the customer what to do.
// A project page's picture is served beside it, at /client/v1/page/site.png with the same token,
// and its volume report at /client/v1/page/report.pdf (.csv, .geojson).
import { systemContext, AppError, type RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import { PLATFORM_TENANT } from '@fieldops/kit/store';
import { Router, type Request, type Response } from 'express';
import type { FastState } from '@fieldops/kit/fast';
import type { ServiceClients } from '../clients.ts';
import type { RateLimits } from '../limits.ts';
import { takeRequest } from '../pipeline/rate-limit.ts';
import { requestIdOf } from '../identity/request-id.ts';
import { renderClientPage, renderRefusal, type ProjectPageContent } from './client-page.html.ts';
import { customerDetails, linkReadContext, projectDetails } from './page-details.ts';
import { canPicture, scenePicture } from '../site-report/scene-picture.ts';
import type { SiteImage } from '../site-report/site-image.ts';
import { REPORT_FORMATS, reportFile, type ReportFormat } from '../site-report/report-files.ts';
import type { projects } from '@fieldops/proto';

/** Rendered pictures kept per scene and snapshot (a page and its image are read together). */
const PICTURES_KEPT = 16;

/** The page must not leak its link (Referer), be cached by a proxy, or run anything. */
function pageHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export interface ClientPageRouterDeps {
  clients: ServiceClients;
  fast: FastState;
  limits: RateLimits;
}

/** Pages are read with the reads allowance per client address, as /openapi.json is. */
async function withinAllowance(deps: ClientPageRouterDeps, address: string, res: Response): Promise<boolean> {
  try {
    await takeRequest(deps.fast, deps.limits, 'reads', `client-page:${address}`, res);
    return true;
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
    const message = 'Too many pages were opened from this address; wait a minute and reload.';
    res.status(429).type('html').send(renderRefusal(message));
    return false;
  }
}

const PICTURE_ROUTE = 'site.png';
/** The report's links on the page, one per format, carrying the page's token. */
const reportLinksOf = (token: string): Record<string, string> =>
  Object.fromEntries(
    Object.keys(REPORT_FORMATS).map((format) => [
      format,
      `${MOUNTED_AT}/report.${format}?token=${encodeURIComponent(token)}`,
    ]),
  );
/** Where the gateway mounts this router (app.ts); the picture's link is absolute. */
const MOUNTED_AT = '/client/v1/page';

function pictureCache(deps: ClientPageRouterDeps) {
  const kept = new Map<string, Promise<SiteImage>>();
  return (view: projects.ClientPageView, content: ProjectPageContent, ctx: RequestContext) => {
    const scene = content.latestScene!;
    const key = `${view.tenantId}:${scene.id}:${content.quantities?.id ?? ''}`;
    let image = kept.get(key);
    if (!image) {
      image = scenePicture(deps.clients, scene, content.quantities, ctx);
      image.catch(() => kept.delete(key));
      kept.set(key, image);
      if (kept.size > PICTURES_KEPT) kept.delete(kept.keys().next().value!);
    }
    return image;
  };
}

export function createClientPageRouter(deps: ClientPageRouterDeps): Router {
  const { clients } = deps;
  const router = Router();
  const picture = pictureCache(deps);

  /** The verified view and the context its further reads run in, or a refusal page sent. */
  async function open(req: Request, res: Response) {
    pageHeaders(res);
    if (!(await withinAllowance(deps, req.ip ?? 'unknown', res))) return null;
    const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
    if (!token) {
      res
        .status(404)
        .type('html')
        .send(renderRefusal('This link is incomplete; open the whole link you were sent.'));
      return null;
    }
    const ctx = {
      // The tenant is not known until the service has verified the token; the platform tenant
      // stands in, and the service replaces it with the one the token names.
      ...systemContext({ id: PLATFORM_TENANT, currency: '', defaultVertical: '' }, 'openClientPage'),
      requestId: requestIdOf(res) ?? '',
      principal: { kind: 'client_page_link', tokenId: '', role: 'customer', memberId: '' },
    };
    const view = await callUnary(clients.clientPages, 'openClientPage', { token }, ctx);
    return { view, token, ctx: linkReadContext(ctx, view) };
  }

  async function projectContent(
    view: projects.ClientPageView,
    token: string,
    ctx: RequestContext,
  ): Promise<ProjectPageContent | null> {
    const project = view.projects[0];
    if (!project) return null;
    const details = await projectDetails(clients, project.id, ctx);
    const content: ProjectPageContent = {
      ...details,
      picture: null,
      pictureNote: '',
      ...(details.quantities?.quantities ? { reportLinks: reportLinksOf(token) } : {}),
    };
    if (!details.latestScene)
      return {
        ...content,
        pictureNote: 'No scene yet: the picture appears once a capture has been processed.',
      };
    if (!canPicture(details.latestScene))
      return { ...content, pictureNote: 'The latest scene has no point cloud small enough to picture here.' };
    const image = await picture(view, content, ctx);
    const href = `${MOUNTED_AT}/${PICTURE_ROUTE}?token=${encodeURIComponent(token)}`;
    return {
      ...content,
      picture: { href, minZ: image.minZ, maxZ: image.maxZ, width: image.width, height: image.height },
    };
  }

  router.get('/', async (req, res) => {
    try {
      const opened = await open(req, res);
      if (!opened) return;
      const { view, token, ctx } = opened;
      const content =
        view.kind === 'project'
          ? { project: await projectContent(view, token, ctx) }
          : { customer: await customerDetails(clients, view.customerId, ctx) };
      res.status(200).type('html').send(renderClientPage(view, content));
    } catch (error) {
      refuse(res, error);
    }
  });

  // The volume report of the page's project, in each format, with the page's own token.
  router.get(/^\/report\.(pdf|csv|geojson)$/, async (req, res) => {
    try {
      const opened = await open(req, res);
      if (!opened) return;
      const { view, ctx } = opened;
      const project = view.kind === 'project' ? view.projects[0] : undefined;
      if (!project) throw new AppError('not_found', 'This page has no volume report.');
      const format = (req.params as Record<string, string>)[0] as ReportFormat;
      const file = await reportFile(clients, project.id, format, ctx);
      res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
      res.status(200).type(file.contentType).send(Buffer.from(file.bytes));
    } catch (error) {
      refuse(res, error);
    }
  });

  router.get(`/${PICTURE_ROUTE}`, async (req, res) => {
    try {
      const opened = await open(req, res);
      if (!opened) return;
      const { view, token, ctx } = opened;
      const content = view.kind === 'project' ? await projectContent(view, token, ctx) : null;
      if (!content?.picture) throw new AppError('not_found', 'This page has no site picture.');
      const image = await picture(view, content, ctx);
      res.status(200).type('png').send(image.png);
    } catch (error) {
      refuse(res, error);
    }
  });
  return router;
}

function refuse(res: Response, error: unknown): void {
  const refused = error instanceof AppError && error.code === 'not_found';
  const message = refused ? error.message : 'The page cannot be shown right now; try again in a minute.';
  if (!refused) res.locals.log?.warn({ err: error }, 'client page not shown');
  res
    .status(refused ? 404 : 503)
    .type('html')
    .send(renderRefusal(message));
}
