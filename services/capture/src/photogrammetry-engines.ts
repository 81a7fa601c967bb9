// Which photogrammetry engines this platform has, decided here and only here: capture reads it to
// accept or refuse photos at presign and process, and the reconstruction workers read it to build
// the engines they run. Both get it from photogrammetryEnginesFromEnv, through captureSettingsFromEnv.
//
// FIELDOPS_PHOTOGRAMMETRY_ENGINES (`colmap`, `nodeodm`, `colmap,nodeodm` or `none`) states it for
// every process of a deployment from one value (the chart's ConfigMap). A process that only decides
// (capture, whose image carries no COLMAP) takes the list as it is and looks at nothing on its own
// machine. A process that runs the engines (a worker, or `npm start` with its in-process workers)
// takes the same list and refuses to start unless it can run each engine on it: COLMAP's binary
// answers here, NodeODM's URL is set. Either refuses `nodeodm` without FIELDOPS_NODEODM_URL.
//
// Unset, each process looks at its own machine, as before the variable existed: COLMAP when its
// binary answers at start (FIELDOPS_COLMAP_BIN, else `colmap` on the PATH; `off` switches it off),
// NodeODM when FIELDOPS_NODEODM_URL is set. That is right for `npm start`, where capture and the
// workers share one machine, and wrong wherever they do not.
import { spawnSync } from 'node:child_process';
import { ConfigError } from '@fieldops/kit';

export const PHOTOGRAMMETRY_ENGINES = ['colmap', 'nodeodm'] as const;
export type PhotogrammetryEngine = (typeof PHOTOGRAMMETRY_ENGINES)[number];

export const ENGINES_VARIABLE = 'FIELDOPS_PHOTOGRAMMETRY_ENGINES';

/** Which photogrammetry engines the platform has: what presign and process accept (runs/feasibility.ts). */
export interface EngineAvailability {
  /** COLMAP: listed in FIELDOPS_PHOTOGRAMMETRY_ENGINES, or, unset, its binary answered at start. */
  colmap: boolean;
  /** NodeODM: listed in FIELDOPS_PHOTOGRAMMETRY_ENGINES, or, unset, FIELDOPS_NODEODM_URL is set. */
  nodeodm: boolean;
}

export interface ColmapSettings {
  /** The colmap binary (FIELDOPS_COLMAP_BIN, else `colmap` on the PATH). */
  bin: string;
  /** CPU threads one run may use (FIELDOPS_COLMAP_THREADS, default 2). */
  threads: number;
}

export interface PhotogrammetryEngines {
  /** The engines this platform has: what presign and process accept. */
  available: EngineAvailability;
  /** COLMAP as this process runs it; set when COLMAP is available and its binary answered here. */
  colmap?: ColmapSettings;
  /** The NodeODM server; set when NodeODM is available. */
  nodeOdmUrl?: string;
}

export interface PhotogrammetryRole {
  /**
   * Whether this process runs the engines (a worker, `npm start` with in-process workers) and so
   * must be able to run each one the list names, or only decides what is accepted (capture).
   */
  runsEngines: boolean;
}

export const DEFAULT_COLMAP_THREADS = 2;

/**
 * Whether `bin` runs as COLMAP (`colmap help` exits 0 and names itself). A process the runtime may
 * not let start programs (node --permission without --allow-child-process: every kind but the
 * capture worker) cannot look, and is told to be told instead.
 */
export function colmapAnswers(bin: string): boolean {
  let probe;
  try {
    probe = spawnSync(bin, ['help'], { encoding: 'utf8', timeout: 10_000 });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_ACCESS_DENIED') throw err;
    throw new ConfigError([
      `this process may not start programs (node --permission), so it cannot look for COLMAP: set ${ENGINES_VARIABLE} for it, as the chart and the cluster do`,
    ]);
  }
  return probe.status === 0 && /COLMAP/.test(probe.stdout ?? '');
}

