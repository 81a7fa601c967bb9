// The read-only page a customer opens from a client page link: plain HTML, every value escaped,
// no script. The page describes; it offers nothing to click that changes anything.
import type { projects } from '@fieldops/proto';

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
  'body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#222}' +
  'table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}' +
  '.status{font-weight:600}.muted{color:#666;font-size:.9rem}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function projectRow(project: projects.ClientPageProject): string {
  return `<tr><td>${escapeHtml(project.name)}</td><td>${escapeHtml(project.siteAddress ?? '')}</td><td class="status" data-status="${escapeHtml(project.status)}">${escapeHtml(statusWord(project.status))}</td><td>${escapeHtml(project.updatedAt.slice(0, 10))}</td></tr>`;
}

export function renderClientPage(view: projects.ClientPageView): string {
  const footer = `<p class="muted">Prepared ${escapeHtml(view.generatedAt.slice(0, 16).replace('T', ' '))} UTC. This link stops working on ${escapeHtml(view.expiresAt.slice(0, 10))}.</p>`;
  if (view.kind === 'project') {
    const project = view.projects[0];
    const details = project
      ? `<p>Status: <span class="status" id="status" data-status="${escapeHtml(project.status)}">${escapeHtml(statusWord(project.status))}</span></p>` +
        (project.siteAddress ? `<p>Site: ${escapeHtml(project.siteAddress)}</p>` : '') +
        `<p>Last updated: ${escapeHtml(project.updatedAt.slice(0, 10))}</p>`
      : '';
    return page(
      view.title,
      `<h1>${escapeHtml(view.title)}</h1><p>For ${escapeHtml(view.customerName)}</p>${details}${footer}`,
    );
  }
  const rows = view.projects.map(projectRow).join('');
  const table = rows
    ? `<table><thead><tr><th>Project</th><th>Site</th><th>Status</th><th>Updated</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>No projects yet.</p>';
  return page(view.title, `<h1>${escapeHtml(view.title)}</h1><h2>Your projects</h2>${table}${footer}`);
}

export function renderRefusal(message: string): string {
  return page('Link not available', `<h1>This page is not available</h1><p>${escapeHtml(message)}</p>`);
}
