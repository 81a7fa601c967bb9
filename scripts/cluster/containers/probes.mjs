// The kubelet's probes, run as the Deployment declares them: httpGet (success is a status from 200
// to 399 within timeoutSeconds) and tcpSocket (a connection within timeoutSeconds), every
// periodSeconds, failing after failureThreshold misses in a row and passing after successThreshold
// answers in a row.
import { connect } from 'node:net';
import { request } from 'node:http';
import { clearTimeout, setTimeout } from 'node:timers';

/** One probe attempt against the pod's address; resolves true or false, never throws. */
export function probeOnce(probe, address) {
  const timeout = probe.timeoutSeconds * 1000;
  return new Promise((resolve) => {
    if (probe.type === 'tcp') {
      const socket = connect({ host: address, port: probe.port });
      const done = (ok) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(timeout, () => done(false));
      socket.once('error', () => done(false));
      socket.once('connect', () => done(true));
      return;
    }
    const req = request(
      { host: address, port: probe.port, path: probe.path, method: 'GET', timeout, agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode >= 200 && res.statusCode < 400);
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}

/**
 * Runs a probe on its period until stopped, reporting each change of verdict to `onResult`
 * (true: passed successThreshold times in a row; false: failed failureThreshold times in a row).
 * @returns {{ stop(): void }}
 */
export function watchProbe(probe, address, onResult) {
  let stopped = false;
  let passes = 0;
  let failures = 0;
  let timer;
  const tick = async () => {
    if (stopped) return;
    const ok = await probeOnce(probe, address);
    if (stopped) return;
    passes = ok ? passes + 1 : 0;
    failures = ok ? 0 : failures + 1;
    if (passes === probe.successThreshold) onResult(true);
    if (failures === probe.failureThreshold) onResult(false);
    timer = setTimeout(tick, probe.periodSeconds * 1000);
  };
  timer = setTimeout(tick, probe.initialDelaySeconds * 1000);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
