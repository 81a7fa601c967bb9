// Field value rules live in the kit: every service's records share them.
export { cleanText, compact, emailKeyOf, patched, requiredName } from '@fieldops/kit/domain/fields';
