// Field limits of webhook subscriptions (services/webhooks). How the limits are read and
// re-checked: ./index.ts.

/** Subscriptions (POST /webhooks, PATCH /webhooks/:id): maximum characters per field. */
export const WEBHOOK_FIELD_LIMITS = { url: 2000, description: 500 } as const;
