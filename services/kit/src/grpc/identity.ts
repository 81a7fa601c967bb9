// A process's identity inside the platform is its certificate: each names the process kinds it
// runs as URI subject alternative names `spiffe://fieldops/<kind>` (one kind per Deployment; every
// kind in the one-process platform). The kind a gRPC service belongs to is its proto package
// (`fieldops.crm.v1.DealService` is served by crm).
import { X509Certificate } from 'node:crypto';

export const IDENTITY_URI_PREFIX = 'spiffe://fieldops/';

/** The URI a certificate carries for `kind`. */
export const identityUri = (kind: string): string => `${IDENTITY_URI_PREFIX}${kind}`;

/** The kinds named by a subjectAltName string ("URI:spiffe://fieldops/crm, DNS:localhost"). */
export function kindsOfSubjectAltName(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return subjectAltName
    .split(/,\s*/)
    .filter((name) => name.startsWith(`URI:${IDENTITY_URI_PREFIX}`))
    .map((name) => name.slice(`URI:${IDENTITY_URI_PREFIX}`.length));
}

/** The kinds a PEM certificate names. */
export const kindsOfCertificate = (pem: string | Buffer): string[] =>
  kindsOfSubjectAltName(new X509Certificate(pem).subjectAltName);

/** `fieldops.capture.v1.RunLeaseService` for the method path `/fieldops.capture.v1.RunLeaseService/ClaimRun`. */
export function serviceOfPath(path: string): string {
  return path.split('/')[1] ?? '';
}

/**
 * Services every store-holding kind serves, whatever their package: each service's tenant dump,
 * which the export packager reads (the exports kind's `reserved` in topology.yaml names its caller).
 */
const SERVED_BY_EVERY_STORE: readonly string[] = ['fieldops.exports.v1.TenantDumpService'];

/** Services every kind's gRPC server serves: grpc.health.v1 (health-service.ts). */
const SERVED_BY_EVERY_KIND: readonly string[] = ['grpc.health.v1.Health'];

/**
 * The kind that serves a gRPC service: its package's second part (`fieldops.crm.v1.X` → crm);
 * undefined for a service every store-holding kind serves.
 */
export function kindOfService(service: string): string | undefined {
  if (SERVED_BY_EVERY_STORE.includes(service) || SERVED_BY_EVERY_KIND.includes(service)) return undefined;
  return service.split('.')[1] ?? '';
}
