// What the embedded engines write is for this process's user only: store journals and snapshots
// hold webhook signing secrets and link-signing keys, the event log holds every record, the blob
// store holds tenants' files and its URL-signing key. Files are created 0600 and folders 0700
// whatever the umask, and what an older version left looser is tightened when the engine opens.
//
// Only what this user owns is tightened: a mount point handed over by the platform (a volume root
// owned by root with a group for the pod) cannot be chmod-ed by us, and is not ours to change.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

const ownUid = process.getuid?.();

const looser = (mode: number, wanted: number): boolean => (mode & 0o777 & ~wanted) !== 0;
const ours = (stat: fs.Stats): boolean => ownUid === undefined || stat.uid === ownUid;
const wantedFor = (stat: fs.Stats): number | undefined =>
  stat.isDirectory() ? PRIVATE_DIR_MODE : stat.isFile() ? PRIVATE_FILE_MODE : undefined;

function tightenOneSync(file: string): fs.Stats | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const wanted = wantedFor(stat);
  if (wanted !== undefined && ours(stat) && looser(stat.mode, wanted)) fs.chmodSync(file, wanted);
  return stat;
}

/** `mkdir -p` whose folders are 0700; `dir` itself is tightened when it was there already. */
export function makePrivateDirSync(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tightenOneSync(dir);
}

/** The promise form of makePrivateDirSync. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await tightenOne(dir);
}

/** Tightens a file this process has open (it may have been made by an older version). */
export function tightenOpenFile(fd: number): void {
  const stat = fs.fstatSync(fd);
  if (ours(stat) && looser(stat.mode, PRIVATE_FILE_MODE)) fs.fchmodSync(fd, PRIVATE_FILE_MODE);
}

/** Tightens a folder and everything under it: folders to 0700, files to 0600. Links are left. */
export function tightenTreeSync(dir: string): void {
  const stat = tightenOneSync(dir);
  if (!stat?.isDirectory()) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) tightenTreeSync(child);
    else if (entry.isFile()) tightenOneSync(child);
  }
}

async function tightenOne(file: string): Promise<fs.Stats | undefined> {
  let stat: fs.Stats;
  try {
    stat = await fsp.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const wanted = wantedFor(stat);
  if (wanted !== undefined && ours(stat) && looser(stat.mode, wanted)) await fsp.chmod(file, wanted);
  return stat;
}

/** The promise form of tightenTreeSync, for trees as large as the blob store's. */
export async function tightenTree(dir: string): Promise<void> {
  const stat = await tightenOne(dir);
  if (!stat?.isDirectory()) return;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await tightenTree(child);
    else if (entry.isFile()) await tightenOne(child);
  }
}