/** The engines FIELDOPS_PHOTOGRAMMETRY_ENGINES lists, or undefined when it is unset. */
function listedEngines(env: NodeJS.ProcessEnv): Set<PhotogrammetryEngine> | undefined {
  const text = env[ENGINES_VARIABLE]?.trim();
  if (!text) return undefined;
  const names = text.split(',').map((name) => name.trim().toLowerCase());
  const known = (name: string): name is PhotogrammetryEngine =>
    (PHOTOGRAMMETRY_ENGINES as readonly string[]).includes(name);
  if (names.length === 1 && names[0] === 'none') return new Set();
  if (!names.every(known)) {
    throw new ConfigError([
      `${ENGINES_VARIABLE} must be a comma-separated list of ${PHOTOGRAMMETRY_ENGINES.join(' and ')}, or none alone (got "${text}")`,
    ]);
  }
  return new Set(names);
}

function colmapThreads(env: NodeJS.ProcessEnv): number {
  const text = env['FIELDOPS_COLMAP_THREADS']?.trim();
  const threads = text ? Number(text) : DEFAULT_COLMAP_THREADS;
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new ConfigError([`FIELDOPS_COLMAP_THREADS must be a whole number from 1 to 256 (got "${text}")`]);
  }
  return threads;
}

function nodeOdmUrlOf(env: NodeJS.ProcessEnv): string | undefined {
  const url = env['FIELDOPS_NODEODM_URL']?.trim();
  if (url && !/^https?:\/\//.test(url)) {
    throw new ConfigError([`FIELDOPS_NODEODM_URL must be an http(s) URL (got "${url}")`]);
  }
  return url || undefined;
}

/** Unset: COLMAP when its binary answers on this machine; a named binary that does not is refused. */
function colmapOnThisMachine(env: NodeJS.ProcessEnv, threads: number): ColmapSettings | undefined {
  const configured = env['FIELDOPS_COLMAP_BIN']?.trim();
  if (configured === 'off') return undefined;
  const bin = configured || 'colmap';
  if (colmapAnswers(bin)) return { bin, threads };
  if (configured) {
    throw new ConfigError([
      `FIELDOPS_COLMAP_BIN is "${configured}" but it does not run as COLMAP; fix the path, or set it to "off".`,
    ]);
  }
  return undefined;
}

/** Listed: a process that runs the engines must find COLMAP here, or refuse to start. */
function colmapRequired(env: NodeJS.ProcessEnv, threads: number): ColmapSettings {
  const configured = env['FIELDOPS_COLMAP_BIN']?.trim();
  const bin = configured || 'colmap';
  if (configured !== 'off' && colmapAnswers(bin)) return { bin, threads };
  const found = configured
    ? `FIELDOPS_COLMAP_BIN is "${configured}"${configured === 'off' ? '' : ', which does not run as COLMAP here'}`
    : 'FIELDOPS_COLMAP_BIN is unset and no colmap on the PATH runs as COLMAP';
  throw new ConfigError([
    `${ENGINES_VARIABLE} lists colmap, but ${found}: this process runs the reconstructions, so install COLMAP ` +
      `here (apt-get install colmap) or point FIELDOPS_COLMAP_BIN at it, or take colmap off ${ENGINES_VARIABLE}.`,
  ]);
}

/** Which photogrammetry engines exist, and what this process needs to run them (see above). */
export function photogrammetryEnginesFromEnv(
  env: NodeJS.ProcessEnv,
  role: PhotogrammetryRole,
): PhotogrammetryEngines {
  const threads = colmapThreads(env);
  const url = nodeOdmUrlOf(env);
  const listed = listedEngines(env);
  if (listed === undefined) {
    const colmap = colmapOnThisMachine(env, threads);
    return {
      available: { colmap: colmap !== undefined, nodeodm: url !== undefined },
      ...(colmap ? { colmap } : {}),
      ...(url ? { nodeOdmUrl: url } : {}),
    };
  }
  if (listed.has('nodeodm') && !url) {
    throw new ConfigError([
      `${ENGINES_VARIABLE} lists nodeodm, but FIELDOPS_NODEODM_URL is not set: set it to the NodeODM server's URL, or take nodeodm off ${ENGINES_VARIABLE}.`,
    ]);
  }
  const colmap = listed.has('colmap') && role.runsEngines ? colmapRequired(env, threads) : undefined;
  return {
    available: { colmap: listed.has('colmap'), nodeodm: listed.has('nodeodm') },
    ...(colmap ? { colmap } : {}),
    ...(listed.has('nodeodm') && url ? { nodeOdmUrl: url } : {}),
  };
}
