// The read-only page a customer opens from a client page link: plain HTML, every value escaped,
// no script. The page describes; it offers nothing to click that changes anything. A project page
// shows the site, its capture dates, the latest scene's picture with the measured regions
// outlined, the volumes each with its tolerance band, and the deliverables; a customer page its
// projects and open proposals and invoices. Printable (a print stylesheet) and readable on a phone.
import type { measurements, projects } from '@fieldops/proto';
import type { CustomerDetails, ProjectDetails } from './page-details.ts';
import { HEIGHT_RAMP, outlineColour } from '../site-report/site-image.ts';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Status words a customer reads, for the lifecycle's statuses. */
const STATUS_WORDS: Record<string, string> = {
  planned: 'Planned',
  scheduled: 'Scheduled',
  capturing: 'On site: capturing',
  processing: 'Processing the data',
  delivered: 'Delivered',
  on_hold: 'On hold',
  closed: 'Closed',
  cancelled: 'Cancelled',
};

const statusWord = (status: string): string => STATUS_WORDS[status] ?? status;

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:52rem;margin:1.5rem auto;padding:0 1rem;color:#1b1f24;line-height:1.45}' +
  'h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:1.8rem;border-bottom:1px solid #c9ced6}' +
  'table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #d5d9df;vertical-align:top}' +
  'th{background:#f2f4f7}.num{text-align:right;white-space:nowrap}.table-wrap{overflow-x:auto}' +
  '.status{font-weight:600}.muted{color:#4b5563;font-size:.9rem}.none{color:#6b2a00;font-style:italic}' +
  'figure{margin:0}figure img{max-width:100%;height:auto;border:1px solid #c9ced6;display:block}' +
  '.ramp{display:inline-block;width:10rem;height:.8rem;vertical-align:middle;border:1px solid #6b7280;' +
  `background:linear-gradient(to right,${HEIGHT_RAMP.join(',')})}` +
  '.swatch{display:inline-block;width:1rem;height:.8rem;margin-right:.35rem;vertical-align:middle;border:2px solid}' +
  'a{color:#0b57a4}ul{padding-left:1.2rem}' +
  '@media print{body{margin:0;max-width:none;font-size:11pt}a{color:#000}a[href]::after{content:""}' +
  'h2{break-after:avoid}table,figure,tr{break-inside:avoid}.table-wrap{overflow:visible}th{background:none}' +
  '*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}' +
  '@media (max-width:40rem){body{margin:.75rem auto;padding:0 .6rem}td,th{padding:.3rem}}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const day = (iso: string): string => escapeHtml(iso.slice(0, 10));
const minute = (iso: string): string => escapeHtml(iso.slice(0, 16).replace('T', ' '));

function projectRow(project: projects.ClientPageProject): string {
  return `<tr><td>${escapeHtml(project.name)}</td><td>${escapeHtml(project.siteAddress ?? '')}</td><td class="status" data-status="${escapeHtml(project.status)}">${escapeHtml(statusWord(project.status))}</td><td>${day(project.updatedAt)}</td></tr>`;
}

/** What the page needs of the site picture: where it is and the heights its colours span. */
export interface PictureInfo {
  href: string;
  minZ: number;
  maxZ: number;
  width: number;
  height: number;
}

export interface ProjectPageContent extends ProjectDetails {
  picture: PictureInfo | null;
  /** Why there is no picture, when there is none. */
  pictureNote: string;
  /** The volume report's links by format (pdf, csv, geojson), when quantities were measured. */
  reportLinks?: Readonly<Record<string, string>>;
}

const FIGURES = ['cut', 'fill', 'net', 'footprint', 'tonnage'] as const;
type Figure = (typeof FIGURES)[number];
const FIGURE_WORDS: Record<Figure, string> = {
  cut: 'Cut',
  fill: 'Fill',
  net: 'Net',
  footprint: 'Footprint',
  tonnage: 'Tonnage',
};

const number = (value: number): string =>
  value.toLocaleString('en-GB', { maximumFractionDigits: Math.abs(value) < 10 ? 2 : 1 });

/** value ± band, never a value alone: no band reads "no tolerance stated", never ± 0. */
function withBand(figures: measurements.VolumeFigures, field: Figure): string {
  const value = figures[field];
  if (value === undefined) return '<td class="num muted">not measured</td>';
  const unit = escapeHtml(figures.units[field] ?? '');
  const band = figures.bands[field];
  const shown = `${number(value)} ${unit}`;
  if (!band) {
    return `<td class="num" data-field="${field}" data-band="none">${shown} <span class="none">(no tolerance stated)</span></td>`;
  }
  const bandUnit = escapeHtml(band.unit || unit);
  return `<td class="num" data-field="${field}" data-band="${band.plusMinus}">${shown} ± ${number(band.plusMinus)} ${bandUnit}</td>`;
}

