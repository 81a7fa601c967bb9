// Which photogrammetry engines the cluster has, decided once by the command that starts it and
// given to every process as FIELDOPS_PHOTOGRAMMETRY_ENGINES, as the chart's ConfigMap does. Capture
// runs without --allow-child-process, so it may not start `colmap help` to look for itself; the
// workers, which may, still check at their start that the COLMAP named here answers them.
// The same rules as services/capture/src/photogrammetry-engines.ts when the variable is unset.
import { spawnSync } from 'node:child_process';

/** Whether `bin` runs as COLMAP (`colmap help` exits 0 and names itself). */
function colmapAnswers(bin) {
  const probe = spawnSync(bin, ['help'], { encoding: 'utf8', timeout: 10_000 });
  return probe.status === 0 && /COLMAP/.test(probe.stdout ?? '');
}

/** FIELDOPS_PHOTOGRAMMETRY_ENGINES for every process: the caller's, or what this machine has. */
export function photogrammetryEnginesOf(env) {
  const listed = env.FIELDOPS_PHOTOGRAMMETRY_ENGINES?.trim();
  if (listed) return listed;
  const engines = [];
  const configured = env.FIELDOPS_COLMAP_BIN?.trim();
  if (configured !== 'off') {
    if (colmapAnswers(configured || 'colmap')) engines.push('colmap');
    else if (configured) {
      throw new Error(
        `FIELDOPS_COLMAP_BIN is "${configured}" but it does not run as COLMAP; fix the path, or set it to "off".`,
      );
    }
  }
  if (env.FIELDOPS_NODEODM_URL?.trim()) engines.push('nodeodm');
  return engines.length > 0 ? engines.join(',') : 'none';
}
