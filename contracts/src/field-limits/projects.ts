// Field limits of projects and their records (services/projects). How the limits are read and
// re-checked: ./index.ts.
import { ID_REF_MAX } from './shared.ts';

/** Projects (POST /projects, PATCH /projects/:id): maximum characters per field, after trimming. */
export const PROJECT_FIELD_LIMITS = {
  customerId: ID_REF_MAX,
  customerName: 200,
  name: 200,
  siteAddress: 500,
  accessNotes: 2000,
  ownerName: 200,
  ownerId: ID_REF_MAX,
} as const;

/** GET /projects filters: exact status and vertical (both short slugs), and the customer. */
export const PROJECT_FILTER_LIMITS = {
  status: 64,
  vertical: 64,
  customerId: ID_REF_MAX,
} as const;

/**
 * Project records (POST and PATCH /projects/:id/records...): maximum characters per text field,
 * counted as sent. number and revision are the kinds' own fields the service also takes.
 */
export const RECORD_FIELD_LIMITS = {
  title: 200,
  subject: 200,
  question: 5000,
  description: 5000,
  ballInCourt: 200,
  involvedParty: 200,
  number: 50,
  revision: 20,
} as const;

/** A record's assignees: how many member ids, each at most ID_REF_MAX characters. */
export const RECORD_ASSIGNEES_MAX = 20;
