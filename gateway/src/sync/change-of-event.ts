// What the change feed records about one domain event: which resource, what happened to it, its
// version tag after the change and the project it belongs to. Only the envelope and the resource
// view services already put in `data` (`data[<kind>]`) are read, so every service's events fit.
import { projectOf, type DomainEvent } from '@fieldops/kit/events';

export const CHANGE_ACTIONS = ['created', 'updated', 'deleted', 'voided'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

export interface Change {
  eventId: string;
  /** The resource kind as the API names it (`lead`, `record`, …). */
  kind: string;
  id: string;
  action: ChangeAction;
  /** The event type behind it, e.g. `deal.stage_changed`. */
  type: string;
  /** The resource's etag after the change, when the event carried it. */
  etag: string | null;
  /** The project the resource belongs to (the project itself for a project). */
  projectId: string | null;
  at: string;
}

type Shape = Record<string, unknown>;

const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null;

const stringOf = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A record the feed can use: the envelope fields it reads are there with their types. */
export function isFeedEvent(value: unknown): value is DomainEvent {
  if (!isObject(value) || !isObject(value['resource']) || !isObject(value['data'])) return false;
  const resource = value['resource'];
  return [
    value['id'],
    value['type'],
    value['tenantId'],
    value['occurredAt'],
    resource['kind'],
    resource['id'],
  ].every((field) => typeof field === 'string' && field !== '');
}

/** created/deleted/voided say themselves; every other event (stage_changed, sent, paid…) updated it. */
export function actionOf(type: string): ChangeAction {
  const what = type.slice(type.lastIndexOf('.') + 1);
  return (CHANGE_ACTIONS as readonly string[]).includes(what) ? (what as ChangeAction) : 'updated';
}

export function changeOf(event: DomainEvent): Change {
  const { kind, id } = event.resource;
  const view = isObject(event.data[kind]) ? (event.data[kind] as Shape) : {};
  return {
    eventId: event.id,
    kind,
    id,
    action: actionOf(event.type),
    type: event.type,
    etag: stringOf(view['etag']) ?? stringOf(event.data['etag']),
    projectId: projectOf(event),
    at: event.occurredAt,
  };
}
