// How a rehearsal lists what a crm write would do; the shapes live in the kit, the event type
// union is crm's own.
import { eventEffect as anyEventEffect } from '@fieldops/kit/domain';
import type { common } from '@fieldops/proto';
import type { CrmEventType } from './events.ts';

export { createEffect, updateEffect } from '@fieldops/kit/domain';

/** An event a write would emit; kind is the event type, id the resource it is about. */
export const eventEffect = (type: CrmEventType, id: string): common.Effect => anyEventEffect(type, id);