/** The report a client can keep: the PDF, and its table and regions as CSV and GeoJSON. */
function reportLinks(links: Readonly<Record<string, string>> | undefined): string {
  if (!links) return '';
  const words: Record<string, string> = { pdf: 'PDF', csv: 'CSV table', geojson: 'GeoJSON regions' };
  const items = Object.entries(links)
    .map(
      ([format, href]) =>
        `<a class="report-link" data-format="${escapeHtml(format)}" href="${escapeHtml(href)}">${words[format] ?? format}</a>`,
    )
    .join(' · ');
  return `<p id="volume-report">Volume report to keep or hand on: ${items}</p>`;
}

function volumesTable(
  snapshot: measurements.QuantitiesSnapshot | null,
  links?: Readonly<Record<string, string>>,
): string {
  const regions = snapshot?.quantities?.regions ?? [];
  if (!snapshot || regions.length === 0)
    return '<h2>Measured quantities</h2><p>No quantities measured yet.</p>';
  const fields = FIGURES.filter((field) => regions.some((region) => region.figures?.[field] !== undefined));
  const head = fields.map((field) => `<th scope="col" class="num">${FIGURE_WORDS[field]}</th>`).join('');
  const rows = regions
    .map((region, i) => {
      const colour = outlineColour(i);
      const name = escapeHtml(region.name ?? region.regionId);
      const cells = fields.map((field) => (region.figures ? withBand(region.figures, field) : '')).join('');
      return `<tr class="region" data-region-id="${escapeHtml(region.regionId)}"><th scope="row"><span class="swatch" style="border-color:${colour}" aria-hidden="true"></span>${name}</th>${cells}</tr>`;
    })
    .join('');
  const confidence = regions.find((r) => r.figures && Object.keys(r.figures.bands).length)?.figures?.bands;
  const level = confidence ? Object.values(confidence)[0]?.confidence : undefined;
  const caption = `Measured ${minute(snapshot.measuredAt)} UTC. ± is the tolerance band${level ? ` at ${Math.round(level * 100)} % confidence` : ''}.`;
  return `<h2>Measured quantities</h2>${basisNote(snapshot)}<div class="table-wrap"><table id="volumes"><caption class="muted">${caption}</caption><thead><tr><th scope="col">Region</th>${head}</tr></thead><tbody>${rows}</tbody></table></div>${reportLinks(links)}`;
}

/** With no regions stated, the figures are the whole capture's, not a stockpile's: said before them. */
function basisNote(snapshot: measurements.QuantitiesSnapshot): string {
  if (snapshot.basis !== 'automatic-whole-capture') return '';
  return '<p class="basis" data-basis="automatic-whole-capture"><strong>Whole capture, not a stated stockpile.</strong> No measurement regions were stated for this site, so the whole capture was measured above a plane fitted to its edges: trees, buildings and anything else above that plane are in the volume.</p>';
}

/** One legend row in the table's colour; a region whose snapshot stored no outline says so. */
function legendItem(region: measurements.RegionQuantities, i: number): string {
  const name = escapeHtml(region.name ?? region.regionId);
  const id = escapeHtml(region.regionId);
  if (region.outline.length < 3) {
    return `<li class="region-outline" data-region-id="${id}" data-outlined="false">${name} <span class="muted">(not outlined: measured before region outlines were stored)</span></li>`;
  }
  return `<li class="region-outline" data-region-id="${id}" data-outlined="true"><span class="swatch" style="border-color:${outlineColour(i)}" aria-hidden="true"></span>${name}</li>`;
}

/**
 * The datum the picture's heights are stated against: the photos' GPS altitude (heights above the
 * WGS 84 ellipsoid) for photo scenes, else the uploaded file's own vertical coordinates.
 */
function heightDatum(content: ProjectPageContent): { offset: number; words: string } {
  const datum = content.latestScene?.reconstruction?.heightDatum;
  if (datum?.name === 'gps-ellipsoidal') {
    return {
      offset: datum.offsetM,
      words: "above the WGS 84 ellipsoid, as the photos' GPS records altitude (not above sea level)",
    };
  }
  return { offset: 0, words: "in the uploaded file's own vertical coordinates" };
}

function pictureSection(content: ProjectPageContent, title: string): string {
  const regions = content.quantities?.quantities?.regions ?? [];
  if (!content.picture) return `<h2>Site picture</h2><p class="muted">${escapeHtml(content.pictureNote)}</p>`;
  const { href, width, height } = content.picture;
  const datum = heightDatum(content);
  const minZ = content.picture.minZ + datum.offset;
  const maxZ = content.picture.maxZ + datum.offset;
  const outlined = regions.filter((region) => region.outline.length >= 3).length;
  const alt = `Shaded relief of ${title}, seen from above, coloured by height from ${number(minZ)} m (blue) to ${number(maxZ)} m (red) ${datum.words}, with ${outlined} measured region${outlined === 1 ? '' : 's'} outlined.`;
  const legend = regions.map(legendItem).join('');
  return `<h2>Site picture</h2><figure><img id="site-picture" src="${escapeHtml(href)}" width="${width}" height="${height}" alt="${escapeHtml(alt)}"><figcaption class="muted"><p>Height: ${number(minZ)} m <span class="ramp" aria-hidden="true"></span> ${number(maxZ)} m <span id="height-datum">${escapeHtml(datum.words)}</span>. North is up.</p>${legend ? `<p>Regions outlined:</p><ul>${legend}</ul>` : ''}</figcaption></figure>`;
}

