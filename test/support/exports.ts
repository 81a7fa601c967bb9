// Helpers for the exports HTTP tests: wait for an export to settle, download its archive through
// the signed link, and unpack it with the system's tar (not our code), so a test reads the archive
// exactly as a customer would.
import { execFileSync } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { eventually, type Body, type Client } from './harness.ts';

export type ExportBody = Body & {
  id: string;
  status: string;
  attempts: number;
  sizeBytes?: number;
  sha256?: string;
  expiresAt?: string;
  downloadUrl?: string;
  downloadUrlExpiresAt?: string;
  error?: { phase: string; message: string };
};

export async function readExport(api: Client, id: string): Promise<ExportBody> {
  const reply = await api.get(`/exports/${id}`);
  if (reply.status !== 200) throw new Error(`export read failed: ${JSON.stringify(reply.body)}`);
  return reply.body.export as ExportBody;
}

/** Polls GET /exports/:id (the spec's poll target) until the export is ready or failed. */
export function settled(api: Client, id: string, timeoutMs = 20_000): Promise<ExportBody> {
  return eventually(async () => {
    const view = await readExport(api, id);
    return view.status === 'ready' || view.status === 'failed' ? view : undefined;
  }, timeoutMs);
}

export interface Unpacked {
  dir: string;
  archive: Buffer;
  /** Paths of every file, relative to the archive root. */
  files: string[];
  text(path: string): string;
  /** NDJSON file as parsed objects. */
  records(path: string): Body[];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

/**
 * GET on a connection of its own that the server closes after the answer: a pooled keep-alive
 * connection still finishing when the platform stops would hold the gateway's close() open.
 */
function download(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Downloads through the link (no bearer token) and unpacks with `tar -xzf`. */
export async function downloadAndUnpack(url: string): Promise<Unpacked> {
  const res = await download(url);
  if (res.status !== 200) throw new Error(`download failed: ${res.status} ${res.body.toString()}`);
  const archive = res.body;
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-export-'));
  writeFileSync(join(dir, 'archive.tar.gz'), archive);
  const out = join(dir, 'out');
  execFileSync('mkdir', ['-p', out]);
  execFileSync('tar', ['-xzf', join(dir, 'archive.tar.gz'), '-C', out]);
  const text = (path: string) => readFileSync(join(out, path), 'utf8');
  return {
    dir: out,
    archive,
    files: listFiles(out).map((file) => relative(out, file)),
    text,
    records: (path) =>
      text(path)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Body),
  };
}

/** `sha256sum -c SHA256SUMS` in the unpacked folder: true when every listed file matches. */
export function checksumsVerify(dir: string): boolean {
  try {
    execFileSync('sha256sum', ['--strict', '-c', 'SHA256SUMS'], { cwd: dir, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
