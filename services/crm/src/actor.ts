// Who a change is attributed to lives in the kit: every service's activity trails use it.
export { actorOf } from '@fieldops/kit/domain/actor';
