// A subscription's event-type filter, checked against the catalogue (contracts/).
import { WEBHOOK_EVENT_TYPE_NAMES, isWebhookEventType } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';

/** The filter as stored: known types only, each once, in the order sent. Empty means every type. */
export function checkEventTypes(types: readonly string[]): string[] {
  const unknown = types.filter((type) => !isWebhookEventType(type));
  if (unknown.length > 0) {
    throw new AppError(
      'field_invalid_enum',
      `eventTypes holds ${unknown.map((type) => `"${type.slice(0, 100)}"`).join(', ')}, not in the event-type catalogue; GET /event-types lists the types.`,
      { field: 'eventTypes', allowed: WEBHOOK_EVENT_TYPE_NAMES },
    );
  }
  return [...new Set(types)];
}