/** When the photos were taken (EXIF, with the camera's offset when it wrote one), then uploaded. */
function captureItem(content: ProjectPageContent, capture: ProjectPageContent['captures'][number]): string {
  const scene = content.latestScene;
  const date = scene?.captureId === capture.id ? scene.reconstruction?.captureDate : undefined;
  const uploaded = `uploaded ${minute(capture.capturedAt)} UTC`;
  if (!date?.takenAt) return `<li>${uploaded}</li>`;
  const offset = /[+-]\d{2}:\d{2}$/.exec(date.takenAt)?.[0];
  const zone = offset ? `UTC${offset}` : "the camera's local time";
  return `<li><span class="taken-at" data-taken-at="${escapeHtml(date.takenAt)}">Photos taken ${minute(date.takenAt)} (${escapeHtml(zone)})</span>; ${uploaded}</li>`;
}

function capturesSection(content: ProjectPageContent): string {
  const items = content.captures.map((c) => captureItem(content, c)).join('');
  return `<h2>Capture dates</h2>${items ? `<ul id="captures">${items}</ul>` : '<p>No captures yet.</p>'}`;
}

function deliverablesSection(content: ProjectPageContent): string {
  const items = content.deliverables
    .map((deliverable) => {
      const files = deliverable.files
        .map(
          (file) =>
            `<li><a href="${escapeHtml(file.href)}">${escapeHtml(file.name)}</a> <span class="muted">(${number(file.size / 1024)} KB)</span></li>`,
        )
        .join('');
      return `<li>${escapeHtml(deliverable.name)}<ul>${files}</ul></li>`;
    })
    .join('');
  return `<h2>Deliverables</h2>${items ? `<p class="muted">The files open in the business's portal.</p><ul id="deliverables">${items}</ul>` : '<p>No deliverables yet.</p>'}`;
}

function projectBody(view: projects.ClientPageView, content: ProjectPageContent | null): string {
  const project = view.projects[0];
  if (!project) return '';
  const site = `<h2>Site</h2><p>Status: <span class="status" id="status" data-status="${escapeHtml(project.status)}">${escapeHtml(statusWord(project.status))}</span></p><p>Address: ${project.siteAddress ? escapeHtml(project.siteAddress) : '<span class="muted">no address given</span>'}</p><p>Last updated: ${day(project.updatedAt)}</p>`;
  if (!content) return site;
  return (
    site +
    capturesSection(content) +
    pictureSection(content, view.title) +
    volumesTable(content.quantities, content.reportLinks) +
    deliverablesSection(content)
  );
}

function recordsSection(heading: string, id: string, records: CustomerDetails['proposals']): string {
  if (records.length === 0) return `<h2>${heading}</h2><p>None open.</p>`;
  const rows = records
    .map((record) => {
      const value = record.value
        ? `${escapeHtml(record.value.currency)} ${number(Number(record.value.cents) / 100)}`
        : '';
      return `<tr><td>${escapeHtml(record.name ?? record.id)}</td><td class="status">${escapeHtml(record.status)}</td><td class="num">${value}</td><td>${day(record.updatedAt)}</td></tr>`;
    })
    .join('');
  return `<h2>${heading}</h2><div class="table-wrap"><table id="${id}"><thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col" class="num">Value</th><th scope="col">Updated</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function renderClientPage(
  view: projects.ClientPageView,
  content: { project?: ProjectPageContent | null; customer?: CustomerDetails | null } = {},
): string {
  const footer = `<p class="muted">Prepared ${minute(view.generatedAt)} UTC. This link stops working on ${day(view.expiresAt)}.</p>`;
  if (view.kind === 'project') {
    return page(
      view.title,
      `<h1>${escapeHtml(view.title)}</h1><p>For ${escapeHtml(view.customerName)}</p>${projectBody(view, content.project ?? null)}${footer}`,
    );
  }
  const rows = view.projects.map(projectRow).join('');
  const table = rows
    ? `<div class="table-wrap"><table id="projects"><thead><tr><th scope="col">Project</th><th scope="col">Site</th><th scope="col">Status</th><th scope="col">Updated</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : '<p>No projects yet.</p>';
  const related = content.customer
    ? recordsSection('Open proposals', 'proposals', content.customer.proposals) +
      recordsSection('Open invoices', 'invoices', content.customer.invoices)
    : '';
  return page(
    view.title,
    `<h1>${escapeHtml(view.title)}</h1><h2>Your projects</h2>${table}${related}${footer}`,
  );
}

export function renderRefusal(message: string): string {
  return page('Link not available', `<h1>This page is not available</h1><p>${escapeHtml(message)}</p>`);
}
