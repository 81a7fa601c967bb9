// How most HTTP suites start: a platform with one tenant, stopped after the file's tests. Kept out
// of harness.ts because it registers a jest hook, and the harness is also used outside jest
// (scripts/event-latency.ts).
import { afterAll, describe, it } from '@jest/globals';
import { startTestPlatform, type TestPlatform } from './harness.ts';

/** Whether the suites run against a cluster (npm run test:cluster) rather than a platform in process. */
export const onCluster = process.env.FIELDOPS_TEST_TARGET === 'cluster';

/**
 * A part of a black-box suite that needs a handle into the platform's process (stopping it and
 * starting it again on its data dir, a platform of other settings beside the suite's): it runs in
 * `npm test` and is skipped on a cluster. scripts/cluster/suites.mjs (PARTS_IN_PROCESS_ONLY) says
 * which suites have such parts and why, and test/suites-through-topology.test.ts holds the two
 * together.
 */
export const describeInProcess = onCluster ? describe.skip : describe;
export const itInProcess = onCluster ? it.skip : it;

/** A platform of the suite with one tenant and its Manager client (`TestPlatform.tenant`). */
export type SuiteTenant = { platform: TestPlatform } & Awaited<ReturnType<TestPlatform['tenant']>>;

/**
 * How most HTTP suites start, awaited at the top of the test file: a fresh platform with one
 * tenant, stopped after the file's tests. The stop is registered here, so no suite forgets it or
 * stops twice; a tenant that cannot be created stops the platform before the file fails to load.
 */
export async function suiteTenant(
  tenantName: string,
  env: Record<string, string> = {},
): Promise<SuiteTenant> {
  const platform = await startTestPlatform(env);
  try {
    const tenant = await platform.tenant(tenantName);
    afterAll(() => platform.stop());
    return { platform, ...tenant };
  } catch (err) {
    await platform.stop();
    throw err;
  }
}
