// Where the gateway finds each service when they run as separate processes: one variable per
// service, `FIELDOPS_<SERVICE>_ADDR=host:port` (in Kubernetes, the service's Service name and
// gRPC port; the Helm chart sets them). A service added to ServiceAddresses must be added here:
// the Record type makes forgetting it a compile error.
import { ConfigError } from '@fieldops/kit';
import type { ServiceAddresses } from './clients.ts';

export const SERVICE_ADDRESS_VARIABLES: Record<keyof ServiceAddresses, string> = {
  crm: 'FIELDOPS_CRM_ADDR',
  audit: 'FIELDOPS_AUDIT_ADDR',
  projects: 'FIELDOPS_PROJECTS_ADDR',
  webhooks: 'FIELDOPS_WEBHOOKS_ADDR',
  capture: 'FIELDOPS_CAPTURE_ADDR',
  measurements: 'FIELDOPS_MEASUREMENTS_ADDR',
  exports: 'FIELDOPS_EXPORTS_ADDR',
};

// A host name or IPv4 address, or a bracketed IPv6 address, then a port: what gRPC dials.
const ADDRESS = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/;

export function serviceAddressesFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceAddresses {
  const problems: string[] = [];
  const addresses: Partial<Record<keyof ServiceAddresses, string>> = {};
  for (const [service, variable] of Object.entries(SERVICE_ADDRESS_VARIABLES) as [
    keyof ServiceAddresses,
    string,
  ][]) {
    const value = env[variable]?.trim();
    if (!value)
      problems.push(`${variable} is not set: the gateway needs the host:port of the ${service} service`);
    else if (!ADDRESS.test(value) || Number(value.slice(value.lastIndexOf(':') + 1)) > 65535)
      problems.push(`${variable} must be host:port (got "${value}")`);
    else addresses[service] = value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return addresses as ServiceAddresses;
}
