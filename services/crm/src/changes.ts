// Field changes live in the kit: every service's rehearsals, events and trails report them.
export { describeChanges, diffFields, setFields } from '@fieldops/kit/domain/changes';
